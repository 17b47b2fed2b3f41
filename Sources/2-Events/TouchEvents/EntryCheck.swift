#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Checks, in debug builds, the contract the core's unchecked state rests on: an object is used
/// by one thread at a time and is not re-entered. Each entry point calls ``enter(_:)`` (or
/// ``enterFromHandlers(_:)``) as it starts and ``leave(_:)`` as it returns; the program stops,
/// saying what was entered and how (a test may listen instead: ``EntryViolations``), when
/// - another thread is inside (two threads driving it at once), or
/// - the same thread is inside and the entry is not one a handler may make (a handler called
///   from inside `GesturePipeline.process` may change regions, which the layout applies between
///   frames, and may cancel everything, as a reload does; it may not feed the pipeline a frame
///   or advance it).
///
/// In release builds it is nothing: no stored state, no instruction (the instruction guard
/// measures release builds). The tests run the debug build, so it runs in every test.
package struct EntryCheck: ~Copyable {
    #if DEBUG
    /// The thread inside (0: none).
    private let owner = Atomic<UInt>(0)
    #endif

    package init() {}

    /// `what` (`GesturePipeline.process`) starts, and nothing may be inside: neither another
    /// thread nor this one. Returns what to give ``leave(_:)``.
    @inline(__always)
    package func enter(_ what: StaticString) -> Bool {
        #if DEBUG
        let me = Self.currentThread
        let (entered, inside) = owner.compareExchange(expected: 0, desired: me, ordering: .acquiring)
        if !entered {
            Self.broken(inside == me ? "\(what) was entered again from inside itself (a handler may change regions or cancel, not feed or advance it)"
                                     : "\(what) was entered from a second thread while another was inside (one thread at a time)")
        }
        return entered
        #else
        return false
        #endif
    }

    /// `what` (`GesturePipeline.cancelAll`) starts: from this thread's handlers inside it, or with
    /// nothing inside; never while another thread is. Returns what to give ``leave(_:)``.
    @inline(__always)
    package func enterFromHandlers(_ what: StaticString) -> Bool {
        #if DEBUG
        let me = Self.currentThread
        let (entered, inside) = owner.compareExchange(expected: 0, desired: me, ordering: .acquiring)
        if !entered && inside != me { Self.broken("\(what) was entered from a second thread while another was inside (one thread at a time)") }
        return entered
        #else
        return false
        #endif
    }

    /// What ``enter(_:)`` or ``enterFromHandlers(_:)`` started returns: `claimed` is what it
    /// returned.
    @inline(__always)
    package func leave(_ claimed: Bool) {
        #if DEBUG
        if claimed { owner.store(0, ordering: .releasing) }
        #endif
    }

    #if DEBUG
    /// The contract is broken: the program stops, unless a test listens (``EntryViolations``).
    private static func broken(_ message: String) {
        if let heard = EntryViolations.heard {
            heard(message)
        } else {
            preconditionFailure(message)
        }
    }

    private static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
    #endif
}

/// Where a test hears of a broken contract instead of the program stopping: the test double
/// that proves ``EntryCheck`` runs. Set for the task that breaks the contract on purpose (a task
/// it starts inherits it); nowhere else is it set, so elsewhere a broken contract stops the
/// program. (Exit tests, a process per case, would prove the same by the stop itself, but
/// swift-testing's waiter for their processes spins while another test's child process waits
/// to be reaped: the suite hung once so.)
package enum EntryViolations {
    @TaskLocal package static var heard: (@Sendable (String) -> Void)?
}
