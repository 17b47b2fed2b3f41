import GestureConfiguration
import Gestures
import Logging
import TouchEvents
import TouchInput

/// Where the desktop actions' events go: a virtual device (``UInputDevice``), or a recorder
/// in tests.
public protocol VirtualInputWriter: AnyObject {
    /// Writes events; the kernel stamps them with the time they are written.
    func write(_ events: [InputEvent]) throws(InputError)
}

extension UInputDevice: VirtualInputWriter {}

/// The two virtual devices the desktop actions drive.
public enum VirtualInputKind: String, Sendable, CaseIterable {
    case keyboard, pointer, touchpad

    /// What the device is created from.
    public var description: DeviceDescription {
        switch self {
        case .keyboard: .virtualKeyboard
        case .pointer: .virtualPointer
        case .touchpad: .virtualTouchpad
        }
    }
}

/// Turns gestures into keyboard and pointer events (`key`, `hold`, `button`, `scroll`,
/// `pointer` actions) and writes them to the virtual devices.
///
/// Every key it presses it releases: a chord at once (pressed in order, released in reverse),
/// a `hold` when its gesture ends or is cancelled, and everything still held at
/// ``releaseAll(reason:)`` (a device removed, a reload, a stop). Each press and release is its
/// own `SYN_REPORT` frame, as a real keyboard sends them.
final class DesktopActions {
    /// Finger travel, in mm, for one click of the wheel (120 high-resolution units). 5 mm: a
    /// 50 mm two-finger stroke scrolls ten clicks, about as far as a flick of a mouse wheel,
    /// and a slow 1 mm movement still moves the page (high-resolution consumers see 24 units).
    static let millimetresPerWheelClick = 5.0
    /// High-resolution wheel units in a click (the kernel's convention for REL_WHEEL_HI_RES).
    static let highResolutionUnitsPerClick = 120
    /// Pointer counts per mm of finger travel for `pointer: move`: 4, a 100 counts-per-inch
    /// mouse before the compositor's acceleration.
    static let pointerCountsPerMillimetre = 4.0

    var keyboard: (any VirtualInputWriter)?
    var pointer: (any VirtualInputWriter)?
    var touchpad: (any VirtualInputWriter)?
    /// The touchpad gestures in progress (``TouchpadStroke``), by recognizer.
    private var strokes: [ObjectIdentifier: TouchpadStroke] = [:]
    /// The virtual touchpad's next tracking id (two a stroke).
    private var nextTrackingID: Int32 = 1
    /// Cancelled touchpad gestures whose fingers lift once libinput has ended them
    /// (``TouchpadStroke/cancelHold``), and gestures that ended without moving the pad, whose
    /// fingers stay past libinput's tap time (``TouchpadStroke/noTapHold``), in time order.
    private var pendingLifts: [(at: Instant, events: [InputEvent], label: String)] = []
    /// Until when touchpad gestures' frames are held (``heldFrames``): when the last fingers on
    /// the pad lift. Lifting those fingers early would let libinput end a cancelled gesture as
    /// completed (it waits 100 ms for a changed finger count) or take an unmoved one for a tap.
    private var heldFramesUntil: Instant?
    /// Touchpad gestures' frames not yet on the pad, in order, each tagged with its stroke's
    /// first tracking id, while ``heldFramesUntil`` holds.
    private var heldFrames: [HeldFrames] = []
    /// The latest gesture time seen (for a cancel that no gesture times: a reload).
    private var lastTime = Instant.zero

    /// When the last fingers still on the virtual touchpad lift.
    var lastPendingLift: Instant? { pendingLifts.last?.at }

    /// A held gesture's frames (``heldFrames``): to send as they are, or, for a gesture that
    /// ended without moving the pad, its lift, ``TouchpadStroke/noTapHold`` after they are sent.
    struct HeldFrames {
        var stroke: Int32
        var events: [InputEvent]
        var liftsAfterTapTime: Bool
        var label: String
    }

