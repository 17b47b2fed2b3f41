import Logging
import TouchEvents

/// Which contacts are fingers — between the decoder's frames and the touch router, as libinput
/// keeps its palm and thumb handling apart from the touches it routes. Like libinput's
/// (`evdev-mt-touchpad-thumb.c`, `tp_palm_detect_*`), it keeps one role per contact down, has
/// one handler per role, and logs each change of role at debug level
/// (`contact 3: resting → finger (moved 3.4 mm from its rest)`):
///
/// - **Finger** (a contact with no role of its own, ``ContactRole``): a new contact is
///   classified (``classify(_:_:kept:)``): it may be any of the roles below from its first report.
/// - **Palm**: presses or touches like one (``TouchPolicy/palmPressure``,
///   ``TouchPolicy/palmSize``), lands beside one, or lands
///   where one just lifted: left out from then on (cancelled where it counted). One that landed
///   beside a palm without pressing like one may yet point away, and count as a finger.
/// - **Thumb**: lands in a touchpad's thumb area (where the device tells a thumb by pressure or
///   size, ``TouchPolicy/thumbPressure``, only pressing or touching like one, or in the area's
///   lowest part): left out until it leaves it, or moves quickly beside a finger.
/// - **Resting**: a finger that lands beside a scroll, or rests while two later fingers move:
///   left out until it moves away.
/// - **Hover**: lands pressing nothing (``TouchPolicy/hoverPressure``), or touching with less
///   than a touch's size (``TouchPolicy/touchSizeRange``): left out until it presses or touches.
///
/// Apart from the roles it notes where contacts lift, and whether each vanished pressing as
/// hard as ever, for the trackers to tell a touch bouncing from a new one.
///
/// ``filter(_:notBefore:)`` takes each frame and gives its fingers (nil when they are the frame as
/// it came), and notes what they reported (``track(_:)``); a ``FilteredFrame`` reads those notes
/// in place for the trackers.
final class ContactFilter {
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    @exclusivity(unchecked) var policy: TouchPolicy {
        didSet { leavesNothingOut = Self.leavesNothingOut(policy) }
    }
    /// The policy names nothing that could leave a contact out — no palm pressure or size, thumb
    /// line, hover pressure, touch size range or resting time (a touchscreen that reports
    /// neither pressure nor size): every frame is its fingers as it is, found without a look.
    @exclusivity(unchecked) private(set) var leavesNothingOut: Bool
    /// Set while debug logging is on.
    @exclusivity(unchecked) var logger: Logger?
    /// Hears every contact left out, with why (``GesturePipeline/leftOutObserver``).
    @exclusivity(unchecked) var leftOutObserver: ((Int, LeftOutReason, String, Instant) -> Void)?

    /// The contacts down that are not fingers, each with its role, in the order they took it:
    /// the first palm a contact lands near is the oldest.
    @exclusivity(unchecked) var roles: [(id: Int, role: ContactRole)] = []
    /// Where and when palms (judged by pressure) lifted, for the last
    /// ``GestureDefaults/palmRelandTime``: a palm flickers, lifting and landing again in place.
    @exclusivity(unchecked) var liftedPalms: [(at: Point, time: Instant)] = []
    /// Whether any contact has pressed more than ``TouchPolicy/hoverPressure``: until one has,
    /// pressure says nothing (a device may declare `ABS_MT_PRESSURE` and never send it) and no
    /// contact hovers.
    @exclusivity(unchecked) var pressureSeen = false
    /// When each contact down landed, and where it was when the last of them landed, while
    /// ``TouchPolicy/restingFingerTime`` is set: what tells a resting finger from fingers that
    /// came to move.
    @exclusivity(unchecked) var landings: [Landing] = []
    /// Places contacts left by jumping, for ``bounceWindow`` (``noteLandings(_:)``).
    @exclusivity(unchecked) var jumpOrigins: [JumpOrigin] = []

