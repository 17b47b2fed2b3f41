#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TouchEvents

/// The package's lock, contended. Under `make sanitize` (ThreadSanitizer) this is the test that
/// fails when the lock's hand-over is one the sanitizer cannot see: with `Synchronization.Mutex`
/// behind `Lock`, four threads taking turns on it are reported as an access race on almost every
/// run (Mutex hands a contended lock over inside the kernel, `FUTEX_UNLOCK_PI`); with the
/// pthread mutex, never.
@Suite struct LockTests {
    /// What the threads share: a log each appends to and reads back, and a count.
    struct Shared {
        var log: [Int] = []
        var count = 0
    }

    final class Context: @unchecked Sendable {
        let lock: Lock<Shared>
        let role: Int
        let rounds: Int
        init(lock: Lock<Shared>, role: Int, rounds: Int) {
            self.lock = lock
            self.role = role
            self.rounds = rounds
        }
    }

    /// Runs `threads` threads of `body` at once, on threads of their own, and waits for them.
    private func runThreads(_ threads: Int, lock: Lock<Shared>, rounds: Int, _ body: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?) {
        var ids: [pthread_t] = []
        for role in 0..<threads {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(Context(lock: lock, role: role, rounds: rounds)).toOpaque()
            #expect(pthread_create(&thread, nil, body, context) == 0)
            ids.append(thread)
        }
        for thread in ids { pthread_join(thread, nil) }
    }

    @Test func contendedUpdatesAreAllKeptAndSeenInOrder() {
        let lock = Lock(Shared())
        let rounds = 20_000
        // Even threads write (append, count, trim); odd ones read what the writers left.
        runThreads(4, lock: lock, rounds: rounds) { raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
            for i in 0..<context.rounds {
                if context.role % 2 == 0 {
                    context.lock.withLock { s in
                        s.log.append(i)
                        s.count += 1
                        if s.log.count > 8 { s.log.removeAll(keepingCapacity: true) }
                    }
                } else {
                    let sum = context.lock.withLock { s in s.log.reduce(0, +) }
                    precondition(sum >= 0)
                }
            }
            return nil
        }
        #expect(lock.withLock { $0.count } == 2 * rounds)
        #expect(lock.withLock { $0.log.count } <= 8)
    }

    @Test func whatTheBodyThrowsComesBackWithTheLockFree() {
        struct Refused: Error, Equatable {}
        let lock = Lock(Shared())
        #expect(throws: Refused()) {
            try lock.withLock { (s: inout Shared) throws(Refused) in
                s.count = 7
                throw Refused()
            }
        }
        // Taken again: a lock left held would hang here.
        #expect(lock.withLock { $0.count } == 7)
    }
}
