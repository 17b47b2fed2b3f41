import Logging
import TouchEvents

/// Touch frames in, gestures out. Pure logic: time comes with the frames and with
/// ``advance(to:)``, never from a clock.
///
/// A touch sequence starts with the first finger on the surface and lasts while any finger
/// is down or any recognizer is still waiting (a double tap waits for its second tap). Its
/// recognizers compete in an arena: the first to succeed wins, unless the two are declared
/// simultaneous; the others fail and never call their handlers. A recognizer that requires
/// another to fail waits until that one fails (then it may succeed, at that moment) or
/// succeeds (then it fails).
///
/// Drive it with ``process(_:)`` for each frame and ``advance(to:)`` when ``nextDeadline``
/// passes: a manual clock in tests, the event loop's timer in the service, the recording's
/// own times in replays. With no finger down and no deadline pending, nothing is scheduled.
public final class GesturePipeline {
    public let layout: Layout
    /// Put into every gesture's `device`.
    public var deviceName: String?
    /// Every gesture event, in order, before the handlers see it (replay output, clients).
    public var observer: ((Gesture) -> Void)?
    public var logger: Logger {
        didSet { debugLogging = logger.logLevel <= .debug }
    }
    /// Transitions are logged at debug level; asked once, not on every transition.
    private var debugLogging: Bool

    private let tracker = TouchTracker()
    @exclusivity(unchecked) private var arena: Arena?
    @exclusivity(unchecked) private var pending: [PendingCall] = []
    private var invoker: HandlerInvoker

    final class Arena {
        let region: Region
        let recognizers: [GestureRecognizer]
        @exclusivity(unchecked) var winners: [GestureRecognizer] = []
        @exclusivity(unchecked) var cancelled = false
        /// How many recognizers wait for others to fail (most of the time none).
        @exclusivity(unchecked) var waiting = 0
        /// The tracker's press that started this sequence.
        let press: Int

        init(region: Region, recognizers: [GestureRecognizer], press: Int) {
            self.region = region
            self.recognizers = recognizers
            self.press = press
        }
    }

    struct PendingCall {
        var deadline: Int64
        var entry: HandlerEntry
        var gesture: Gesture
        weak var recognizer: GestureRecognizer?
    }

    public init(layout: Layout, deviceName: String? = nil, logger: Logger = Logger(label: "gestured.gestures")) {
        self.layout = layout
        self.deviceName = deviceName
        self.logger = logger
        debugLogging = logger.logLevel <= .debug
        invoker = HandlerInvoker(logger: logger)
    }

    /// The earliest deadline pending (µs), or nil when nothing waits.
    public var nextDeadline: Int64? {
        var earliest: Int64?
        if let arena {
            for r in arena.recognizers where !r.isFinished {
                if let d = r.deadline, d < earliest ?? .max { earliest = d }
            }
        }
        for p in pending where p.deadline < earliest ?? .max { earliest = p.deadline }
        return earliest
    }

    /// True while a touch sequence is going on (fingers down or recognizers waiting).
    public var isTracking: Bool { arena != nil }

    /// Fires every deadline up to and including `time`, in order.
    public func advance(to time: Int64) {
        while let d = nextDeadline, d <= time {
            firePendingCalls(at: d)
            if let arena {
                for r in arena.recognizers where r.deadline == d && !r.isFinished {
                    r.deadline = nil
                    apply(r.deadlinePassed(d, tracker), r, d, arena)
                }
                finishIfDone(arena, d)
            }
        }
    }

    /// Fires every deadline still pending, each at its own time: the end of a recording,
    /// where nothing more will happen.
    public func finish() {
        advance(to: .max)
    }

    /// One decoded frame. Deadlines due by its time fire first.
    public func process(_ frame: TouchFrame) {
        advance(to: frame.time)
        if arena == nil {
            guard frame.contacts.contains(where: { !$0.phase.isFinal }) else { return }
            tracker.reset()
            tracker.update(frame)
            startSequence(at: frame.time)
        } else {
            tracker.update(frame)
        }
        guard let arena else { return }
        run(arena, frame.time)
        // Every recognizer decided while a later press is down (a second tap too far from
        // the first, say): that press starts a sequence of its own.
        if let current = self.arena, current === arena, tracker.isDown, arena.press != tracker.pressIndex,
           arena.recognizers.allSatisfy(\.isFinished) {
            startSequence(at: frame.time)
            if let fresh = self.arena { run(fresh, frame.time) }
        }
    }

    private func run(_ arena: Arena, _ time: Int64) {
        if tracker.cancelled && !arena.cancelled {
            cancel(arena, time, reason: .cancelled("a touch was cancelled (palm, dropped events)"))
        }
        for r in arena.recognizers where !r.isFinished {
            let step = r.handle(tracker)
            if r.deferred != nil {
                switch step {
                case .fail(let reason): fail(r, reason, time, arena)
                case .end, .cancel: fail(r, .endedWhileWaiting, time, arena)
                case .none, .begin, .recognize, .change: break
                }
            } else {
                apply(step, r, time, arena)
            }
        }
        finishIfDone(arena, time)
    }

