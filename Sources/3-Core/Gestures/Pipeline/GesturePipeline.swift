import Logging
import TouchEvents

/// Touch frames in, gestures out — where a touch enters the gesture core. Pure logic: time
/// comes with the frames and with ``advance(to:)``, never from a clock.
///
/// A frame goes to the touch router (`TouchRouter`, internal: which touch sequence each contact
/// belongs to), then to each sequence's touches and its arena (`Arena`, internal: whose
/// recognizers compete for it); what the arena decides comes back as gesture events, delivered
/// here — to ``observer``, then to the recognizer's handlers, at once or after their delay
/// (`DelayedHandlerCalls`, internal).
///
/// **Time.** Drive it with ``process(_:)`` for each frame and ``advance(to:)`` when
/// ``nextDeadline`` passes: a manual clock in tests, the event loop's timer in the service,
/// the recording's own times in replays. With no finger down and nothing waiting, nothing is
/// scheduled.
///
/// **Units.** Recognizers measure in millimetres on the touch surface; positions, hit tests,
/// swipe directions and edges are in layout units through ``mapping``.
public final class GesturePipeline {
    public let layout: Layout
    /// One thread at a time, never re-entered but by a handler cancelling everything: checked
    /// at each entry point in debug builds (`process`, `advance`, `finish`, `cancelAll`).
    private let entry = EntryCheck()
    /// From the touch surface (mm) to the layout; identity keeps millimetres.
    public var mapping: SurfaceMapping {
        get { router.mapping }
        set { router.mapping = newValue }
    }
    /// How the device's touches are read (``TouchPolicy/touchpad`` or ``TouchPolicy/touchscreen``).
    public var policy: TouchPolicy {
        get { router.policy }
        set {
            router.policy = newValue
            filter.policy = newValue
        }
    }
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// Put into every gesture's `device`.
    public var deviceName: String? {
        @inline(__always) get { _deviceName }
        set { _deviceName = newValue }
    }
    @exclusivity(unchecked) private var _deviceName: String?
    /// Every gesture event, in order, before the handlers see it (replay output, clients).
    public var observer: ((Gesture) -> Void)? {
        @inline(__always) get { _observer }
        set { _observer = newValue }
    }
    @exclusivity(unchecked) private var _observer: ((Gesture) -> Void)?
    /// Every recognizer that fails, with why and when: `replay --explain`.
    public var failureObserver: ((GestureRecognizer, FailureReason, Instant) -> Void)? {
        @inline(__always) get { _failureObserver }
        set { _failureObserver = newValue }
    }
    @exclusivity(unchecked) private var _failureObserver: ((GestureRecognizer, FailureReason, Instant) -> Void)?
    /// What each touch sequence was, once it is over — where it landed, its fingers, its
    /// recognizers' gestures and failures — and each touch that hit no region: `replay` says
    /// with it why nothing fired. Kept only while someone listens.
    public var sequenceObserver: ((TouchSequenceReport) -> Void)? {
        get { router.sequenceObserver }
        set { router.sequenceObserver = newValue }
    }
    /// Every contact the contact filter leaves out (or that changes why, a thumb found to be a
    /// palm), when, and why in words ("pressure 212 ≥ 180"): `replay --explain`. The words are
    /// made only while someone listens.
    public var leftOutObserver: ((_ contact: Int, _ reason: LeftOutReason, _ why: String, _ time: Instant) -> Void)? {
        get { filter.leftOutObserver }
        set { filter.leftOutObserver = newValue }
    }
    public var logger: Logger {
        didSet { updateDebugLogging() }
    }
    /// What a runtime that owns the device is told about touches (``TouchClaim``): a touch
    /// became owned — a recognizer that owns its touches (``GestureRecognizer/ownsTouches``)
    /// began or was recognized in its sequence, or it joined such a sequence; a touch lifted
    /// while such a recognizer may still take it; a touch (down, or such a lift) was settled:
    /// no recognizer will own it. Told during ``process(_:)`` (before the frame's kernel events are passed on: a
    /// touch that lands owned never reaches the apps) or ``advance(to:)`` (a long press at its
    /// deadline, a double tap that timed out). A runtime that owns the device takes owned
    /// touches from the apps and withholds undecided lifts.
    public var onTouchClaim: ((TouchClaim) -> Void)? {
        get { router.touchClaim }
        set { router.touchClaim = newValue }
    }