    /// When the next cancelled touchpad gesture's fingers lift, or held frames go.
    var nextDeadline: Instant? { Instant.earliest(pendingLifts.first?.at, heldFramesUntil) }

    /// Lifts the fingers of the cancelled touchpad gestures whose time has come, then sends the
    /// frames held for them (``heldFramesUntil``), before any lift of their own. With `all`
    /// (the touchpad is going), every pending lift goes now and held frames never reach the pad.
    func fireDeadlines(at now: Instant, all: Bool = false) {
        if all {
            heldFrames.removeAll()
            heldFramesUntil = nil
        }
        while true {
            if let until = heldFramesUntil, until <= now, pendingLifts.first.map({ $0.at > until }) ?? true {
                sendHeldFrames(at: now)
            }
            guard let first = pendingLifts.first, all || first.at <= now else { break }
            pendingLifts.removeFirst()
            send(first.events, to: .touchpad, label: first.label)
        }
    }

    /// Sends held frames in order, up to the lift of a gesture that never moved the pad: that
    /// lift comes ``TouchpadStroke/noTapHold`` from now, and what follows it stays held until then.
    private func sendHeldFrames(at now: Instant) {
        heldFramesUntil = nil
        while !heldFrames.isEmpty {
            let frames = heldFrames.removeFirst()
            if frames.liftsAfterTapTime {
                liftLater(frames.events, at: now + TouchpadStroke.noTapHold, label: frames.label)
                if !heldFrames.isEmpty { heldFramesUntil = now + TouchpadStroke.noTapHold }
                return
            }
            send(frames.events, to: .touchpad, label: frames.label)
        }
    }

    /// Sends `events` of `stroke`, or holds them while frames are held (``heldFramesUntil``).
    private func sendToPad(_ events: [InputEvent], of stroke: TouchpadStroke, label: String) {
        if heldFramesUntil != nil {
            heldFrames.append(HeldFrames(stroke: stroke.firstID, events: events, liftsAfterTapTime: false, label: label))
        } else {
            send(events, to: .touchpad, label: label)
        }
    }

    /// Ends `stroke` cancelled at `time`: its finger count changes now, its fingers lift later
    /// (or now, when the service is letting go of everything). A gesture whose frames are held
    /// never reached the pad: they are dropped.
    private func cancel(_ stroke: TouchpadStroke, at time: Instant?, label: String) {
        if heldFrames.contains(where: { $0.stroke == stroke.firstID }) {
            heldFrames.removeAll { $0.stroke == stroke.firstID }
            return
        }
        let (change, lift) = stroke.cancelled()
        send(change, to: .touchpad, label: label)
        if let time {
            liftLater(lift, at: time + TouchpadStroke.cancelHold, label: label)
        } else {
            send(lift, to: .touchpad, label: label)
        }
    }

    private func liftLater(_ events: [InputEvent], at time: Instant, label: String) {
        let index = pendingLifts.firstIndex { $0.at > time } ?? pendingLifts.endIndex
        pendingLifts.insert((time, events, label), at: index)
    }
    private let logger: Logger
    /// Keys held by `hold` actions, by recognizer.
    private var held: [ObjectIdentifier: (codes: [UInt16], label: String)] = [:]
    /// Where each scrolling or pointing pan was last, and what it has not yet sent.
    private var motion: [ObjectIdentifier: Motion] = [:]
    /// Labels already warned about a missing device (once each).
    private var warnedMissing: Set<String> = []

    struct Motion {
        var last: Point
        /// High-resolution units not yet sent (less than one), and those sent since the last
        /// classic click, per axis.
        var wheelRemainder = Point(x: 0, y: 0)
        var clickProgress = (x: 0, y: 0)
        var pointerRemainder = Point(x: 0, y: 0)
    }

    init(logger: Logger) {
        self.logger = logger
    }

    /// Keys held right now (for tests and `--verbose`).
    var heldKeys: [UInt16] { held.values.flatMap(\.codes) }

