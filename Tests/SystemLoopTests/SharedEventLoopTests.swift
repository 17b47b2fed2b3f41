import Foundation
import SystemLoop
import Testing
import TouchEvents

/// A clock only the test moves, no system timer following it (as GestureTesting's ManualClock).
private final class TestClock: TouchClock {
    var now = Instant(microseconds: 1_000_000)
    func monotonicInstant(at instant: Instant) -> Instant? { nil }
}

/// A pipe whose read end the loop watches.
private struct Pipe {
    let read: Int32
    let write: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        read = fds[0]
        write = fds[1]
    }

    func send() {
        var byte: UInt8 = 1
        precondition(Glibc.write(write, &byte, 1) == 1)
    }

    func drain() {
        var byte: UInt8 = 0
        _ = Glibc.read(read, &byte, 1)
    }

    func close() {
        Glibc.close(read)
        Glibc.close(write)
    }
}

/// The loop several users share: each registers its descriptors, deadlines and work, and a
/// turn runs them in a fixed order.
@Suite("shared event loop")
struct SharedEventLoopTests {
    /// One turn: urgent descriptors as the batch is read, then the others in the kernel's
    /// order, then the work after the events, the timers (a manual clock: every turn), and the
    /// work at the turn's end — each in the order registered.
    @Test func aTurnHandlesUrgentDescriptorsFirstThenTheRestThenTheUsersWork() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let client = Pipe(), device = Pipe(), other = Pipe()
        defer { client.close(); device.close(); other.close() }
        var log: [String] = []
        // Watched first, so the kernel reports the clients before the device.
        loop.watch(client.read) { _ in client.drain(); log.append("client") }
        loop.watch(other.read) { _ in other.drain(); log.append("other") }
        loop.watch(device.read, priority: .urgent) { [unowned loop] _ in device.drain(); log.append("device (\(loop.deferredEventCount) waiting)") }
        loop.afterEvents { log.append("service after events") }
        loop.addTimer(next: { nil }, fire: { now in log.append("runtime deadlines at \(now.microseconds)") })
        loop.addTimer(next: { nil })
        loop.endOfTurn { log.append("runtime calls") }
        loop.endOfTurn { log.append("service flush") }
        client.send()
        other.send()
        device.send()
        loop.runOnce(timeout: 1000)
        #expect(log == [
            "device (2 waiting)", "client", "other", "service after events", "runtime deadlines at 1000000",
            "runtime calls", "service flush",
        ])
        #expect(loop.turn == 1)
    }

    /// A handler that lets a descriptor go (a client leaving) stops its events for the rest of
    /// the batch, even when the number is watched again in that turn (another client accepted
    /// on it).
    @Test func aDescriptorUnwatchedDuringTheBatchGetsNoMoreOfItsEvents() throws {
        let loop = try SharedEventLoop(clock: TestClock())
        let first = Pipe(), second = Pipe()
        defer { first.close(); second.close() }
        var log: [String] = []
        loop.watch(first.read) { [unowned loop] _ in
            first.drain()
            log.append("first")
            loop.unwatch(second.read)
            loop.watch(second.read) { _ in log.append("second's new owner") }
        }
        loop.watch(second.read) { _ in log.append("second") }
        first.send()
        second.send()
        loop.runOnce(timeout: 1000)
        #expect(log == ["first"])
        loop.runOnce(timeout: 1000)
        #expect(log == ["first", "second's new owner"], "the next turn's events go to the new owner")
    }

    /// The earliest of every user's deadlines is what the loop waits for; a user that goes
    /// takes back its timers and work.
    @Test func aUserThatGoesTakesBackItsTimersAndWork() throws {
        let loop = try SharedEventLoop(clock: TestClock())
        final class User {}
        let user = User()
        var log: [String] = []
        loop.addTimer(owner: ObjectIdentifier(user), next: { nil }, fire: { _ in log.append("user's timer") })
        loop.afterEvents(owner: ObjectIdentifier(user)) { log.append("user's work") }
        loop.endOfTurn(owner: ObjectIdentifier(user)) { log.append("user's end of turn") }
        loop.addUrgentPoll(owner: ObjectIdentifier(user)) { log.append("user's poll") }
        loop.endOfTurn { log.append("another's end of turn") }
        loop.runOnce(timeout: 0)
        #expect(log == ["user's work", "user's timer", "user's end of turn", "another's end of turn"])
        log = []
        loop.removeWork(of: ObjectIdentifier(user))
        loop.runOnce(timeout: 0)
        loop.pollUrgentIfDue()
        #expect(log == ["another's end of turn"])
    }

    /// While others work, urgent descriptors are read once the interval has passed since that
    /// work began (the turn read them as it woke) or since they last were, not before.
    @Test func urgentPollsRunOnceTheIntervalHasPassed() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        var polls = 0
        loop.addUrgentPoll { polls += 1 }
        loop.runOnce(timeout: 0)
        loop.pollUrgentIfDue()  // other work begins: the interval runs from here
        #expect(polls == 0)
        clock.now = clock.now + SharedEventLoop.urgentPollInterval - .microseconds(1)
        loop.pollUrgentIfDue()
        #expect(polls == 0)
        clock.now = clock.now + .microseconds(1)
        loop.pollUrgentIfDue()
        loop.pollUrgentIfDue()
        #expect(polls == 1, "read at 0.5 ms, and not again at once")
    }

    /// Each user gets the signals it asked for, and only those.
    @Test func signalsGoToTheUserThatAskedForThem() throws {
        let loop = try SharedEventLoop(clock: TestClock())
        let first = Signal(number: SIGUSR1), second = Signal(number: SIGUSR2)
        var log: [String] = []
        try loop.handleSignals([first]) { log.append("service: \($0)") }
        try loop.handleSignals([second]) { log.append("other: \($0)") }
        // To this thread, which blocks them for the loop (see signalsArriveAsEvents); signals
        // no other code here sends, so none comes from elsewhere.
        pthread_kill(pthread_self(), SIGUSR2)
        pthread_kill(pthread_self(), SIGUSR1)
        for _ in 0..<10 where log.count < 2 { loop.runOnce(timeout: 1000) }
        #expect(log.sorted() == ["other: signal \(SIGUSR2)", "service: signal \(SIGUSR1)"])
    }
}