    /// What each finger down has reported (``track(_:)``): what tells whether it vanished.
    @exclusivity(unchecked) var reports: [ContactReports] = []
    /// The contacts that lifted in this frame and whether each vanished (``FilteredFrame/lifts``).
    @exclusivity(unchecked) var liftsVanishing: [(contact: Int, vanished: Bool)] = []
    /// Where contacts lifted, in any sequence, and until when a touch landing there is one of
    /// them bouncing (``FilteredFrame/recentLifts``; this frame's lifts included once
    /// ``track(_:)`` has run).
    @exclusivity(unchecked) var lifts: [(until: Instant, at: Point)] = []
    /// The device's time between reports, which makes a bounce longer on a device that reports
    /// slowly (``TouchPolicy/bounceReports``) and tells whether it reports often enough to see
    /// a finger ease off as it lifts (``TouchPolicy/vanishedTapReportInterval``).
    @exclusivity(unchecked) var reportIntervals = ReportIntervals()
    /// True once a contact of this device has reported, while down, pressing differently from
    /// how it landed: its firmware reports pressure as it changes, so a finger easing off before
    /// it lifts would show (``TouchPolicy/vanishedTapReportInterval``). Some firmware reports a
    /// contact's pressure as it lands and never again (a Cypress PS/2 pad: constant until the
    /// lift, every contact of a fast three-finger tap "vanishing"); there a contact lifting as
    /// hard as ever says nothing, and nothing vanishes. Learned per device session, as the
    /// report interval is: no static property (the pressure axis's range) tells.
    @exclusivity(unchecked) var pressureChanges = false
    /// The contacts landing in this frame after resting, with where they had landed
    /// (``FilteredFrame/restedLandings``).
    @exclusivity(unchecked) var restedLandings: [(id: Int, at: Point)] = []
    /// The contacts this frame ends or cancels though they are still down (a palm found, a
    /// resting finger left out): no lift a touch landing there could bounce from.
    @exclusivity(unchecked) var leftOut: [Int] = []
    /// Thumbs that lifted in this frame and tap: they land in it, and lift in a frame of their
    /// own (``takeThumbTapLift(at:)``).
    @exclusivity(unchecked) var thumbTapLifts: [TouchContact] = []

    init(policy: TouchPolicy) {
        self.policy = policy
        leavesNothingOut = Self.leavesNothingOut(policy)
    }

    private static func leavesNothingOut(_ policy: TouchPolicy) -> Bool {
        policy.palmPressure == nil && policy.palmSize == nil && policy.thumbLine == nil && policy.hoverPressure == nil
            && policy.touchSizeRange == nil && policy.restingFingerTime == nil && policy.wholeTouchPalm == nil
    }

    /// `frame`'s fingers, stamped no earlier than `time` (the latest the pipeline has seen), or nil
    /// when nothing is left out of it through the checks that are quick to say so and it is
    /// stamped late enough: then the fingers are `frame` as it came (the usual case: nothing is
    /// copied, which cost a reference count each way). What the trackers read besides — where
    /// contacts lifted and landed after resting — is noted here for ``FilteredFrame``.
    @inline(__always)
    func filter(_ frame: TouchFrame, notBefore time: Instant) -> TouchFrame? {
        var fingers = fingersOnly(frame)
        if (fingers?.time ?? frame.time) < time {
            if fingers == nil { fingers = frame }
            fingers?.time = time
        }
        if let fingers { track(fingers) } else { track(frame) }
        return fingers
    }

    /// Why the contact `id` is left out now, or nil for a finger.
    func leftOutReason(_ id: Int) -> LeftOutReason? {
        roles.first { $0.id == id }?.role.reason
    }

    /// Whether `contact` is a finger that was down before this frame and still is.
    func isFingerDownBefore(_ contact: TouchContact) -> Bool {
        contact.phase != .began && !contact.phase.isFinal && !isLeftOut(contact.id)
    }

    /// Whether a finger down before `pass`'s frame (and still) is within a two-finger scroll's
    /// reach of `position` (``GestureDefaults/withinScrollReach(_:_:)``): a thumb farther from
    /// every finger is no part of their gesture.
    func fingerWithinScrollReach(of position: Point, _ pass: FramePass) -> Bool {
        pass.fingerDown && pass.frame.contacts.contains { c in
            isFingerDownBefore(c) && GestureDefaults.withinScrollReach(Point(x: c.x, y: c.y), position)
        }
    }

    /// The palm (of ``roles``) that a contact landing at `position` is near enough to be a piece
    /// of (``GestureDefaults/palmFragmentDistance``), the first to have become one.
    func palm(near position: Point) -> (id: Int, role: ContactRole)? {
        roles.first { entry in
            entry.role.palmPosition.map { ($0 - position).length < GestureDefaults.palmFragmentDistance } ?? false
        }
    }

    /// Whether the contact `id` has a role: left out as a palm, a thumb, a resting finger or a hover.
    func isLeftOut(_ id: Int) -> Bool {
        roles.contains { $0.id == id }
    }

