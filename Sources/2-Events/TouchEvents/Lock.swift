#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared between threads behind a `pthread_mutex_t`: what the package uses where state
/// crosses threads (the client's requests and registrations, the runtime's calls and streams).
///
/// Why not the standard library's `Synchronization.Mutex`: on Linux it is a priority-inheritance
/// futex whose contended path — the waiter sleeping in `FUTEX_LOCK_PI`, the owner handing the lock
/// over in `FUTEX_UNLOCK_PI` — runs inside the kernel and inside the precompiled Synchronization
/// library, neither of them instrumented. ThreadSanitizer then sees no happens-before between the
/// owner's critical section and the waiter's, and reports a race on every contended hand-over that
/// it catches ("Swift access race" on the guarded value, both sides inside `withLock`). It
/// intercepts `pthread_mutex_lock`/`unlock`, so with this lock it sees every hand-over and still
/// reports every real race. (scripts/tsan/mutex-handover.swift shows both.)
///
/// The mutex lives in memory of its own that never moves, as a pthread mutex must.
package final class Lock<Value> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Only touched with `mutex` held (which makes the accesses exclusive: no dynamic check).
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held; what `body` returns or throws comes back.
    /// `body` must not take this lock again (it is not recursive).
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// The value is only ever reached under the mutex.
extension Lock: @unchecked Sendable where Value: Sendable {}