    /// Which contacts are fingers (palms, thumbs, hovers left out; bounces and vanished lifts noted).
    private let filter: ContactFilter
    private let router: TouchRouter
    @exclusivity(unchecked) private var delayedCalls = DelayedHandlerCalls()
    @exclusivity(unchecked) private var invoker: HandlerInvoker
    /// The latest time seen (frames processed, deadlines fired). A frame stamped earlier — a
    /// device reset after a decoding error, a corrupt recording — is taken as happening at
    /// this time: here time never runs backwards, so no duration or velocity goes negative and
    /// no deadline fires twice.
    @exclusivity(unchecked) private var now = Instant.distantPast
    /// The layout's version when its changes were last looked at.
    @exclusivity(unchecked) private var layoutVersion: Int

    /// `surface`: the device's size (mm), when known: a touch landing beyond it (a device
    /// reporting past its declared range) is taken at its nearest edge before it is mapped.
    public init(layout: Layout, mapping: SurfaceMapping = .identity, policy: TouchPolicy = .touchscreen,
                surface: SurfaceSize? = nil, deviceName: String? = nil,
                logger: Logger = Logger(label: "gestured.gestures")) {
        self.layout = layout
        self._deviceName = deviceName
        self.logger = logger
        invoker = HandlerInvoker(logger: logger)
        filter = ContactFilter(policy: policy)
        router = TouchRouter(layout: layout, mapping: mapping, policy: policy, surface: surface)
        layoutVersion = layout.version
        updateDebugLogging()
    }

    /// Transitions are logged at debug level; whether to is asked once, not on every transition.
    private func updateDebugLogging() {
        router.logger = logger.logLevel <= .debug ? logger : nil
        filter.logger = router.logger
    }

    /// The earliest deadline pending, or nil when nothing waits.
    public var nextDeadline: Instant? {
        var earliest = delayedCalls.nextDeadline
        // By index: iterating the array itself retains it, and each sequence, once a frame.
        for i in router.sequences.indices {
            if let deadline = router.sequences[i].arena.nextDeadline, deadline < earliest ?? .distantFuture { earliest = deadline }
        }
        return earliest
    }

    /// True while a touch sequence is going on (fingers down or recognizers waiting).
    public var isTracking: Bool { !router.sequences.isEmpty }

    /// Why the contact `id` of the latest frame is not a finger to the recognizers — a palm, a
    /// thumb, a resting finger or a hover — or nil when it is one (the live view marks them).
    public func leftOutReason(contact id: Int) -> LeftOutReason? { filter.leftOutReason(id) }

    /// Fires every deadline up to and including `time`, in order.
    public func advance(to time: Instant) {
        let claimed = entry.enter("GesturePipeline.advance(to:)")
        defer { entry.leave(claimed) }
        fireDeadlines(by: time)
    }

    /// Every deadline due by `time`, each at its own time (``advance(to:)``'s work, and a
    /// frame's before it is taken in).
    private func fireDeadlines(by time: Instant) {
        if layout.version != layoutVersion { applyLayoutChanges(at: max(now, min(time, nextDeadline ?? time))) }
        while let deadline = nextDeadline, deadline <= time {
            for call in delayedCalls.takeDue(by: deadline) { invoker.invoke(call.entry, call.gesture) }
            for sequence in router.sequences { sequence.arena.deadlinePassed(deadline) }
            removeFinished(at: deadline)
            if deadline > now { now = deadline }
        }
    }

    /// Fires every deadline still pending, each at its own time: the end of a recording,
    /// where nothing more will happen.
    public func finish() {
        let claimed = entry.enter("GesturePipeline.finish()")
        defer { entry.leave(claimed) }
        fireDeadlines(by: .distantFuture)
    }

    /// One decoded frame. Deadlines due by its time fire first. A frame stamped before the
    /// latest time seen is taken as happening then. Each contact id appears in it at most once
    /// (as `TouchDecoder` makes frames: a contact that begins and ends at once comes in two).
    public func process(_ input: TouchFrame) {
        let claimed = entry.enter("GesturePipeline.process(_:)")
        defer { entry.leave(claimed) }
        let filtered = FilteredFrame(filter: filter)
        if let fingers = filter.filter(input, notBefore: now) {
            take(fingers, filtered)
            // A thumb that tapped landed in that frame; it lifts in one of its own.
            if let lift = filter.takeThumbTapLift(at: fingers.time) { take(lift, filtered) }
        } else {
            take(input, filtered)  // the usual case: the frame as it came, not copied
        }
    }

