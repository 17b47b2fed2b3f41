#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A descriptor a loop can watch that becomes readable when someone says so (`eventfd`,
/// non-blocking): a device monitor's "changes are waiting" (``signal()``, then ``drain()``),
/// or, never signalled, a descriptor that is never readable.
public final class EventCounter {
    /// The descriptor to watch.
    public let fileDescriptor: Int32

    public init() throws(SystemError) {
        fileDescriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fileDescriptor >= 0 else { throw SystemError(path: "eventfd", message: String(cString: strerror(errno)), code: errno) }
    }

    deinit { close(fileDescriptor) }

    /// Makes the descriptor readable.
    public func signal() {
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes it unreadable again.
    public func drain() {
        var count: UInt64 = 0
        _ = read(fileDescriptor, &count, MemoryLayout<UInt64>.size)
    }
}