    /// Carries out `action`'s desktop parts for `g`. `millimetresPerUnit` turns layout units
    /// into mm (scroll and pointer ratios are per mm of finger travel); `screen` is the layout's
    /// size (a stroke across it is a touchpad action's whole `stroke`).
    func perform(_ action: ActionSpec, _ g: Gesture, recognizer: ObjectIdentifier, label: String, millimetresPerUnit: Double,
                 screen: SurfaceSize = SurfaceSize(width: 0, height: 0)) {
        if let touchpad = action.touchpad { stroke(touchpad, g, recognizer: recognizer, label: label, screen: screen) }
        let fires = g.kind.isDiscrete ? g.state == .recognized : action.on.contains(g.state)
        if fires, let chord = action.key {
            var events: [InputEvent] = []
            for code in chord.codes { events += frame(EventType.key, code, 1) }
            for code in chord.codes.reversed() { events += frame(EventType.key, code, 0) }
            send(events, to: .keyboard, label: label)
        }
        if fires, let button = action.button {
            send(frame(EventType.key, button.code, 1) + frame(EventType.key, button.code, 0), to: .pointer, label: label)
        }
        if let chord = action.hold { hold(chord, g.state, recognizer: recognizer, label: label) }
        if action.scroll != nil || action.pointer { move(action, g, recognizer: recognizer, label: label, millimetresPerUnit: millimetresPerUnit) }
    }

    private func hold(_ chord: KeyChord, _ state: GestureState, recognizer: ObjectIdentifier, label: String) {
        switch state {
        case .began:
            release(recognizer)
            send(chord.codes.flatMap { frame(EventType.key, $0, 1) }, to: .keyboard, label: label)
            held[recognizer] = (chord.codes, label)
            logger.debug("keys held", metadata: ["action": "\(label)", "keys": "\(chord)"])
        case .ended, .cancelled, .failed:
            release(recognizer)
        case .possible, .changed, .recognized:
            break
        }
    }

    /// Releases what `recognizer`'s `hold` holds, in reverse order.
    func release(_ recognizer: ObjectIdentifier) {
        guard let entry = held.removeValue(forKey: recognizer) else { return }
        send(entry.codes.reversed().flatMap { frame(EventType.key, $0, 0) }, to: .keyboard, label: entry.label)
        logger.debug("keys released", metadata: ["action": "\(entry.label)", "keys": "\(KeyChord(codes: entry.codes))"])
    }

    /// Releases every held key, lifts the virtual touchpad's fingers (its gestures cancelled)
    /// and forgets every pan in progress.
    ///
    /// `stopping`: the service is letting go of the devices, and the touchpad's fingers lift at
    /// once; otherwise (a reload) a cancelled touchpad gesture keeps its fingers until libinput
    /// has ended it cancelled.
    func releaseAll(reason: String, stopping: Bool = false) {
        if !held.isEmpty { logger.info("releasing held keys", metadata: ["reason": "\(reason)", "keys": "\(heldKeys.count)"]) }
        for recognizer in Array(held.keys) { release(recognizer) }
        releaseTouchpad(reason: reason, going: stopping)
        motion.removeAll()
    }

    /// Lifts the virtual touchpad's fingers: gestures in progress cancelled, and, when the
    /// touchpad is about to go (`going`), cancelled gestures' fingers at once, held frames
    /// dropped; else (a reload, a stop that waits) they lift when libinput has ended them,
    /// counted from `time` (the latest gesture's, when later).
    func releaseTouchpad(reason: String, going: Bool, at time: Instant? = nil) {
        if !strokes.isEmpty { logger.info("lifting the virtual touchpad's fingers", metadata: ["reason": "\(reason)"]) }
        // Cancelled first: a gesture whose frames are held never reaches the pad.
        let now = max(lastTime, time ?? lastTime)
        for (recognizer, stroke) in strokes {
            strokes[recognizer] = nil
            cancel(stroke, at: going ? nil : now, label: "touchpad")
        }
        if going { fireDeadlines(at: .zero, all: true) }
    }