    /// `process`'s work on the frame's fingers (palms, thumbs, resting fingers and hovers left
    /// out; never stamped before the latest time seen), which it borrows: held by a local of
    /// `process`, their contacts were retained and released around each call they were passed
    /// to (twice a frame, about 90 instructions).
    @inline(never)
    private func take(_ fingers: borrowing TouchFrame, _ filtered: FilteredFrame) {
        now = fingers.time
        layout.releaseHandlersOfGoneOwners()
        fireDeadlines(by: fingers.time)
        if let single = router.route(fingers, listener: self) {
            // Usually one sequence has every touch: it gets the frame as it is, and no other
            // has a contact in it (the router emptied their frames).
            if !single.pressAnnounced { startTracking(single) }
            single.track(fingers, filtered)
            frameArrived(in: single, at: fingers.time)
        } else {
            var active = 0
            for sequence in router.sequences where !sequence.frame.contacts.isEmpty { active += 1 }
            for sequence in router.sequences where !sequence.frame.contacts.isEmpty {
                sequence.frame.time = fingers.time
                // BTN_TOOL_* counts belong to the device: they say something only when one
                // sequence has all its touches.
                sequence.frame.toolFingerCount = active == 1 ? fingers.toolFingerCount : 0
                if !sequence.pressAnnounced { startTracking(sequence) }
                sequence.track(sequence.frame, filtered)
                frameArrived(in: sequence, at: fingers.time)
            }
        }
        removeFinished(at: fingers.time)
        router.removeEndedRoutes()
    }

    /// `sequence`'s touches have taken in the frame of `time`: its press is announced (at its
    /// first frame), its arena hears of the frame, and starts over if the last press decided.
    private func frameArrived(in sequence: TouchSequence, at time: Instant) {
        if sequence.touches.touches > sequence.report.fingers { sequence.report.fingers = sequence.touches.touches }
        if !sequence.pressAnnounced { announcePress(of: sequence, at: time) }
        sequence.arena.frameArrived()
        if router.restartIfDecided(sequence, time: time) { sequence.arena.frameArrived() }
        // After a restart too: the fresh arena's recognizers for the new count.
        if router.touchClaim != nil, !sequence.owned, let count = router.policy.ownsAtFingerCount {
            ownIfTheCountIsClaimed(sequence, atLeast: count)
        }
    }

    /// A touchpad's sequence is owned once its fingers reach a count (`count` or more) that a
    /// recognizer of it owning its touches can still take.
    private func ownIfTheCountIsClaimed(_ sequence: TouchSequence, atLeast count: Int) {
        let down = sequence.touches.touches
        guard down >= count else { return }
        for member in sequence.arena.inPlay where member.takesTouches(fingers: down) && !member.isFinished {
            if member.fingerCounts?.contains(down) == true {
                router.own(sequence)
                return
            }
        }
    }

    // MARK: - Press feedback

    /// A sequence's first frame, before its tracker takes it in: the regions of its owner's
    /// path that have press handlers (those its `down` goes to), and so whether anything reads
    /// more of its touches than their count (``TouchTracker/tracksMotion``): its recognizers
    /// read everything, press handlers the centroid. Nothing runs between this and the `down`.
    private func startTracking(_ sequence: TouchSequence) {
        var region = sequence.owner
        while let r = region {
            if !r.pressHandlers.isEmpty { sequence.pressRegions.append(r) }
            region = r.parent
        }
        sequence.touches.tracksMotion = !sequence.arena.members.isEmpty || !sequence.pressRegions.isEmpty
    }

    /// `down` for a sequence that starts with this frame, to the regions of its owner's path
    /// that have press handlers (``startTracking(_:)``; before anything the frame may recognise).
    private func announcePress(of sequence: TouchSequence, at time: Instant) {
        sequence.pressAnnounced = true
        if !sequence.pressRegions.isEmpty { deliverPress(.down, of: sequence, at: time) }
    }

    /// `up` (or `cancelled`) to the regions a sequence pressed, once.
    private func endPress(of sequence: TouchSequence, at time: Instant) {
        guard !sequence.pressRegions.isEmpty else { return }
        deliverPress(sequence.arena.isCancelled ? .cancelled : .up, of: sequence, at: time)
        sequence.pressRegions.removeAll(keepingCapacity: true)
    }

