import Logging
import TouchEvents

/// Touch frames in, gestures out. Pure logic: time comes with the frames and with
/// ``advance(to:)``, never from a clock.
///
/// **Touch sequences.** A sequence belongs to the region hit by its first touch (its owner)
/// and lasts while any of its fingers is down or any of its recognizers is still waiting (a
/// double tap waits for its second tap). Its recognizers are the owner's and its ancestors'
/// — those of regions no other sequence holds — deepest first. A later touch joins a
/// sequence when it lands in the owner's hit area, or in a region the sequence holds;
/// otherwise it starts a sequence of its own in the region it hits, so two buttons can be
/// pressed at once. A touch that hits no region is ignored; one beyond the root region (a
/// device reporting past its declared range) is taken at the root's nearest point.
///
/// **The arena.** A sequence's recognizers compete: the first to succeed wins, unless the
/// two are declared simultaneous; the others fail and never call their handlers. A
/// recognizer that requires another to fail waits until that one fails (then it may succeed,
/// at that moment) or succeeds (then it fails).
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
    /// From the touch surface (mm) to the layout; identity keeps millimetres.
    public var mapping: SurfaceMapping
    /// Put into every gesture's `device`.
    public var deviceName: String?
    /// Every gesture event, in order, before the handlers see it (replay output, clients).
    public var observer: ((Gesture) -> Void)?
    /// Every recognizer that fails, with why and when (µs): `replay --explain`.
    public var failureObserver: ((GestureRecognizer, FailureReason, Int64) -> Void)?
    public var logger: Logger {
        didSet { debugLogging = logger.logLevel <= .debug }
    }
    /// Transitions are logged at debug level; asked once, not on every transition.
    private var debugLogging: Bool

    @exclusivity(unchecked) private var sequences: [Sequence] = []
    /// Where each contact that is down goes (nil: it hit no region and is ignored).
    @exclusivity(unchecked) private var routes: [(id: Int, sequence: Sequence?)] = []
    @exclusivity(unchecked) private var pending: [PendingCall] = []
    /// Finished sequences kept for reuse (their tracker and buffers): starting a sequence
    /// then allocates nothing.
    @exclusivity(unchecked) private var spare: [Sequence] = []
    /// Each owner's regions and recognizers, while the layout's version stays the same.
    @exclusivity(unchecked) private var paths: [ObjectIdentifier: (version: Int, regions: [Region], recognizers: [GestureRecognizer])] = [:]
    private var invoker: HandlerInvoker
    /// The latest time seen, µs (frames processed, deadlines fired). A frame stamped earlier —
    /// a device reset after a decoding error, a corrupt recording — is taken as happening at
    /// this time: here time never runs backwards, so no duration or velocity goes negative and
    /// no deadline fires twice.
    @exclusivity(unchecked) private var now: Int64 = .min

    final class Sequence {
        @exclusivity(unchecked) var owner: Region
        /// The owner's hit area when the sequence began: where later touches join it.
        @exclusivity(unchecked) var ownerArea: Rect
        let tracker = TouchTracker()
        @exclusivity(unchecked) var arena: Arena
        /// This frame's contacts for the sequence (a reused buffer).
        @exclusivity(unchecked) var frame = TouchFrame(time: 0, contacts: [])

        init(owner: Region, arena: Arena) {
            self.owner = owner
            ownerArea = owner.hitArea
            self.arena = arena
            frame.contacts.reserveCapacity(10)
        }
    }

    /// Reused from sequence to sequence (``reset(regions:recognizers:press:)``), with its
    /// buffers: starting a sequence allocates nothing.
    final class Arena {
        /// The regions whose recognizers take part, deepest first.
        @exclusivity(unchecked) private(set) var regions: [Region]
        @exclusivity(unchecked) private(set) var recognizers: [GestureRecognizer]
        @exclusivity(unchecked) var winners: [GestureRecognizer] = []
        @exclusivity(unchecked) var cancelled = false
        /// How many recognizers wait for others to fail (most of the time none).
        @exclusivity(unchecked) var waiting = 0
        /// The tracker's press that started this arena.
        @exclusivity(unchecked) private(set) var press: Int

        init(regions: [Region], recognizers: [GestureRecognizer], press: Int) {
            self.regions = regions
            self.recognizers = recognizers
            self.press = press
            winners.reserveCapacity(4)
        }

        /// As new, for another sequence or press.
        func reset(regions: [Region], recognizers: [GestureRecognizer], press: Int) {
            self.regions = regions
            self.recognizers = recognizers
            self.press = press
            winners.removeAll(keepingCapacity: true)
            cancelled = false
            waiting = 0
        }
    }

    struct PendingCall {
        var deadline: Int64
        var entry: HandlerEntry
        var gesture: Gesture
        var recognizer: ObjectIdentifier
    }

    public init(layout: Layout, mapping: SurfaceMapping = .identity, deviceName: String? = nil,
                logger: Logger = Logger(label: "gestured.gestures")) {
        self.layout = layout
        self.mapping = mapping
        self.deviceName = deviceName
        self.logger = logger
        debugLogging = logger.logLevel <= .debug
        invoker = HandlerInvoker(logger: logger)
    }

    /// The earliest deadline pending (µs), or nil when nothing waits.
    public var nextDeadline: Int64? {
        var earliest: Int64?
        for s in sequences {
            for r in s.arena.recognizers where !r.isFinished {
                if let d = r.deadline, d < earliest ?? .max { earliest = d }
            }
        }
        for p in pending where p.deadline < earliest ?? .max { earliest = p.deadline }
        return earliest
    }

    /// True while a touch sequence is going on (fingers down or recognizers waiting).
    public var isTracking: Bool { !sequences.isEmpty }

    /// Fires every deadline up to and including `time`, in order.
    public func advance(to time: Int64) {
        while let d = nextDeadline, d <= time {
            firePendingCalls(at: d)
            for s in sequences {
                for r in s.arena.recognizers where r.deadline == d && !r.isFinished {
                    r.deadline = nil
                    apply(r.deadlinePassed(d, s.tracker), r, d, s)
                }
                finishIfDone(s, d)
            }
            removeFinishedSequences()
            if d > now { now = d }
        }
    }

    /// Fires every deadline still pending, each at its own time: the end of a recording,
    /// where nothing more will happen.
    public func finish() {
        advance(to: .max)
    }

    /// One decoded frame. Deadlines due by its time fire first. A frame stamped before the
    /// latest time seen is taken as happening then.
    public func process(_ input: TouchFrame) {
        var frame = input
        if frame.time < now { frame.time = now } else { now = frame.time }
        advance(to: frame.time)
        // Usually one sequence has every touch: it gets the frame as it is.
        let single = route(frame)
        var active = 0
        for s in sequences where s === single || !s.frame.contacts.isEmpty { active += 1 }
        for s in sequences where s === single || !s.frame.contacts.isEmpty {
            if s === single {
                s.tracker.update(frame)
            } else {
                s.frame.time = frame.time
                // BTN_TOOL_* counts belong to the device: they say something only when one
                // sequence has all its touches.
                s.frame.toolFingerCount = active == 1 ? frame.toolFingerCount : 0
                s.tracker.update(s.frame)
            }
            run(s, frame.time)
            // Every recognizer decided while a later press is down (a second tap too far from
            // the first, say): that press starts over with fresh recognizers.
            if s.tracker.isDown, s.arena.press != s.tracker.pressIndex, s.arena.recognizers.allSatisfy(\.isFinished) {
                s.arena = makeArena(owner: s.owner, except: s, time: frame.time, press: s.tracker.pressIndex, reusing: s.arena)
                run(s, frame.time)
            }
        }
        removeFinishedSequences()
    }

    /// Cancels whatever is going on (the device went away): begun gestures end `cancelled`,
    /// waiting ones fail, delayed handler calls are dropped.
    public func cancelAll(time: Int64) {
        for s in sequences { cancel(s, time, reason: .cancelled("the device went away")) }
        pending.removeAll()
        sequences.removeAll()
        routes.removeAll()
    }

    // MARK: - Sequences

    /// Finds each contact's sequence. When one sequence has every contact of the frame it is
    /// returned and nothing is copied; otherwise each sequence's frame buffer gets its own.
    private func route(_ frame: TouchFrame) -> Sequence? {
        for s in sequences where !s.frame.contacts.isEmpty { s.frame.contacts.removeAll(keepingCapacity: true) }
        var single: Sequence?
        var split = false
        for (n, c) in frame.contacts.enumerated() {
            let sequence: Sequence?
            if let i = routes.firstIndex(where: { $0.id == c.id }) {
                sequence = routes[i].sequence
                if c.phase.isFinal { routes.remove(at: i) }
            } else if c.phase.isFinal {
                // Ended before we saw it: it belongs to no sequence.
                sequence = nil
            } else {
                // A contact we have not seen: it began, or was down before we listened.
                sequence = assign(Point(x: c.x, y: c.y), time: frame.time)
                routes.append((c.id, sequence))
            }
            if !split {
                if n == 0 {
                    single = sequence
                } else if sequence !== single {
                    // Every contact before this one went to `single`: give them to it.
                    split = true
                    single?.frame.contacts.append(contentsOf: frame.contacts[..<n])
                }
            }
            if split { sequence?.frame.contacts.append(c) }
        }
        return split ? nil : single
    }

    /// The sequence a new touch at `mm` belongs to, starting one if needed. Devices report
    /// a little beyond their declared range now and then; such a touch is taken at the
    /// nearest point of the root region.
    private func assign(_ mm: Point, time: Int64) -> Sequence? {
        let root = layout.root.frame
        var p = mapping.point(mm)
        p.x = min(max(p.x, root.minX), root.maxX)
        p.y = min(max(p.y, root.minY), root.maxY)
        if let s = sequences.first(where: { $0.ownerArea.contains(p) }) { return s }
        guard let hit = layout.hitTest(p) else {
            if debugLogging { logger.debug("a touch at \(p) hit no region: ignored") }
            return nil
        }
        if let s = sequences.first(where: { $0.arena.regions.contains { $0 === hit } }) { return s }
        let s: Sequence
        if let reused = spare.popLast() {
            s = reused
            s.owner = hit
            s.ownerArea = hit.hitArea
            s.arena = makeArena(owner: hit, except: nil, time: time, press: 1, reusing: reused.arena)
            s.tracker.reset()
        } else {
            s = Sequence(owner: hit, arena: makeArena(owner: hit, except: nil, time: time, press: 1, reusing: nil))
        }
        s.tracker.mapping = mapping
        sequences.append(s)
        return s
    }

    /// The arena for `owner`'s path, leaving out regions other sequences hold; `old` (the
    /// sequence's previous arena) is reset and reused rather than a new one made.
    private func makeArena(owner: Region, except current: Sequence?, time: Int64, press: Int, reusing old: Arena?) -> Arena {
        let others = sequences.contains { $0 !== current }
        var regions: [Region]
        var recognizers: [GestureRecognizer]
        let key = ObjectIdentifier(owner)
        if !others, let cached = paths[key], cached.version == layout.version {
            regions = cached.regions
            recognizers = cached.recognizers
        } else {
            regions = owner.path.filter { r in
                !sequences.contains { s in s !== current && s.arena.regions.contains { $0 === r } }
            }
            recognizers = regions.flatMap(\.recognizers)
            if !others { paths[key] = (layout.version, regions, recognizers) }
        }
        // Handlers whose owner is gone are dropped now; that may remove recognizers.
        let version = layout.version
        for r in recognizers { r.sweepReleasedHandlers() }
        if layout.version != version {
            recognizers = regions.flatMap(\.recognizers)
            paths[key] = nil
        }
        let arena: Arena
        if let old {
            old.reset(regions: regions, recognizers: recognizers, press: press)
            arena = old
        } else {
            arena = Arena(regions: regions, recognizers: recognizers, press: press)
        }
        for r in arena.recognizers {
            r.reset()
            r.sequenceStart = time
            if !r.isEnabled { fail(r, .disabled, time, arena) }
        }
        if debugLogging {
            logger.debug("touch sequence began", metadata: [
                "region": "\(owner.id)", "recognizers": "\(arena.recognizers.count)",
            ])
        }
        return arena
    }

    private func run(_ s: Sequence, _ time: Int64) {
        let arena = s.arena
        if s.tracker.cancelled && !arena.cancelled {
            cancel(s, time, reason: .cancelled("a touch was cancelled (palm, dropped events)"))
        }
        for r in arena.recognizers where !r.isFinished {
            let step = r.handle(s.tracker)
            if r.deferred != nil {
                switch step {
                case .fail(let reason): fail(r, reason, time, arena)
                case .end, .cancel: fail(r, .endedWhileWaiting, time, arena)
                case .none, .begin, .recognize, .change: break
                }
            } else {
                apply(step, r, time, s)
            }
        }
        finishIfDone(s, time)
    }

    /// Once no finger is down, fails every recognizer that is neither done nor waiting.
    private func finishIfDone(_ s: Sequence, _ time: Int64) {
        guard !s.tracker.isDown else { return }
        for r in s.arena.recognizers where r.state == .possible && !r.isHolding {
            fail(r, .touchesLifted, time, s.arena)
        }
    }

    private func removeFinishedSequences() {
        guard sequences.contains(where: isFinished) else { return }
        for s in sequences where isFinished(s) {
            if debugLogging { logger.debug("touch sequence ended", metadata: ["region": "\(s.owner.id)"]) }
            if spare.count < 8 { spare.append(s) }
        }
        sequences.removeAll(where: isFinished)
    }

    private func isFinished(_ s: Sequence) -> Bool {
        !s.tracker.isDown && s.arena.recognizers.allSatisfy(\.isFinished)
    }

    private func cancel(_ s: Sequence, _ time: Int64, reason: FailureReason) {
        s.arena.cancelled = true
        for r in s.arena.recognizers where !r.isFinished {
            if r.isActive {
                transition(r, to: .cancelled, reason: reason)
                emit(r, .cancelled, time, s)
            } else {
                fail(r, reason, time, s.arena)
            }
        }
    }

    // MARK: - Arena

    private func apply(_ step: RecognizerStep, _ r: GestureRecognizer, _ time: Int64, _ s: Sequence) {
        switch step {
        case .none:
            break
        case .fail(let reason):
            fail(r, reason, time, s.arena)
        case .begin, .recognize:
            request(r, step, time, s)
        case .change:
            if r.isActive {
                r.state = .changed
                emit(r, .changed, time, s)
            }
        case .end:
            if r.isActive {
                transition(r, to: .ended, reason: nil)
                emit(r, .ended, time, s)
            }
        case .cancel:
            if r.isActive {
                transition(r, to: .cancelled, reason: nil)
                emit(r, .cancelled, time, s)
            }
        }
    }

    private func succeeded(_ r: GestureRecognizer) -> Bool {
        switch r.state {
        case .began, .changed, .ended, .recognized: true
        case .possible, .failed, .cancelled: false
        }
    }

    private func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.simultaneousKinds.contains(b.kind) || b.simultaneousKinds.contains(a.kind)
            || a.shouldRecognizeSimultaneously?(a, b) == true || b.shouldRecognizeSimultaneously?(b, a) == true
    }

    /// `r` wants to begin or recognise.
    private func request(_ r: GestureRecognizer, _ step: RecognizerStep, _ time: Int64, _ s: Sequence) {
        let arena = s.arena
        if r.deferred != nil {
            r.deferred = nil
            arena.waiting -= 1
        }
        if let shouldBegin = r.shouldBegin, !shouldBegin(r) {
            return fail(r, .shouldBeginRefused, time, arena)
        }
        switch requirementsState(r, arena) {
        case .succeeded(let done):
            return fail(r, .requirementSucceeded(done.label), time, arena)
        case .pending:
            arena.waiting += 1
            r.deferred = step
            if debugLogging { logger.debug("\(r.label)@\(r.region?.id ?? "-"): waits for the recognizers it requires to fail") }
            return
        case .allFailed:
            break
        }
        if let winner = arena.winners.first(where: { !simultaneous(r, $0) }) {
            return fail(r, .lostTo(winner.label), time, arena)
        }
        r.deadline = nil
        arena.winners.append(r)
        let state: GestureState = step == .recognize ? .recognized : .began
        transition(r, to: state, reason: nil)
        emit(r, state, time, s)
        for o in arena.recognizers where o !== r && o.state == .possible && !simultaneous(o, r) {
            fail(o, .lostTo(r.label), time, arena)
        }
    }

    private enum RequirementsState {
        case allFailed
        case pending
        case succeeded(GestureRecognizer)
    }

    /// The state of the recognizers `r` requires to fail (those outside this arena count as failed).
    private func requirementsState(_ r: GestureRecognizer, _ arena: Arena) -> RequirementsState {
        var pending = false
        for list in [r.requirements, r.automaticRequirements] {
            for req in list {
                guard arena.recognizers.contains(where: { $0 === req }) else { continue }
                if succeeded(req) { return .succeeded(req) }
                if !req.isFinished { pending = true }
            }
        }
        return pending ? .pending : .allFailed
    }

    private func fail(_ r: GestureRecognizer, _ reason: FailureReason, _ time: Int64, _ arena: Arena) {
        guard r.state == .possible else { return }
        r.failure = reason
        r.deadline = nil
        if r.deferred != nil {
            r.deferred = nil
            arena.waiting -= 1
        }
        transition(r, to: .failed, reason: reason)
        failureObserver?(r, reason, time)
        // Those waiting for `r` to fail may go ahead now.
        guard arena.waiting > 0, let s = sequences.first(where: { $0.arena === arena }) else { return }
        for w in arena.recognizers where w.deferred != nil {
            if case .pending = requirementsState(w, arena) { continue }
            if let step = w.deferred { request(w, step, time, s) }
        }
    }

    private func transition(_ r: GestureRecognizer, to state: GestureState, reason: FailureReason?) {
        if debugLogging {
            var line = "\(r.label)@\(r.region?.id ?? "-"): \(r.state) → \(state)"
            if let reason { line += " (\(reason))" }
            logger.debug("\(line)")
        }
        r.state = state
    }

    // MARK: - Handlers

    private func emit(_ r: GestureRecognizer, _ state: GestureState, _ time: Int64, _ s: Sequence) {
        var g = r.gesture(state, time: time, s.tracker)
        g.device = deviceName
        if mapping != .identity {
            g.location = mapping.point(g.location)
            if let t = g.translation { g.translation = mapping.vector(t) }
            if g.kind == .pan || g.kind == .swipe || g.kind == .edgePan, let v = g.velocity { g.velocity = mapping.vector(v) }
            if mapping.mirrors, let rotation = g.rotation {
                g.rotation = -rotation
                if let v = g.velocity { g.velocity = Point(x: -v.x, y: v.y) }
            }
        }
        observer?(g)
        if state == .cancelled {
            pending.removeAll { $0.recognizer == ObjectIdentifier(r) }
        }
        let handlers = r.handlers
        for entry in handlers {
            if entry.delay == 0 {
                invoker.invoke(entry, g)
            } else if state != .cancelled {
                // A newer event of the same recognizer supersedes a call still waiting.
                pending.removeAll { $0.entry === entry }
                pending.append(PendingCall(deadline: time + entry.delay, entry: entry, gesture: g, recognizer: ObjectIdentifier(r)))
            }
        }
    }

    private func firePendingCalls(at time: Int64) {
        guard pending.contains(where: { $0.deadline <= time }) else { return }
        let due = pending.filter { $0.deadline <= time }
        pending.removeAll { $0.deadline <= time }
        for call in due { invoker.invoke(call.entry, call.gesture) }
    }
}
