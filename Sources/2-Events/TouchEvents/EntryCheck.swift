#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Checks, in debug builds, the contract the core's unchecked state rests on: an object is used
/// by one thread at a time and is not re-entered. Each entry point calls ``enter(_:)`` (or
/// ``enterFromHandlers(_:)``) as it starts and ``leave(_:)`` as it returns; the program stops,
/// saying what was entered and how, when
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
    /// thread nor this one. Pair it with `leave(true)`.
    @inline(__always)
    package func enter(_ what: StaticString) {
        #if DEBUG
        let me = Self.currentThread
        let (entered, inside) = owner.compareExchange(expected: 0, desired: me, ordering: .acquiring)
        precondition(entered, inside == me ? "\(what) was entered again from inside itself (a handler may change regions or cancel, not feed or advance it)"
                                           : "\(what) was entered from a second thread while another was inside (one thread at a time)")
        #endif
    }

    /// `what` (`GesturePipeline.cancelAll`) starts: from this thread's handlers inside it, or with
    /// nothing inside; never while another thread is. Returns what to give ``leave(_:)``.
    @inline(__always)
    package func enterFromHandlers(_ what: StaticString) -> Bool {
        #if DEBUG
        let me = Self.currentThread
        let (entered, inside) = owner.compareExchange(expected: 0, desired: me, ordering: .acquiring)
        precondition(entered || inside == me, "\(what) was entered from a second thread while another was inside (one thread at a time)")
        return entered
        #else
        return false
        #endif
    }

    /// What ``enter(_:)`` started returns (`claimed`: true), or what ``enterFromHandlers(_:)``
    /// did (its result).
    @inline(__always)
    package func leave(_ claimed: Bool = true) {
        #if DEBUG
        if claimed { owner.store(0, ordering: .releasing) }
        #endif
    }

    #if DEBUG
    private static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
    #endif
}