    private func deliverPress(_ phase: Press.Phase, of sequence: TouchSequence, at time: Instant) {
        let location = router.mapping.point(sequence.touches.centroid)
        for region in sequence.pressRegions {
            let press = Press(phase: phase, region: region.id, location: location, localLocation: region.local(location),
                              isInside: phase != .cancelled && region.hitArea.contains(location), time: time,
                              targetReference: region.reference)
            for entry in region.pressHandlers { invoker.invoke(entry, press) }
        }
    }

    /// Ends the presses of the sequences that are over, then lets them go.
    private func removeFinished(at time: Instant) {
        // By index (iterating the array retained it and each sequence, once a frame), and
        // counted again each time: a press handler may cancel everything (`cancelAll`).
        var i = 0
        var finished = false
        while i < router.sequences.count {
            if router.sequences[i].isFinished {
                finished = true
                endPress(of: router.sequences[i], at: time)
            }
            i += 1
        }
        router.settle()
        // Only when one finished (settling finishes none): the router's own look for one cost
        // about 30 instructions a frame.
        if finished { router.removeFinished(at: time) }
    }

    /// The layout changed since the last frame or deadline (regions added, removed, enabled,
    /// disabled, moved; recognizers added or removed): sequences on a region touches can no
    /// longer reach end `cancelled`, as do recognizers taken off their region. New sequences
    /// see the layout as it is now.
    private func applyLayoutChanges(at time: Instant) {
        layoutVersion = layout.version
        router.layoutChanged(at: time)
        // A press on a region that went is cancelled now, not when the fingers lift.
        for sequence in router.sequences where sequence.arena.isCancelled { endPress(of: sequence, at: time) }
        removeFinished(at: time)
    }

    /// Cancels whatever is going on (the device went away, or its layout was replaced: `why`,
    /// as the recognizers' transitions log it): begun gestures end `cancelled`, waiting ones
    /// fail, delayed handler calls are dropped.
    public func cancelAll(time: Instant, why: String = "the device went away") {
        // A handler may cancel everything (a reload from a gesture), from inside `process`.
        let claimed = entry.enterFromHandlers("GesturePipeline.cancelAll(time:)")
        defer { entry.leave(claimed) }
        for sequence in router.sequences {
            sequence.arena.cancel(.cancelled(why), at: time)
            endPress(of: sequence, at: time)
        }
        delayedCalls.removeAll()
        router.removeAll()
        filter.removeAll()
    }
}

extension GesturePipeline: ArenaListener {
    /// The recognizer's gesture event, as it made it (``GestureRecognizer/event(_:time:_:)``),
    /// with the device's name, goes to the observer, then to every handler of the recognizer
    /// (through the one ``HandlerInvoker``).
    func arena(_ arena: Arena, emits state: GestureState, of recognizer: GestureRecognizer, at time: Instant) {
        if state == .began || state == .recognized, recognizer.ownsTouches || router.sequenceObserver != nil,
           let sequence = router.sequences.first(where: { $0.arena === arena }) {
            if recognizer.takesTouches(fingers: max(sequence.touches.touches, sequence.report.fingers)) { router.own(sequence) }
            sequence.report.gestures += 1
        }
        let gesture = recognizer.event(state, time: time, arena.touches, device: deviceName)
        observer?(gesture)
        if state == .cancelled { delayedCalls.drop(callsOf: recognizer) }
        if !recognizer.handlers.isEmpty { callHandlers(of: recognizer, gesture, at: time) }
    }

    /// The recognizer's handlers hear of `gesture`: now, or after their delay. A function of
    /// its own, borrowing the gesture: as a loop inside ``arena(_:emits:of:at:)``, it had every
    /// gesture copied for it, handlers or not (about 30 instructions an event).
    @inline(never)
    private func callHandlers(of recognizer: GestureRecognizer, _ gesture: borrowing Gesture, at time: Instant) {
        let handlers = recognizer.handlers
        for entry in handlers {
            if entry.delay == .zero {
                invoker.invoke(entry, gesture)
            } else if gesture.state != .cancelled {
                delayedCalls.schedule(entry, copy gesture, of: recognizer, at: time + entry.delay)
            }
        }
    }

    func arena(_ arena: Arena, rejected recognizer: GestureRecognizer, because reason: FailureReason, at time: Instant) {
        failureObserver?(recognizer, reason, time)
        if router.sequenceObserver != nil, let sequence = router.sequences.first(where: { $0.arena === arena }) {
            sequence.report.failures.append(TouchSequenceReport.Failure(recognizer: recognizer.name, region: recognizer.region?.id ?? "",
                                                                        reason: reason))
        }
    }
}