    /// `frame` with only its fingers: each contact goes to its role's handler, or, with none, is
    /// classified. The fingers `BTN_TOOL_*` counted for what is left out go too. Nil (the frame as
    /// it is) when nothing can be left out (``leavesNothingOut``, or no hover pressure yet seen
    /// and nothing else to look for), and when no contact has a role or could take one now; a
    /// frame of its own otherwise, even if nothing turns out to be left out.
    private func fingersOnly(_ frame: TouchFrame) -> TouchFrame? {
        if !restedLandings.isEmpty { restedLandings.removeAll() }
        if !leftOut.isEmpty { leftOut.removeAll() }
        // What the checks below find for such a policy, without them (about 50 instructions).
        if leavesNothingOut { return nil }
        let threshold = policy.palmPressure
        let palmSize = policy.palmSize
        let thumbLine = policy.thumbLine
        if !pressureSeen, let hover = policy.hoverPressure {
            pressureSeen = frame.contacts.contains { ($0.pressure ?? .min) > hover }
        }
        let hover = pressureSeen ? policy.hoverPressure : nil
        let touchSize = policy.touchSizeRange
        let resting = policy.restingFingerTime != nil && noteLandings(frame)
        let wholePalm = policy.wholeTouchPalm
        guard threshold != nil || palmSize != nil || thumbLine != nil || hover != nil || touchSize != nil || resting
              || wholePalm != nil else { return nil }
        guard !roles.isEmpty || resting || !liftedPalms.isEmpty
              || (wholePalm.map { FramePass.wholeTouchLikeAPalm(frame, $0) } ?? false)
              || frame.contacts.contains(where: { c in
                  (threshold.map { (c.pressure ?? .min) >= $0 } ?? false)
                      || (palmSize.map { max(c.touchMajor ?? .min, c.touchMinor ?? .min) > $0 } ?? false)
                      || (c.phase == .began && (thumbLine.map { c.y >= $0 } ?? false || hover.map { (c.pressure ?? .max) <= $0 } ?? false
                                                || touchSize.map { !$0.touches(major: c.touchMajor, minor: c.touchMinor) } ?? false))
              }) else { return nil }
        if !liftedPalms.isEmpty {
            liftedPalms.removeAll { frame.time - $0.time > GestureDefaults.palmRelandTime }
        }
        // Whether a finger was down before this frame and still is, for the thumbs (one landing
        // may yet be a palm, a hover or a thumb, and counts from its next report). A thumb is
        // never one of them, so a thumb is alone when there is none.
        let fingerDown = roles.contains(where: { $0.role.rests }) && frame.contacts.contains(where: isFingerDownBefore)
        let pass = FramePass(frame: frame, palmPressure: threshold, palmSize: palmSize, thumbLine: thumbLine,
                             thumbExclusionLine: policy.thumbExclusionLine, thumbPressure: policy.thumbPressure,
                             thumbSize: policy.thumbSize, hoverPressure: hover, touchSize: touchSize,
                             wholeTouchPalm: wholePalm, resting: resting, fingerDown: fingerDown)
        var kept = frame
        kept.contacts.removeAll()
        for var contact in frame.contacts {
            if let i = roles.firstIndex(where: { $0.id == contact.id }) {
                switch roles[i].role {
                case .hover(let since):
                    guard let pressing = hovering(contact, at: i, since: since, pass) else { continue }
                    // It presses: it lands now, and is classified as any contact landing.
                    contact = pressing
                case .palm(let palm):
                    palmReported(contact, at: i, palm, pass, kept: &kept)
                    continue
                case .thumb(let rest), .resting(let rest):
                    restingReported(contact, at: i, rest, pass, kept: &kept)
                    continue
                }
            }
            classify(contact, pass, kept: &kept)
        }
        kept.toolFingerCount = max(0, frame.toolFingerCount - roles.count)
        return kept
    }

    /// `contact`, left out until now (resting, or beside a palm), lands in `kept` as a finger
    /// down since `time`; its motion, for a transform's every-finger check, counts from `landed`
    /// (``FilteredFrame/restedLandings``).
    func land(_ contact: TouchContact, downSince time: Instant, landedAt landed: Point, in kept: inout TouchFrame) {
        var landing = contact
        landing.phase = .began
        landing.downSince = time
        kept.contacts.append(landing)
        restedLandings.append((contact.id, landed))
    }

    /// Logs, at debug level, the contact `id` taking a new role at `time` (`new`: a contact
    /// first seen), and tells ``leftOutObserver`` when that leaves it out for `reason`.
    func transition(_ id: Int, from: String, to: String, leftOut reason: LeftOutReason? = nil, at time: Instant,
                    _ why: @autoclosure () -> String) {
        guard logger != nil || (reason != nil && leftOutObserver != nil) else { return }
        let because = why()
        logger?.debug("contact \(id): \(from) → \(to) (\(because))")
        if let reason { leftOutObserver?(id, reason, because, time) }
    }

    /// Forgets every contact (after they were cancelled). The device's report interval, and
    /// whether its pressure changes, are kept: they are the device's, not the touches'.
    func removeAll() {
        reports.removeAll()
        roles.removeAll()
        liftedPalms.removeAll()
        lifts.removeAll()
        pressureSeen = false
        landings.removeAll()
        jumpOrigins.removeAll()
        thumbTapLifts.removeAll()
    }
}

