import Foundation
import TouchEvents

/// The touches of one touch sequence and what recognizers read from them, computed once
/// per frame: counts, centroid, and the frame's movement, spread change and rotation over
/// the touches that were down both before and after it (so a finger landing or lifting
/// never looks like a jump).
///
/// Positions are millimetres on the touch surface.
///
/// Like everything in the pipeline it is used from one thread and never re-entered, so its
/// hot stored properties (and the recognizers') opt out of the runtime's dynamic
/// exclusivity checks with `@exclusivity(unchecked)`; those checks took about half of the
/// time per frame.
public final class TouchTracker {
    /// The per-frame values that cost more than a sum to compute: what a recognizer reads of
    /// them (``GestureRecognizer/readsFrameValues``), the tracker computes while a recognizer
    /// of the sequence that reads it is still in play (not yet finished: possible, begun or
    /// changing), and only then. The rest (counts, centroid, its motion, the spread) every
    /// frame has.
    public struct FrameValues: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// ``spreadFactor`` and ``spreadDelta``: a distance per persisting touch (a pinch).
        public static let spreadChange = FrameValues(rawValue: 1 << 0)
        /// ``rotationDelta``: an `atan2` per persisting touch, two where its vector from the
        /// centroid is not the one last found for it (the touches changed, or the last frame
        /// computed no rotation) (a rotation).
        public static let rotation = FrameValues(rawValue: 1 << 1)
        public static let all: FrameValues = [.spreadChange, .rotation]
    }

    struct Tracked {
        var id: Int
        var start: Point
        var previous: Point
        var current: Point
        /// Down before this frame and after it (or ending in it).
        var persisting: Bool
        var finished: Bool
        /// Whether a report is the one it settles at (``TouchPolicy/settlesLandings``); one down
        /// before it joined does not settle.
        var settle = LandingSettle.none
        /// This frame is the report it settled at.
        var settling = false
        /// The hardest it has pressed, and whether it now presses less than
        /// ``TouchPolicy/liftingPressureShare`` of that: lifting, its motion is no press's
        /// movement.
        var peakPressure: Int32 = 0
        var lifting = false
        /// The step the last frame discarded as a jump (``discardJumps(_:interval:speed:)``),
        /// until this frame says whether it was one.
        var pendingJump = Point.zero
        /// The last angle found for the touch (``computeTransforms(_:_:n:before:after:)``,
        /// radians) and the vector from the centroid it is the angle of. The next frame's angle
        /// before is usually of the same vector (same touches, same order: the same centroid),
        /// so one `atan2` a touch and frame does; any other vector (its bits compared) gets
        /// its own.
        var angle = (of: Point(x: .nan, y: .nan), radians: 0.0)
    }

    /// The touches of the last frame; those that ended in it (`finished`) are kept until the next
    /// one, so that a value asked for late (``catchUp()``) is computed over the same touches.
    @exclusivity(unchecked) private(set) var contacts: [Tracked] = []
    /// `contacts` holds touches that ended in the last frame.
    @exclusivity(unchecked) private var holdsFinished = false
    /// This frame's spread and angle are a bounding box's: they say nothing.
    @exclusivity(unchecked) private var boxSpread = false
    /// Semi-multitouch: where the box's centre was when its motion last counted.
    @exclusivity(unchecked) private var boxAnchor: Point?
    /// Semi-multitouch: reports left after a change of the finger count whose corners' moves
    /// are still that change's, not motion (``GestureDefaults/boundingBoxSettleReports``).
    @exclusivity(unchecked) private var boxSettling = 0

    /// Time of the last frame.
    public private(set) var time: Instant {
        @inline(__always) get { _time }
        set { _time = newValue }
    }
    @exclusivity(unchecked) private var _time: Instant = Instant.zero
    /// Fingers down: the active contacts, or the device's `BTN_TOOL_*` count while any
    /// contact is down if that is larger (a two-slot touchpad's third finger).
    public private(set) var touches: Int {
        @inline(__always) get { _touches }
        set { _touches = newValue }
    }
    @exclusivity(unchecked) private var _touches: Int = 0
    /// ``touches`` before the last frame: the fingers a gesture ended with when they lifted.
    public private(set) var previousTouches: Int {
        @inline(__always) get { _previousTouches }
        set { _previousTouches = newValue }
    }
    @exclusivity(unchecked) private var _previousTouches: Int = 0
    /// Centroid of the touches down (the last one while none is).
    public private(set) var centroid: Point {
        @inline(__always) get { _centroid }
        set { _centroid = newValue }
    }
    @exclusivity(unchecked) private var _centroid: Point = Point.zero
    /// How far the touches moved in this frame (mean motion of the persisting ones).
    public private(set) var centroidDelta: Point {
        @inline(__always) get { _centroidDelta }
        set { _centroidDelta = newValue }
    }
    @exclusivity(unchecked) private var _centroidDelta: Point = Point.zero
    /// Mean distance of the touches from their centroid, mm.
    public private(set) var spread: Double {
        @inline(__always) get { _spread }
        set { _spread = newValue }
    }
    @exclusivity(unchecked) private var _spread: Double = 0.0
    /// This frame's change of the persisting touches' spread: as a factor, and in mm
    /// (computed only while a recognizer that reads it is not finished: ``FrameValues/spreadChange``;
    /// else 1 and 0).
    public private(set) var spreadFactor: Double {
        @inline(__always) get { _spreadFactor }
        set { _spreadFactor = newValue }
    }
    @exclusivity(unchecked) private var _spreadFactor: Double = 1.0
    public private(set) var spreadDelta: Double {
        @inline(__always) get { _spreadDelta }
        set { _spreadDelta = newValue }
    }
    @exclusivity(unchecked) private var _spreadDelta: Double = 0.0
    /// This frame's rotation of the persisting touches about their centroid, degrees,
    /// clockwise positive (y down); computed only while a recognizer that reads it is
    /// not finished (``FrameValues/rotation``; else 0).
    public private(set) var rotationDelta: Double {
        @inline(__always) get { _rotationDelta }
        set { _rotationDelta = newValue }
    }
    @exclusivity(unchecked) private var _rotationDelta: Double = 0.0
    /// Contacts that began / ended in this frame; whether one was cancelled.
    public private(set) var beganCount: Int {
        @inline(__always) get { _beganCount }
        set { _beganCount = newValue }
    }
    @exclusivity(unchecked) private var _beganCount: Int = 0
    public private(set) var endedCount: Int {
        @inline(__always) get { _endedCount }
        set { _endedCount = newValue }
    }
    @exclusivity(unchecked) private var _endedCount: Int = 0
    public private(set) var cancelled: Bool {
        @inline(__always) get { _cancelled }
        set { _cancelled = newValue }
    }
    @exclusivity(unchecked) private var _cancelled: Bool = false

    /// The current press: from the first finger down to the last finger up.
    public private(set) var pressStartTime: Instant {
        @inline(__always) get { _pressStartTime }
        set { _pressStartTime = newValue }
    }
    @exclusivity(unchecked) private var _pressStartTime: Instant = Instant.zero
    public private(set) var pressMaxTouches: Int {
        @inline(__always) get { _pressMaxTouches }
        set { _pressMaxTouches = newValue }
    }
    @exclusivity(unchecked) private var _pressMaxTouches: Int = 0
    /// The farthest any contact of the press moved from where it landed, mm.
    public private(set) var pressMaxMovement: Double {
        @inline(__always) get { _pressMaxMovement }
        set { _pressMaxMovement = newValue }
    }
    @exclusivity(unchecked) private var _pressMaxMovement: Double = 0.0
    /// Where the press's first touch landed.
    public private(set) var pressStartLocation: Point {
        @inline(__always) get { _pressStartLocation }
        set { _pressStartLocation = newValue }
    }
    @exclusivity(unchecked) private var _pressStartLocation: Point = Point.zero
    /// Counts presses since the tracker was reset (1 for the first).
    public private(set) var pressIndex: Int {
        @inline(__always) get { _pressIndex }
        set { _pressIndex = newValue }
    }
    @exclusivity(unchecked) private var _pressIndex: Int = 0
    /// When a finger last landed in this press.
    public private(set) var lastLandingTime: Instant {
        @inline(__always) get { _lastLandingTime }
        set { _lastLandingTime = newValue }
    }
    @exclusivity(unchecked) private var _lastLandingTime: Instant = Instant.zero
    /// Until when a gesture of fewer fingers that has begun gives way to one of more
    /// (``GestureDefaults/staggerWindow``): the window after the press's first finger landed,
    /// and after each finger that landed within it (its gesture has as long again to show).
    /// Past it the fingers down are the gesture's.
    public private(set) var staggerDeadline: Instant {
        @inline(__always) get { _staggerDeadline }
        set { _staggerDeadline = newValue }
    }
    @exclusivity(unchecked) private var _staggerDeadline: Instant = Instant.zero
    /// A finger landed in this frame within the stagger window: what the fewer fingers did
    /// before is no motion of the gesture of more (a pan's translation starts no transform bar).
    public private(set) var landedStaggered: Bool {
        @inline(__always) get { _landedStaggered }
        set { _landedStaggered = newValue }
    }
    @exclusivity(unchecked) private var _landedStaggered: Bool = false
    /// A contact landed in this frame where one lifted less than ``TouchPolicy/bounceTime``
    /// before: the same touch bouncing.
    public private(set) var bounced: Bool {
        @inline(__always) get { _bounced }
        set { _bounced = newValue }
    }
    @exclusivity(unchecked) private var _bounced: Bool = false
    /// The current press began with a bounce.
    public private(set) var pressBounced: Bool {
        @inline(__always) get { _pressBounced }
        set { _pressBounced = newValue }
    }
    @exclusivity(unchecked) private var _pressBounced: Bool = false
    /// Every contact of the current press that lifted so far vanished, and one did (contacts
    /// cancelled, or ended by the contact filter while down, count neither way): it lifted
    /// pressing as hard as ever, on a device that reports often enough to see a finger ease
    /// off (``TouchPolicy/vanishedTapReportInterval``). No finger lifted: the sensor lost what
    /// it saw (a palm flickering). Such a press taps nothing.
    public var pressLiftsVanished: Bool { pressLifts.vanished && !pressLifts.eased }
    /// Whether a contact of the current press vanished, and whether one eased off, as it lifted.
    @exclusivity(unchecked) private var pressLifts = (vanished: false, eased: false)
    /// How long the contact of the current press that was down longest before it counted had
    /// been down then (`TouchContact.downSince` in `TouchEvents`: a thumb or finger that rested, left out,
    /// and moved): nil when every contact landed in the press. Such a press taps and holds
    /// nothing.
    public private(set) var pressRestedBefore: Duration? {
        @inline(__always) get { _pressRestedBefore }
        set { _pressRestedBefore = newValue }
    }
    @exclusivity(unchecked) private var _pressRestedBefore: Duration?
    /// A pan began in this press: a translation is established, and a pinch or rotation (one
    /// the layout lets go on beside it, or a touchpad's after a landing ended the pan) must now
    /// clear ``GestureDefaults/transformBarAfterTranslation``. The arena records it when it grants
    /// the claim of a recognizer that ``GestureRecognizer/establishesTranslation``
    /// (`recordTranslation()`); a new press, or a finger joining within the stagger window,
    /// clears it.
    public private(set) var translatedInPress: Bool {
        @inline(__always) get { _translatedInPress }
        set { _translatedInPress = newValue }
    }
    @exclusivity(unchecked) private var _translatedInPress: Bool = false
    /// The most fingers down when a translation of ``translatedInPress`` began: a
    /// transform of more fingers is judged on its own motion, not against what fewer fingers
    /// did before the rest landed (a one-finger pan before a pinch's second finger).
    public private(set) var translationFingers: Int {
        @inline(__always) get { _translationFingers }
        set { _translationFingers = newValue }
    }
    @exclusivity(unchecked) private var _translationFingers: Int = 0
    /// A physical button is held (a clickpad's click).
    public private(set) var buttonDown: Bool {
        @inline(__always) get { _buttonDown }
        set { _buttonDown = newValue }
    }
    @exclusivity(unchecked) private var _buttonDown: Bool = false
    /// A physical button went down in this frame.
    public private(set) var buttonPressed: Bool {
        @inline(__always) get { _buttonPressed }
        set { _buttonPressed = newValue }
    }
    @exclusivity(unchecked) private var _buttonPressed: Bool = false

    /// Whether anything reads more of the sequence than its finger count: its recognizers
    /// (everything here), and its press handlers (the ``centroid``, where `down` and `up` are).
    /// Without either — a touch in a region with no gesture and no press handler — ``update(_:_:)``
    /// counts the fingers down (``touches``, what ends the sequence), the contacts that began and
    /// ended, a cancel, the buttons and the press (its index, start and most fingers), and nothing
    /// more: no contact is kept, and no centroid, spread, motion or press extent is computed
    /// (they keep what they had). Only the pipeline sets it, at a sequence's first frame, before
    /// the tracker takes it in (with the press handlers its `down` goes to); an arena with no
    /// member never starts again (it is settled, so the sequence ends with its last lift), so
    /// a sequence never goes from counting back to tracking.
    @exclusivity(unchecked) var tracksMotion = true
    /// What of ``FrameValues`` to compute: what the sequence's recognizers that are not finished read. Only
    /// the arena sets it.
    @exclusivity(unchecked) var computes = FrameValues.all
    /// What of ``FrameValues`` this frame has (those that need no computing — fewer than two
    /// touches persisting — count as had).
    @exclusivity(unchecked) private var computed = FrameValues.all

    /// The surface-to-layout mapping of the pipeline, for recognizers that judge directions
    /// and edges in layout terms.
    public internal(set) var mapping: SurfaceMapping {
        @inline(__always) get { _mapping }
        set { _mapping = newValue }
    }
    @exclusivity(unchecked) private var _mapping: SurfaceMapping = SurfaceMapping.identity
    /// How the device's touches are read (a touchpad's or a touchscreen's conventions).
    public internal(set) var policy: TouchPolicy {
        @inline(__always) get { _policy }
        set { _policy = newValue }
    }
    @exclusivity(unchecked) private var _policy: TouchPolicy = TouchPolicy.touchscreen

    public init() {
        contacts.reserveCapacity(16)
    }

    /// True while a finger is down.
    public var isDown: Bool { touches > 0 }

    /// The arena granted the claim of a gesture that establishes a translation in this press
    /// (``translatedInPress``). Only the arena calls it.
    func recordTranslation() {
        translationFingers = translatedInPress ? max(translationFingers, touches) : touches
        translatedInPress = true
    }

    /// Forgets everything (a new sequence starts).
    public func reset() {
        contacts.removeAll(keepingCapacity: true)
        holdsFinished = false
        computed = .all
        touches = 0
        previousTouches = 0
        pressIndex = 0
        pressMaxTouches = 0
        pressMaxMovement = 0
        translatedInPress = false
        staggerDeadline = .zero
        landedStaggered = false
        bounced = false
        pressBounced = false
        pressRestedBefore = nil
        pressLifts = (false, false)
        buttonDown = false
        buttonPressed = false
        boxAnchor = nil
        boxSettling = 0
        centroidDelta = .zero
        spreadFactor = 1
        spreadDelta = 0
        rotationDelta = 0
    }

    /// How many times its translation a transform must go around or apart
    /// (``transformDominates(_:over:)``): ``GestureDefaults/transformBarAfterTranslation`` once
    /// a pan of as many fingers as are now down began in the press, else 1.
    public var transformBar: Double {
        translatedInPress && translationFingers >= touches ? GestureDefaults.transformBarAfterTranslation : 1
    }

    /// Whether a transform of `amount` mm (a pinch's spread change, a rotation's arc) may begin
    /// beside the fingers' common `translation`: it dominates it
    /// (``GestureDefaults/transformDominance``, twice as clearly once a pan of as many fingers
    /// as are now down began in the press, ``GestureDefaults/transformBarAfterTranslation``;
    /// a pan of fewer, before the others landed, is no translation of this transform's), and
    /// where the policy asks
    /// (``TouchPolicy/transformsMoveEveryFinger``) the finger that moved least since it landed
    /// has gone ``GestureDefaults/transformLeastFingerShare`` of the way of the one that moved
    /// most. Walks the touches for the last: call it once the other thresholds are met.
    public func transformDominates(_ amount: Double, over translation: Point) -> Bool {
        guard abs(amount) * GestureDefaults.transformDominance >= translation.length * transformBar else { return false }
        guard policy.transformsMoveEveryFinger else { return true }
        var least = Double.infinity
        var most = 0.0
        for c in contacts where !c.finished {
            let travel = (c.current - c.start).length
            least = min(least, travel)
            most = max(most, travel)
        }
        return least == .infinity || most > 0 && least >= most * GestureDefaults.transformLeastFingerShare
    }

    /// The position where the touch `id` landed, if it is down: where its first report put it
    /// (``TouchPolicy/settlesLandings``) — for a touch left out while it rested, where it rested
    /// — moved along by jumps and by a bounding box's corners.
    public func startPosition(of id: Int) -> Point? { contacts.first { $0.id == id && !$0.finished }?.start }

    /// Takes in `frame`, the sequence's contacts of one frame (all of the frame's fingers, as the
    /// contact filter leaves them, or those routed to this sequence). From the filter: where contacts of every sequence lifted
    /// recently, what tells a touch bouncing (``bounced``); where contacts landing after resting
    /// had landed; and which lifted in this frame, and whether each vanished
    /// (``pressLiftsVanished``).
    @inline(__always)
    func update(_ frame: TouchFrame, _ filtered: FilteredFrame) {
        // Decided where it is called: one call fewer a frame (about 15 instructions).
        if tracksMotion { track(frame, filtered) } else { count(frame) }
    }

    @inline(never)
    private func track(_ frame: TouchFrame, _ filtered: FilteredFrame) {
        // Work on a local copy (moved out, so still unique): one exclusivity check per
        // frame instead of one per contact and field.
        var cs = contacts
        contacts = []
        defer { contacts = cs }
        if holdsFinished { cs.removeAll(where: \.finished) }
        let interval = frame.time - time
        time = frame.time
        buttonPressed = frame.buttonDown && !buttonDown
        buttonDown = frame.buttonDown
        var began = 0
        var rested: Duration?
        var ended = 0
        var wasCancelled = false
        var anyFinished = false
        let wasDown = touches > 0
        previousTouches = touches
        var anySettling = false
        var lifts = (vanished: false, eased: false)
        for i in cs.indices {
            cs[i].previous = cs[i].current
            cs[i].persisting = false
            cs[i].settling = false
        }
        for (n, c) in frame.contacts.enumerated() {
            let p = Point(x: c.x, y: c.y)
            let index = cs.firstIndex(hint: n) { $0.id == c.id }
            switch c.phase {
            case .began:
                // One that was down before (a thumb leaving its rest) settled long ago.
                let settles = policy.settlesLandings && c.downSince == nil
                // One that rested starts where it landed then: it has moved since.
                let start = c.downSince == nil ? p : filtered.restedLandings.first { $0.id == c.id }?.at ?? p
                cs.append(Tracked(id: c.id, start: start, previous: p, current: p, persisting: false, finished: false,
                                  settle: settles ? LandingSettle(landedAt: frame.time) : .none,
                                  peakPressure: c.pressure ?? 0))
                began += 1
                if let since = c.downSince { rested = max(rested ?? .zero, frame.time - since) }
            case .moved, .stationary:
                if let index {
                    if cs[index].settle.settles(c.phase, at: frame.time) {
                        cs[index].settling = true
                        anySettling = true
                    }
                    cs[index].current = p
                    cs[index].persisting = true
                    if policy.liftingPressureShare != nil, let pressure = c.pressure {
                        cs[index].peakPressure = max(cs[index].peakPressure, pressure)
                        cs[index].lifting = policy.isLifting(pressure: pressure, peak: cs[index].peakPressure)
                    }
                } else {
                    // Down before this sequence started listening: it joins from here.
                    cs.append(Tracked(id: c.id, start: p, previous: p, current: p, persisting: false, finished: false))
                }
            case .ended:
                if let index {
                    if let lift = filtered.lifts.first(where: { $0.contact == c.id }) {
                        if lift.vanished { lifts.vanished = true } else { lifts.eased = true }
                    }
                    cs[index].current = p
                    cs[index].persisting = true
                    cs[index].finished = true
                    anyFinished = true
                    ended += 1
                }
            case .cancelled:
                if let index { cs[index].finished = true }
                wasCancelled = true
            }
        }
        if let speed = policy.jumpSpeed { discardJumps(&cs, interval: interval, speed: speed) }
        boxSpread = false
        if policy.boundingBoxContacts { boxOnly(&cs, countChanged: began > 0 || ended > 0 || wasCancelled) }
        if anySettling {
            // Where a contact landed is where its first report, soon after, puts it.
            for i in cs.indices where cs[i].settling { cs[i].start = cs[i].current }
        }
        beganCount = began
        if began > 0 { lastLandingTime = frame.time }
        // A finger joining within the window (not the press's first: set below).
        landedStaggered = began > 0 && wasDown && time < staggerDeadline
        if landedStaggered {
            staggerDeadline = time + GestureDefaults.staggerWindow
            translatedInPress = false
        }
        endedCount = ended
        bounced = began > 0 && !filtered.recentLifts.isEmpty && Self.landedWhereOneLifted(cs, filtered.recentLifts)
        cancelled = wasCancelled
        computeMotion(&cs)
        // One walk for the count, both sums and the farthest move (each summed in the touches'
        // order, as walks of their own did).
        var active = 0
        var sumDown = Point.zero
        var lifted = 0.0
        var sumLifted = Point.zero
        var movedNow = 0.0
        for c in cs {
            if c.finished {
                sumLifted += c.current
                lifted += 1
            } else {
                active += 1
                sumDown += c.current
                // A lifting contact's slide is no press's movement (TouchPolicy.liftingPressureShare).
                if !c.lifting { movedNow = max(movedNow, (c.current - c.start).length) }
            }
        }
        // The centroid of the fingers still down; when the last ones lift, of where they lifted.
        let lifting = active == 0
        let n = lifting ? lifted : Double(active)
        let sum = lifting ? sumLifted : sumDown
        if n > 0 {
            let center = sum * (1 / n)
            var distance = 0.0
            for c in cs where c.finished == lifting { distance += (c.current - center).length }
            centroid = center
            spread = distance / n
        }
        holdsFinished = anyFinished || wasCancelled
        let down = active == 0 ? 0 : max(active, frame.toolFingerCount)
        touches = down
        if lifts.vanished { pressLifts.vanished = true }
        if lifts.eased { pressLifts.eased = true }
        if down > 0 {
            if !wasDown {
                pressIndex += 1
                pressBounced = bounced
                pressRestedBefore = nil
                pressLifts = (false, false)
                translatedInPress = false
                staggerDeadline = time + GestureDefaults.staggerWindow
                pressStartTime = time
                pressMaxTouches = down
                pressMaxMovement = 0
                pressStartLocation = centroid
            }
            pressMaxTouches = max(pressMaxTouches, down)
            if let rested { pressRestedBefore = max(pressRestedBefore ?? .zero, rested) }
            pressMaxMovement = max(pressMaxMovement, movedNow)
        }
    }

    /// ``update(_:_:)`` for a sequence nothing reads more of than its finger count
    /// (``tracksMotion``): each contact's phase, and no position. A frame has every contact of
    /// the sequence that is down (stationary ones too), so the fingers down are its contacts not
    /// ending in it — what the contacts ``update(_:_:)`` keeps otherwise would count.
    private func count(_ frame: TouchFrame) {
        if !contacts.isEmpty { contacts.removeAll(keepingCapacity: true) }
        holdsFinished = false
        time = frame.time
        buttonPressed = frame.buttonDown && !buttonDown
        buttonDown = frame.buttonDown
        var active = 0
        var began = 0
        var ended = 0
        var wasCancelled = false
        for c in frame.contacts {
            switch c.phase {
            case .began:
                began += 1
                active += 1
            case .moved, .stationary: active += 1
            case .ended: ended += 1
            case .cancelled: wasCancelled = true
            }
        }
        beganCount = began
        endedCount = ended
        cancelled = wasCancelled
        if began > 0 { lastLandingTime = frame.time }
        let wasDown = touches > 0
        previousTouches = touches
        let down = active == 0 ? 0 : max(active, frame.toolFingerCount)
        touches = down
        guard down > 0 else { return }
        if !wasDown {
            pressIndex += 1
            pressStartTime = time
            pressMaxTouches = down
        }
        pressMaxTouches = max(pressMaxTouches, down)
    }

    /// Whether a contact that landed in this frame is within ``GestureDefaults/bounceDistance``
    /// of one of `lifts`.
    private static func landedWhereOneLifted(_ cs: [Tracked], _ lifts: [(until: Instant, at: Point)]) -> Bool {
        cs.contains { c in
            !c.finished && !c.persisting && lifts.contains { ($0.at - c.current).length < GestureDefaults.bounceDistance }
        }
    }

    /// A contact that moved faster than `speed` (mm/ms) in this frame jumped: the device lost
    /// track of it, or reported one coordinate before the other. The jump is no motion: the
    /// contact is where it now is, as if it had landed there (the start moves along, so a tap
    /// stays a tap). Frames closer than ``GestureDefaults/jumpReferenceInterval`` are judged
    /// over that interval. Two contacts that traded places in the frame jumped too, however
    /// slowly (``swapped(_:_:_:)``).
    private func discardJumps(_ cs: inout [Tracked], interval: Duration, speed: Double) {
        let microseconds = max(interval, GestureDefaults.jumpReferenceInterval).inMicroseconds
        let limit = speed * Double(microseconds) / 1000
        var traded: [Int] = []
        if cs.count >= 2 {
            for i in cs.indices where cs[i].persisting {
                for j in cs.indices where j > i && cs[j].persisting && Self.swapped(cs, i, j) { traded += [i, j] }
            }
        }
        for i in cs.indices where cs[i].persisting {
            let step = cs[i].current - cs[i].previous
            let trades = traded.contains(i)
            let jumped = cs[i].pendingJump
            cs[i].pendingJump = .zero
            if jumped != .zero && !trades && Self.continues(step, jumped) {
                // It was moving, not jumping: the step is given back, in this frame.
                cs[i].start = cs[i].start - jumped
                cs[i].previous = cs[i].previous - jumped
                continue
            }
            guard step.length > limit || trades else { continue }
            cs[i].start += step
            cs[i].previous = cs[i].current
            if !trades { cs[i].pendingJump = step }
        }
    }

    /// Whether `step` goes on the way `jumped` went, at least half as far
    /// (``GestureDefaults/jumpContinuationShare``) and within 45°: a finger moving fast, whose
    /// last step only looked like a jump — a robot's two fingers going 1.0–1.2 mm/ms for two
    /// reports (issue 65, item 6). A jump lands the point somewhere and it stays, or comes
    /// back: a firmware's late y, a tracking swap.
    private static func continues(_ step: Point, _ jumped: Point) -> Bool {
        let length = step.length
        guard length >= jumped.length * GestureDefaults.jumpContinuationShare else { return false }
        let dot = step.x * jumped.x + step.y * jumped.y
        return dot >= length * jumped.length * 0.5.squareRoot()
    }

    /// Whether contacts `i` and `j` traded places in this frame: together they are now less
    /// than half as far from where the other was as from where each was itself, and at least
    /// ``GestureDefaults/swapDistance`` from their own places. Fingers cannot pass through each
    /// other within a report; a firmware that swaps its tracking of two contacts turns them half
    /// a circle about their centroid at once (a link palm's two pieces, a 176° rotation in
    /// fixtures/chromiumos `palm_presence.moving.both`).
    private static func swapped(_ cs: [Tracked], _ i: Int, _ j: Int) -> Bool {
        let own = (cs[i].current - cs[i].previous).length + (cs[j].current - cs[j].previous).length
        guard own >= GestureDefaults.swapDistance else { return false }
        let traded = (cs[i].current - cs[j].previous).length + (cs[j].current - cs[i].previous).length
        return traded < own * 0.5
    }

    /// Semi-multitouch: the positions are the corners of the fingers' bounding box. When a finger
    /// lands or lifts the corners jump to where the box now is: no motion, in that report and
    /// the ``GestureDefaults/boundingBoxSettleReports`` after it (the start moves along, so a
    /// tap stays a tap). While two or more are down, they move only as the box's
    /// centre does, and only once it has gone ``GestureDefaults/boundingBoxHysteresis`` from
    /// where it last moved (the corners jitter); the box's spread and angle say nothing (no
    /// pinch or rotation from corners).
    private func boxOnly(_ cs: inout [Tracked], countChanged: Bool) {
        if countChanged {
            boxSettling = GestureDefaults.boundingBoxSettleReports
        }
        if countChanged || boxSettling > 0 {
            if !countChanged { boxSettling -= 1 }
            boxAnchor = nil
            for i in cs.indices where cs[i].persisting {
                cs[i].start += cs[i].current - cs[i].previous
                cs[i].previous = cs[i].current
            }
            return
        }
        let (n, before, centre) = Self.persistingCentroids(cs)
        guard n >= 2 else { return }
        let anchor = boxAnchor ?? before
        let offset = centre - anchor
        let accepted = offset.length > GestureDefaults.boundingBoxHysteresis ? offset : .zero
        boxAnchor = accepted == .zero ? anchor : centre
        for i in cs.indices where cs[i].persisting {
            cs[i].start += cs[i].current - cs[i].previous - accepted
            cs[i].previous = cs[i].current - accepted
        }
        boxSpread = true
    }

    /// How many touches persisted through the frame, and the centroids of where they were and
    /// are (zero when none did).
    private static func persistingCentroids(_ contacts: [Tracked]) -> (count: Double, before: Point, after: Point) {
        var n = 0.0
        var before = Point.zero
        var after = Point.zero
        for c in contacts where c.persisting {
            n += 1
            before += c.previous
            after += c.current
        }
        guard n > 0 else { return (0, .zero, .zero) }
        return (n, before * (1 / n), after * (1 / n))
    }

    /// Movement of the touches that persisted through the frame, and their spread change and
    /// rotation as far as ``computes`` asks.
    private func computeMotion(_ contacts: inout [Tracked]) {
        let (n, before, after) = Self.persistingCentroids(contacts)
        centroidDelta = .zero
        spreadFactor = 1
        spreadDelta = 0
        rotationDelta = 0
        computed = .all
        guard n > 0 else { return }
        centroidDelta = after - before
        guard n >= 2, !boxSpread else { return }
        computed = []
        computeTransforms(&contacts, computes, n: n, before: before, after: after)
    }

    /// The values of ``computes`` that this frame does not have yet (the arena started over
    /// mid-frame with recognizers that read more): computed now, over the frame's touches.
    func catchUp() {
        let missing = computes.subtracting(computed)
        guard !missing.isEmpty else { return }
        let (n, before, after) = Self.persistingCentroids(contacts)
        guard n >= 2 else { return }
        computeTransforms(&contacts, missing, n: n, before: before, after: after)
    }

    /// The spread change and the rotation (those of `values`) of the `n` touches that persisted,
    /// whose centroid went from `before` to `after`.
    private func computeTransforms(_ contacts: inout [Tracked], _ values: FrameValues, n: Double, before: Point, after: Point) {
        computed.formUnion(values)
        guard !values.isEmpty else { return }
        var spreadBefore = 0.0
        var spreadAfter = 0.0
        var turn = 0.0
        var turning = 0.0
        let rotation = values.contains(.rotation)
        for i in contacts.indices where contacts[i].persisting {
            let a = contacts[i].previous - before
            let b = contacts[i].current - after
            spreadBefore += a.length
            spreadAfter += b.length
            // A touch very near the centroid has no meaningful angle.
            if rotation && a.length > 0.5 && b.length > 0.5 {
                let known = contacts[i].angle
                let angleBefore = known.of.x.bitPattern == a.x.bitPattern && known.of.y.bitPattern == a.y.bitPattern
                    ? known.radians : atan2(a.y, a.x)
                let angleAfter = atan2(b.y, b.x)
                contacts[i].angle = (b, angleAfter)
                turn += normalizedDegrees((angleAfter - angleBefore) * 180 / .pi)
                turning += 1
            }
        }
        spreadBefore /= n
        spreadAfter /= n
        if values.contains(.spreadChange) {
            spreadDelta = spreadAfter - spreadBefore
            spreadFactor = spreadBefore > 0.01 ? spreadAfter / spreadBefore : 1
        }
        if rotation { rotationDelta = turning > 0 ? turn / turning : 0 }
    }
}