/// The loop's turn is entered once at a time (`EntryCheck`, debug builds): a handler running
/// the loop again from inside a turn is caught (heard here instead of stopping the program);
/// turns one after another are fine.
@Suite("The loop checks its turns")
struct LoopTurnCheckTests {
    @Test func aTurnFromInsideATurnIsCaught() throws {
        let loop = try SharedEventLoop(clock: MonotonicClock())
        var nested = 0
        // Unowned: the loop keeps its work, and the work must not keep the loop.
        loop.afterEvents { [unowned loop] in
            nested += 1
            if nested == 1 { loop.runOnce(timeout: 0) }
        }
        let heard = Lock<[String]>([])
        EntryViolations.$heard.withValue({ message in heard.withLock { $0.append(message) } }) {
            loop.runOnce(timeout: 0)
        }
        #expect(heard.withLock { $0 } == [
            "SharedEventLoop.runOnce(timeout:) was entered again from inside itself (a handler may change regions or cancel, not feed or advance it)",
        ])
    }

    @Test func turnsOneAfterAnotherAreFine() throws {
        let loop = try SharedEventLoop(clock: MonotonicClock())
        var turns = 0
        loop.afterEvents { turns += 1 }
        let heard = Lock<[String]>([])
        EntryViolations.$heard.withValue({ message in heard.withLock { $0.append(message) } }) {
            loop.runOnce(timeout: 0)
            loop.runOnce(timeout: 0)
        }
        #expect(turns == 2)
        #expect(heard.withLock { $0 } == [])
    }
}