    /// The virtual device of `kind`, once made.
    func device(_ kind: VirtualInputKind) -> (any VirtualInputWriter)? {
        switch kind {
        case .keyboard: keyboard
        case .pointer: pointer
        case .touchpad: touchpad
        }
    }

    /// A pan or a pinch on the screen as a gesture of the virtual touchpad: its fingers land at
    /// `began`, follow at `changed`, lift at `ended`, and end cancelled at `cancelled`.
    private func stroke(_ action: TouchpadAction, _ g: Gesture, recognizer: ObjectIdentifier, label: String, screen: SurfaceSize) {
        lastTime = max(lastTime, g.time)
        switch g.state {
        case .began:
            // One pad, one gesture: one still in progress — another touchscreen's, another
            // recognizer's — is cancelled. This one's frames are held until the fingers still
            // on the pad have lifted (``heldFramesUntil``): 150 or 250 ms after the gesture
            // before it ended, and after each held one before it.
            fireDeadlines(at: g.time)
            for (other, old) in strokes {
                strokes[other] = nil
                logger.debug("touchpad gesture cancelled: another began", metadata: ["action": "\(label)"])
                cancel(old, at: g.time, label: label)
            }
            if heldFramesUntil == nil, let last = pendingLifts.last?.at {
                heldFramesUntil = last
            }
            if let until = heldFramesUntil {
                logger.debug("touchpad gesture held for the fingers still down", metadata: ["action": "\(label)", "until": "\(until)"])
            }
            var s = TouchpadStroke(action: action, screen: screen, firstID: nextTrackingID)
            nextTrackingID = nextTrackingID >= 65000 ? 1 : nextTrackingID + 2
            sendToPad(s.began(), of: s, label: label)
            switch g.values {
            case .pinch(let pinch):
                // Spread as the screen's fingers have spread since they landed: from then on the
                // pad's distance is the screen's times the same factor.
                let spread = s.pinched(scale: pinch.scale)
                if !spread.isEmpty { sendToPad(spread, of: s, label: label) }
            default:
                // The pan's slop before it began is the swipe's origin: the fingers follow from there.
                _ = s.moved(translation: Self.movement(of: g))
            }
            strokes[recognizer] = s
            logger.debug("touchpad gesture began", metadata: ["action": "\(label)", "as": "\(action)"])
        case .changed, .ended:
            guard var s = strokes[recognizer] else { return }
            let moved: [InputEvent] = switch g.values {
            case .pinch(let pinch): s.pinched(scale: pinch.scale)
            default: s.moved(translation: Self.movement(of: g))
            }
            if !moved.isEmpty { sendToPad(moved, of: s, label: label) }
            if g.state == .ended {
                strokes[recognizer] = nil
                if s.hasMoved {
                    sendToPad(s.ended(), of: s, label: label)
                } else if heldFramesUntil != nil {
                    // Fingers that never moved, lifted at once, are a tap to libinput (a
                    // three-finger one clicks the middle button): they stay past its tap time,
                    // counted from when they land.
                    heldFrames.append(HeldFrames(stroke: s.firstID, events: s.ended(), liftsAfterTapTime: true, label: label))
                } else {
                    liftLater(s.ended(), at: g.time + TouchpadStroke.noTapHold, label: label)
                }
            } else {
                strokes[recognizer] = s
            }
        case .cancelled, .failed:
            guard let s = strokes.removeValue(forKey: recognizer) else { return }
            cancel(s, at: g.time, label: label)
        case .possible, .recognized:
            break
        }
    }

    /// What a scroll or pointer action follows: the fingers' movement since the gesture began
    /// (a pan's, an edge pan's, a swipe's); the other kinds move nothing.
    private static func movement(of g: Gesture) -> Point {
        switch g.values {
        case .pan(let pan): pan.translation
        case .edgePan(let edgePan): edgePan.translation
        case .swipe(let swipe): swipe.translation
        case .tap, .longPress, .pinch, .rotate, .custom: Point(x: 0, y: 0)
        }
    }

