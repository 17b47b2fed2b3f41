import Synchronization
import TouchEvents

/// The program's one loop, shared by whoever waits on it: each user registers what it waits
/// for — descriptors, signals, deadlines, work at the end of a turn — as any program would.
/// The gesture runtime is one user (its devices, the device monitor, the recognizers'
/// deadlines); the service is another (its socket and clients, signals, the actions' timeouts,
/// the compositor's socket). Neither reaches into the other.
///
/// One turn (``runOnce(timeout:)``):
/// 1. the timer is armed at the earliest of every user's next deadline, and the loop waits;
/// 2. each event of the batch goes to its descriptor's handler: an ``Priority/urgent``
///    descriptor's (a touch device: a frame never waits behind other work) at once, the rest
///    once every urgent one has been handled, in the kernel's order;
/// 3. the ``afterEvents(_:)`` work runs; then, if a deadline may have passed, every timer's
///    `fire`; then the ``endOfTurn(_:)`` work — each in the order it was registered.
///
/// Everything runs on the thread that calls ``run()`` or ``runOnce(timeout:)``. Only
/// ``wakeUp()`` and ``stop()`` are safe from another thread. With no deadline the loop sleeps
/// until something happens: no periodic wakeups.
public final class SharedEventLoop {
    /// One turn at a time, on one thread, never from inside a turn (a handler running the loop
    /// again): checked in debug builds.
    private let turnCheck = EntryCheck()
    /// When a descriptor's events are handled within a turn.
    public enum Priority: Sendable {
        /// At once, as the batch is read (touch devices, the device monitor).
        case urgent
        /// After every urgent descriptor of the batch.
        case normal
    }

    private struct Watch {
        let priority: Priority
        let handler: (EventLoop.Event) -> Void
    }

    private let events: EventLoop
    /// The clock its deadlines are read by.
    public let clock: any TouchClock
    /// True when a system timer follows the clock (deadlines are due only once it fired);
    /// false for a manual clock, whose deadlines are looked at in every turn.
    private let clockHasTimer: Bool
    // Unchecked exclusivity below: read in every turn on the loop's one thread, and walked as
    // copies (a handler that registers or unwatches during a turn changes the array, not the
    // copy being walked); each dynamic check cost about 80 instructions a frame (the
    // instruction guard).
    /// Who handles each descriptor's events, by descriptor number.
    @exclusivity(unchecked) private var watches: [Watch?] = []
    /// Descriptors unwatched during this turn's batch: the rest of the batch's events for them
    /// are stale (``unwatch(_:)``).
    @exclusivity(unchecked) private var unwatchedThisTurn: [Int32] = []
    /// This turn's events for normal descriptors, handled after the urgent ones.
    @exclusivity(unchecked) private var deferred: [EventLoop.Event] = []
    @exclusivity(unchecked) private var signalHandlers: [(signals: [Signal], handler: (Signal) -> Void)] = []

    /// A user's deadlines (``addTimer(owner:next:fire:)``). A struct, not a tuple: a closure
    /// kept in an array of tuples is stored in the generic form, and calling it made a
    /// conversion closure (an allocation) in every turn.
    private struct Timer {
        let owner: ObjectIdentifier?
        let next: () -> Instant?
        let fire: ((Instant) -> Void)?
    }

    /// Work a user registered for every turn (a struct: see ``Timer``).
    private struct Work {
        let owner: ObjectIdentifier?
        let work: () -> Void
    }

    /// Per turn, in the order registered, each with who registered it (``removeWork(of:)``).
    /// (A registration during a turn changes the array, not the copy the turn walks.)
    @exclusivity(unchecked) private var timers: [Timer] = []
    @exclusivity(unchecked) private var afterEventsWork: [Work] = []
    @exclusivity(unchecked) private var endOfTurnWork: [Work] = []
    @exclusivity(unchecked) private var urgentPolls: [Work] = []
    /// When the urgent descriptors were last read between other work (``pollUrgentIfDue()``);
    /// nil at the start of a turn, which read them moments ago: the clock is read only when
    /// other work asks (a device's frame alone costs no clock reading — a system call in a VM).
    @exclusivity(unchecked) private var polledAt: Instant?
    @exclusivity(unchecked) private var timerFired = false
    private let stopping = Atomic<Bool>(false)

