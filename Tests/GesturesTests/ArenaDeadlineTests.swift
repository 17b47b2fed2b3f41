@testable import Gestures
import Testing
import TouchEvents

/// `n` milliseconds after the start.
private func deadlineAt(_ n: Int64) -> Instant { .zero + .milliseconds(n) }

/// Hears nothing: the arena's deadlines are what these tests look at.
private final class DeafListener: ArenaListener {
    func arena(_ arena: Arena, emits state: GestureState, of recognizer: GestureRecognizer, at time: Instant) {}
    func arena(_ arena: Arena, rejected recognizer: GestureRecognizer, because reason: FailureReason, at time: Instant) {}
}

/// Asks for a deadline at `until` on every frame while set; at a deadline, asks for none.
private final class Waiter: GestureRecognizer {
    var until: Instant?
    init() { super.init(kind: .custom) }
    override func handle(_ touches: TouchTracker) -> RecognizerUpdate {
        until.map { .wait(until: $0) } ?? .none
    }
}

/// The arena keeps its earliest deadline between frames instead of walking its members each
/// time it is asked: what it answers must be what its members hold.
@Suite("An arena's next deadline")
struct ArenaDeadlineTests {
    fileprivate let listener = DeafListener()

    @Test func followsItsMembersDeadlines() {
        let arena = Arena(listener: listener, touches: TouchTracker())
        let a = Waiter(), b = Waiter()
        arena.reset(regions: [], members: [a, b], press: 1, time: .zero)
        #expect(arena.nextDeadline == nil)
        a.until = deadlineAt(500)
        b.until = deadlineAt(300)
        arena.frameArrived()
        #expect(arena.nextDeadline == deadlineAt(300))
        b.until = nil
        arena.frameArrived()
        #expect(arena.nextDeadline == deadlineAt(500))
        arena.deadlinePassed(deadlineAt(500))
        #expect(arena.nextDeadline == nil)
    }

    @Test func aResetWithNoMembersHasNoDeadline() {
        // As when a sequence's owner can no longer be reached: the arena starts over empty.
        let arena = Arena(listener: listener, touches: TouchTracker())
        let a = Waiter()
        a.until = deadlineAt(500)
        arena.reset(regions: [], members: [a], press: 1, time: .zero)
        arena.frameArrived()
        #expect(arena.nextDeadline == deadlineAt(500))
        arena.reset(regions: [], members: [], press: 2, time: deadlineAt(100))
        #expect(arena.nextDeadline == nil)
    }

    @Test func aDeadlineNoMemberHoldsIsNotAskedForAgainOnceItPassed() {
        // A recognizer moved to another region while its old sequence goes on is a member of
        // two arenas: the new one drives its deadline, the old one only sees it. Once the
        // deadline has passed, neither may answer it again (the pipeline fires deadlines for
        // as long as some arena answers one that has passed).
        let old = Arena(listener: listener, touches: TouchTracker())
        let new = Arena(listener: listener, touches: TouchTracker())
        let moved = Waiter()
        old.reset(regions: [], members: [moved], press: 1, time: .zero)
        new.reset(regions: [], members: [moved], press: 1, time: .zero)
        moved.until = deadlineAt(500)
        new.frameArrived()
        #expect(old.nextDeadline == deadlineAt(500))
        #expect(new.nextDeadline == deadlineAt(500))
        moved.until = nil
        new.deadlinePassed(deadlineAt(500))
        old.deadlinePassed(deadlineAt(500))
        #expect(new.nextDeadline == nil)
        #expect(old.nextDeadline == nil)
    }
}