/// What one frame's handlers share: the frame, the device's thresholds as they stand, and
/// whether a finger was down before it and still is.
struct FramePass {
    let frame: TouchFrame
    /// ``TouchPolicy/palmPressure``.
    let palmPressure: Int32?
    /// ``TouchPolicy/palmSize``.
    let palmSize: Int32?
    /// ``TouchPolicy/thumbLine``, mm from the top.
    let thumbLine: Double?
    /// ``TouchPolicy/thumbExclusionLine``, mm from the top.
    let thumbExclusionLine: Double?
    /// ``TouchPolicy/thumbPressure``.
    let thumbPressure: Int32?
    /// ``TouchPolicy/thumbSize``.
    let thumbSize: Int32?
    /// ``TouchPolicy/hoverPressure``, once some contact pressed more (``ContactFilter/pressureSeen``).
    let hoverPressure: Int32?
    /// ``TouchPolicy/touchSizeRange``.
    let touchSize: TouchSizeRange?
    /// ``TouchPolicy/wholeTouchPalm``.
    let wholeTouchPalm: WholeTouch?
    /// The frame may hold a resting finger (three or more contacts, a resting time).
    let resting: Bool
    /// A finger was down before this frame and still is (looked for only while a thumb or a
    /// resting finger is left out).
    let fingerDown: Bool

    var time: Instant { frame.time }

    /// Whether palms are told on this device at all: by pressure or by size (a contact's own, or
    /// the whole touch's).
    var findsPalms: Bool { palmPressure != nil || palmSize != nil || wholeTouchPalm != nil }

    /// Whether `frame`'s whole touch is a palm's: one contact down (and no more fingers by
    /// `BTN_TOOL_*`), the whole touch pressing at least `limit`'s pressure and as wide as its
    /// width.
    static func wholeTouchLikeAPalm(_ frame: TouchFrame, _ limit: WholeTouch) -> Bool {
        guard let whole = frame.wholeTouch, whole.pressure >= limit.pressure, whole.width >= limit.width,
              frame.toolFingerCount <= 1 else { return false }
        return frame.activeContactCount == 1
    }

    /// Why `contact` is a palm by what it reports — pressing like one, or touching with an area
    /// like one — or nil when it is not.
    func palmLike(_ contact: TouchContact) -> String? {
        if let threshold = palmPressure, let pressure = contact.pressure, pressure >= threshold { return "pressure \(pressure) ≥ \(threshold)" }
        if let limit = wholeTouchPalm, !contact.phase.isFinal, Self.wholeTouchLikeAPalm(frame, limit), let whole = frame.wholeTouch {
            return "alone, the whole touch pressing \(whole.pressure) ≥ \(limit.pressure), \(whole.width) wide ≥ \(limit.width)"
        }
        if let size = palmSize, let major = contact.touchMajor, major > size { return "touch major \(major) > \(size)" }
        if let size = palmSize, let minor = contact.touchMinor, minor > size { return "touch minor \(minor) > \(size)" }
        return nil
    }

    /// Why `contact` hovers by what it reports — pressing no more than the hover pressure, or
    /// touching with an area too small to touch — or nil when it touches.
    func hovers(_ contact: TouchContact) -> String? {
        if let hover = hoverPressure, (contact.pressure ?? .max) <= hover { return "pressure \(contact.pressure ?? 0) ≤ \(hover)" }
        if let size = touchSize, !size.touches(major: contact.touchMajor, minor: contact.touchMinor) {
            return "touch size \(contact.touchMajor ?? 0)×\(contact.touchMinor ?? contact.touchMajor ?? 0) below \(size.begin):\(size.end)"
        }
        return nil
    }

    /// Why `contact`, landing at or below the thumb line, rests there as a thumb: everywhere in
    /// the area when the device tells no thumb by pressure or size; where it does, in the lowest
    /// part of the area, or when the contact presses or touches like a thumb. nil: it is a
    /// finger (above the line, or one the device says is no thumb).
    func restsAsThumb(_ contact: TouchContact) -> String? {
        guard let line = thumbLine, contact.y >= line else { return nil }
        if thumbPressure == nil && thumbSize == nil { return "landed in the thumb area" }
        if let low = thumbExclusionLine, contact.y >= low { return "landed in the lowest part of the thumb area" }
        if let threshold = thumbPressure, let pressure = contact.pressure, pressure > threshold {
            return "landed in the thumb area pressing \(pressure) > \(threshold)"
        }
        if let size = thumbSize, let major = contact.touchMajor, major > size,
           Double(contact.touchMinor ?? major) < Double(size) * GestureDefaults.thumbMinorShare {
            return "landed in the thumb area touching \(major)×\(contact.touchMinor ?? major), a thumb's shape"
        }
        return nil
    }
}