    /// Counts the turns: a user can give each turn a budget.
    public private(set) var turn: UInt64 {
        @inline(__always) get { _turn }
        set { _turn = newValue }
    }
    @exclusivity(unchecked) private var _turn: UInt64 = 0
    /// How many events for normal descriptors this turn has: a budget for the turn can give
    /// each its share.
    public var deferredEventCount: Int { deferred.count }

    /// While other work runs in a turn, urgent descriptors are read at least this often
    /// (``pollUrgentIfDue()``): a frame waits behind that work no longer than this and the one
    /// piece under way. A tenth of the latency a touch may take from the glass to its gesture
    /// unnoticed (~5 ms), and a syscall per device when nothing is there: a few microseconds
    /// in each half millisecond of work.
    public static let urgentPollInterval = Duration.microseconds(500)

    /// A loop whose deadlines are on `clock` (the one device events are stamped with).
    public init(clock: any TouchClock) throws(SystemError) {
        events = try EventLoop()
        self.clock = clock
        clockHasTimer = clock.monotonicInstant(at: .zero) != nil
    }

    // MARK: - What users register

    /// Waits on `fd` (for it to become writable too, if asked); `handler` gets its events.
    public func watch(_ fd: Int32, writable: Bool = false, priority: Priority = .normal,
                      _ handler: @escaping (EventLoop.Event) -> Void) {
        let i = Int(fd)
        if i >= watches.count { watches.append(contentsOf: repeatElement(nil, count: i + 1 - watches.count)) }
        watches[i] = Watch(priority: priority, handler: handler)
        events.watch(fd, writable: writable)
    }

    /// Changes whether the loop waits for `fd` (watched) to become writable.
    public func setWritable(_ fd: Int32, _ writable: Bool) {
        guard watch(for: fd) != nil else { return }
        events.watch(fd, writable: writable)
    }

    /// Stops waiting on `fd` (before closing it). Events of this turn's batch still to come
    /// for `fd` are dropped, even if the number is watched again meanwhile: a descriptor closed
    /// and reused within one turn (a client gone, another accepted on its number) must not get
    /// the old one's hang-up.
    public func unwatch(_ fd: Int32) {
        if Int(fd) < watches.count { watches[Int(fd)] = nil }
        events.unwatch(fd)
        unwatchedThisTurn.append(fd)
    }

    /// Delivers `signals` to `handler` instead of their default actions.
    public func handleSignals(_ signals: [Signal], _ handler: @escaping (Signal) -> Void) throws(SystemError) {
        signalHandlers.append((signals, handler))
        var all: [Signal] = []
        for (list, _) in signalHandlers { for s in list where !all.contains(s) { all.append(s) } }
        try events.handleSignals(all)
    }

    /// A user's deadlines: `next` is asked before every wait (nil: none); `fire` is called with
    /// the time in every turn in which a deadline may have passed (the timer fired, the wait
    /// timed out, or the clock is a manual one). `owner` can take it back (``removeWork(of:)``).
    public func addTimer(owner: ObjectIdentifier? = nil, next: @escaping () -> Instant?, fire: ((Instant) -> Void)? = nil) {
        timers.append(Timer(owner: owner, next: next, fire: fire))
    }

    /// Work for every turn, after the batch's events have been handled.
    public func afterEvents(owner: ObjectIdentifier? = nil, _ work: @escaping () -> Void) {
        afterEventsWork.append(Work(owner: owner, work: work))
    }

    /// Work for every turn, after the deadlines that passed have fired (what is left to write
    /// goes out).
    public func endOfTurn(owner: ObjectIdentifier? = nil, _ work: @escaping () -> Void) {
        endOfTurnWork.append(Work(owner: owner, work: work))
    }

    /// How an urgent user reads its descriptors without waiting (``pollUrgentIfDue()``).
    public func addUrgentPoll(owner: ObjectIdentifier? = nil, _ poll: @escaping () -> Void) {
        urgentPolls.append(Work(owner: owner, work: poll))
    }