    private func move(_ action: ActionSpec, _ g: Gesture, recognizer: ObjectIdentifier, label: String, millimetresPerUnit: Double) {
        let position = Self.movement(of: g)
        switch g.state {
        case .began:
            // Scrolling starts where the pan was recognised: the slop before it moves nothing.
            motion[recognizer] = Motion(last: position)
            return
        case .changed, .ended:
            break
        case .cancelled, .failed, .possible, .recognized:
            motion[recognizer] = nil
            return
        }
        guard var m = motion[recognizer] else { return }
        let dx = (position.x - m.last.x) * millimetresPerUnit
        let dy = (position.y - m.last.y) * millimetresPerUnit
        m.last = position
        var events: [InputEvent] = []
        if let axes = action.scroll {
            // Natural direction, as on a touchscreen: the content follows the fingers. Fingers
            // moving down scroll up (REL_WHEEL positive); moving right scroll left (REL_HWHEEL
            // negative).
            let unitsPerMillimetre = Double(Self.highResolutionUnitsPerClick) / Self.millimetresPerWheelClick
            if axes != .horizontal {
                events += wheel(dy * unitsPerMillimetre, remainder: &m.wheelRemainder.y, progress: &m.clickProgress.y,
                                highResolution: RelCode.wheelHighResolution, classic: RelCode.wheel)
            }
            if axes != .vertical {
                events += wheel(-dx * unitsPerMillimetre, remainder: &m.wheelRemainder.x, progress: &m.clickProgress.x,
                                highResolution: RelCode.hWheelHighResolution, classic: RelCode.hWheel)
            }
        }
        if action.pointer {
            let x = whole(dx * Self.pointerCountsPerMillimetre, remainder: &m.pointerRemainder.x)
            let y = whole(dy * Self.pointerCountsPerMillimetre, remainder: &m.pointerRemainder.y)
            if x != 0 { events.append(event(EventType.rel, RelCode.x, x)) }
            if y != 0 { events.append(event(EventType.rel, RelCode.y, y)) }
        }
        motion[recognizer] = g.state == .ended ? nil : m
        guard !events.isEmpty else { return }
        events.append(event(EventType.syn, SynCode.report, 0))
        send(events, to: .pointer, label: label)
    }

    /// The high-resolution units of `amount` (plus what was left over), and a classic click
    /// each time 120 of them have gone one way.
    private func wheel(_ amount: Double, remainder: inout Double, progress: inout Int, highResolution: UInt16, classic: UInt16) -> [InputEvent] {
        let units = whole(amount, remainder: &remainder)
        guard units != 0 else { return [] }
        var events = [event(EventType.rel, highResolution, units)]
        if (progress > 0 && units < 0) || (progress < 0 && units > 0) { progress = 0 }
        progress += Int(units)
        let clicks = progress / Self.highResolutionUnitsPerClick
        if clicks != 0 {
            events.append(event(EventType.rel, classic, Int32(clicks)))
            progress -= clicks * Self.highResolutionUnitsPerClick
        }
        return events
    }

    /// The whole part of `value + remainder`; the fraction stays in `remainder`.
    private func whole(_ value: Double, remainder: inout Double) -> Int32 {
        let total = value + remainder
        let w = total.rounded(.towardZero)
        remainder = total - w
        return Int32(clamping: Int(w))
    }

    private func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: .zero, type: type, code: code, value: value)
    }

    /// One event and its `SYN_REPORT`.
    private func frame(_ type: UInt16, _ code: UInt16, _ value: Int32) -> [InputEvent] {
        [event(type, code, value), event(EventType.syn, SynCode.report, 0)]
    }

    private func send(_ events: [InputEvent], to kind: VirtualInputKind, label: String) {
        guard let device = device(kind) else {
            if warnedMissing.insert(label).inserted {
                logger.warning("action skipped: there is no virtual \(kind.rawValue) (see the start of the log)", metadata: ["action": "\(label)"])
            }
            return
        }
        do throws(InputError) {
            try device.write(events)
        } catch {
            logger.error("virtual \(kind.rawValue): \(error.message)", metadata: ["action": "\(label)"])
        }
    }
}
