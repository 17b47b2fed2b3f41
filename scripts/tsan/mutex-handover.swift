// Does ThreadSanitizer see a lock handed from one thread to another under contention?
//
//   scripts/tsan/mutex-handover.sh [RUNS]
//
// Four threads take turns on one lock: two append to an array and trim it, two read it. Every
// access to the array is inside `withLock`, so a report is the sanitizer not seeing the lock.
// `mutex` uses Synchronization.Mutex (on Linux a priority-inheritance futex: a contended lock is
// handed over inside the kernel, FUTEX_UNLOCK_PI, in code the sanitizer does not instrument);
// `pthread` uses pthread_mutex_t, which ThreadSanitizer intercepts (TouchEvents' `Lock`).
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

struct State {
    var items: [Int] = []
}

final class PthreadLock<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value
    init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}

final class Locks: @unchecked Sendable {
    let mutex = Mutex(State())
    let pthread = PthreadLock(State())
}

final class Worker {
    let role: Int
    init(role: Int) { self.role = role }
}

guard CommandLine.arguments.count == 2, ["mutex", "pthread"].contains(CommandLine.arguments[1]) else {
    print("usage: mutex-handover mutex|pthread")
    exit(2)
}
let usePthread = CommandLine.arguments[1] == "pthread"
let locks = Locks()
let rounds = 200_000
var threads: [pthread_t] = []
for role in 0..<4 {
    var thread = pthread_t()
    pthread_create(&thread, nil, { raw in
        let worker = Unmanaged<Worker>.fromOpaque(raw!).takeRetainedValue()
        for i in 0..<rounds {
            if worker.role % 2 == 0 {
                if usePthread {
                    locks.pthread.withLock { s in
                        s.items.append(i)
                        if s.items.count > 8 { s.items.removeAll() }
                    }
                } else {
                    locks.mutex.withLock { s in
                        s.items.append(i)
                        if s.items.count > 8 { s.items.removeAll() }
                    }
                }
            } else {
                let sum = usePthread ? locks.pthread.withLock { s in s.items.reduce(0, +) } : locks.mutex.withLock { s in s.items.reduce(0, +) }
                precondition(sum >= 0)
            }
        }
        return nil
    }, Unmanaged.passRetained(Worker(role: role)).toOpaque())
    threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }
print("\(CommandLine.arguments[1]): \(4 * rounds / 2) writes and as many reads done")