    /// Takes back the timers and the work `owner` registered: a user that goes before the loop
    /// (its closures may hold it unretained) calls this as it goes, and unwatches its
    /// descriptors.
    public func removeWork(of owner: ObjectIdentifier) {
        timers.removeAll { $0.owner == owner }
        afterEventsWork.removeAll { $0.owner == owner }
        endOfTurnWork.removeAll { $0.owner == owner }
        urgentPolls.removeAll { $0.owner == owner }
    }

    /// Reads the urgent descriptors (every ``addUrgentPoll(_:)``) if ``urgentPollInterval``
    /// has passed since they last were: for whoever has much to do in one turn (the service
    /// with many clients), called between pieces of that work, so frames never wait behind
    /// it. The turn read them as it woke; its first call marks when that work began, and the
    /// interval runs from there. (A manual clock stands still: in tests they are read when
    /// the test moves it.)
    public func pollUrgentIfDue() {
        let now = clock.now
        guard let last = polledAt else {
            polledAt = now
            return
        }
        guard now - last >= Self.urgentPollInterval else { return }
        polledAt = now
        for entry in urgentPolls { entry.work() }
    }

    // MARK: - Running

    /// Runs turns until ``stop()``.
    public func run() {
        while !stopping.load(ordering: .acquiring) { runOnce(timeout: -1) }
    }

    /// Ends ``run()`` (at once if it has not started). Safe from any thread.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        events.wakeUp()
    }

    /// Wakes the loop (at once if it is not waiting): the next turn comes now. Safe from any
    /// thread.
    public func wakeUp() {
        events.wakeUp()
    }

    /// One turn: waits up to `timeout` ms (-1: until something happens), handles what did, and
    /// fires every deadline that has passed by the loop's clock.
    public func runOnce(timeout: Int32) {
        let claimed = turnCheck.enter("SharedEventLoop.runOnce(timeout:)")
        defer { turnCheck.leave(claimed) }
        events.setDeadline(nextDeadline.flatMap(clock.monotonicInstant))
        timerFired = false
        turn &+= 1
        if !unwatchedThisTurn.isEmpty { unwatchedThisTurn.removeAll(keepingCapacity: true) }
        let ready = events.wait(timeout: timeout) { dispatch($0) }
        polledAt = nil
        // Urgent descriptors first (above), then the rest of the batch, in the kernel's order.
        if !deferred.isEmpty {
            for event in deferred {
                switch event {
                case .readable(let fd), .hangup(let fd), .writable(let fd):
                    if !unwatchedThisTurn.contains(fd), let watch = watch(for: fd) { watch.handler(event) }
                case .timer, .wakeUp, .signal:
                    break
                }
            }
            deferred.removeAll(keepingCapacity: true)
        }
        for entry in afterEventsWork { entry.work() }
        // The timer is armed at the earliest deadline: until it fires none is due (an urgent
        // descriptor's handler fires those its own times pass). A manual clock has no timer:
        // always look.
        if timerFired || ready == 0 || !clockHasTimer {
            let now = clock.now
            for timer in timers { timer.fire?(now) }
        }
        for entry in endOfTurnWork { entry.work() }
    }

    private var nextDeadline: Instant? {
        var earliest: Instant?
        for timer in timers {
            if let t = timer.next(), t < earliest ?? .distantFuture { earliest = t }
        }
        return earliest
    }

    private func watch(for fd: Int32) -> Watch? {
        Int(fd) < watches.count ? watches[Int(fd)] : nil
    }

    private func dispatch(_ event: EventLoop.Event) {
        switch event {
        case .timer:
            timerFired = true
        case .wakeUp:
            break
        case .signal(let signal):
            for (signals, handler) in signalHandlers where signals.contains(signal) { handler(signal) }
        case .readable(let fd), .hangup(let fd), .writable(let fd):
            guard let watch = watch(for: fd) else { return }
            if watch.priority == .urgent { watch.handler(event) } else { deferred.append(event) }
        }
    }
}