    /// Cancels whatever is going on (the device went away): begun gestures end `cancelled`,
    /// waiting ones fail, delayed handler calls are dropped.
    public func cancelAll(time: Int64) {
        if let arena { cancel(arena, time, reason: .cancelled("the device went away")) }
        pending.removeAll()
        arena = nil
        tracker.reset()
    }

    // MARK: - Sequences

    private func startSequence(at time: Int64) {
        let region = layout.root
        for r in region.recognizers { r.sweepReleasedHandlers() }
        let recognizers = region.recognizers
        let arena = Arena(region: region, recognizers: recognizers, press: tracker.pressIndex)
        for r in recognizers {
            r.reset()
            r.sequenceStart = time
            if !r.isEnabled { fail(r, .disabled, time, arena) }
        }
        self.arena = arena
        logger.debug("touch sequence began", metadata: ["region": "\(region.id)", "recognizers": "\(recognizers.count)"])
    }

    /// Ends the sequence once no finger is down and every recognizer has decided.
    private func finishIfDone(_ arena: Arena, _ time: Int64) {
        guard !tracker.isDown else { return }
        for r in arena.recognizers where r.state == .possible && !r.isHolding {
            fail(r, .touchesLifted, time, arena)
        }
        guard arena.recognizers.allSatisfy({ $0.isFinished }) else { return }
        self.arena = nil
        logger.debug("touch sequence ended", metadata: ["region": "\(arena.region.id)"])
    }

    private func cancel(_ arena: Arena, _ time: Int64, reason: FailureReason) {
        arena.cancelled = true
        for r in arena.recognizers where !r.isFinished {
            if r.isActive {
                transition(r, to: .cancelled, reason: reason)
                emit(r, .cancelled, time)
            } else {
                fail(r, reason, time, arena)
            }
        }
    }

    // MARK: - Arena

    private func apply(_ step: RecognizerStep, _ r: GestureRecognizer, _ time: Int64, _ arena: Arena) {
        switch step {
        case .none:
            break
        case .fail(let reason):
            fail(r, reason, time, arena)
        case .begin, .recognize:
            request(r, step, time, arena)
        case .change:
            if r.isActive {
                r.state = .changed
                emit(r, .changed, time)
            }
        case .end:
            if r.isActive {
                transition(r, to: .ended, reason: nil)
                emit(r, .ended, time)
            }
        case .cancel:
            if r.isActive {
                transition(r, to: .cancelled, reason: nil)
                emit(r, .cancelled, time)
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
    private func request(_ r: GestureRecognizer, _ step: RecognizerStep, _ time: Int64, _ arena: Arena) {
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
            if r.deferred == nil { arena.waiting += 1 }
            r.deferred = step
            logger.debug("\(r.label)@\(arena.region.id): waits for the recognizers it requires to fail")
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
        emit(r, state, time)
        for o in arena.recognizers where o !== r && o.state == .possible && !simultaneous(o, r) {
            fail(o, .lostTo(r.label), time, arena)
        }
    }

    private enum RequirementsState {
        case allFailed
        case pending
        case succeeded(GestureRecognizer)
    }

    /// The state of the recognizers `r` requires to fail (those outside this sequence count as failed).
    private func requirementsState(_ r: GestureRecognizer, _ arena: Arena) -> RequirementsState {
        var pending = false
        for list in [r.requirements, r.automaticRequirements] {
            for weak in list {
                guard let req = weak.value, arena.recognizers.contains(where: { $0 === req }) else { continue }
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
        // Those waiting for `r` to fail may go ahead now.
        guard arena.waiting > 0 else { return }
        for w in arena.recognizers where w.deferred != nil {
            if case .pending = requirementsState(w, arena) { continue }
            if let step = w.deferred {
                w.deferred = nil
                arena.waiting -= 1
                request(w, step, time, arena)
            }
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

    private func emit(_ r: GestureRecognizer, _ state: GestureState, _ time: Int64) {
        var g = r.gesture(state, time: time, tracker)
        g.device = deviceName
        observer?(g)
        if state == .cancelled {
            pending.removeAll { $0.recognizer === r }
        }
        let handlers = r.handlers
        for entry in handlers {
            if entry.delay == 0 {
                invoker.invoke(entry, g)
            } else if state != .cancelled {
                // A newer event of the same recognizer supersedes a call still waiting.
                pending.removeAll { $0.entry === entry }
                pending.append(PendingCall(deadline: time + entry.delay, entry: entry, gesture: g, recognizer: r))
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
