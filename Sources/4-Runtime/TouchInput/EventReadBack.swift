#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import TouchEvents

/// A device node's events exactly as the kernel passes them on to a reader, with its
/// `CLOCK_MONOTONIC` stamps: no state kept, nothing resynchronized, nothing left out.
///
/// What `gestured replay --uinput --as-played` reads its own virtual device back with, to
/// write what every reader of the device got. It shares no reading code with ``EvdevDevice``
/// on purpose: the real-kernel lane compares the service's live gestures with the replay of
/// what was read back here, and a fault in the service's reader must not be in both.
public final class EventReadBack {
    public let path: String
    private let fileDescriptor: Int32
    private let buffer: UnsafeMutablePointer<input_event>
    private static let batch = 64
    /// Whether the kernel dropped events before they were read (`SYN_DROPPED` came): what was
    /// read is then not all that was passed on.
    public private(set) var droppedByKernel = false

    /// Opens `path` read-only and non-blocking, and asks for monotonic time stamps.
    public convenience init(path: String) throws(InputError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(path: path, message: "cannot open: \(String(cString: strerror(errno)))") }
        _ = gestured_set_monotonic_clock(fd)
        self.init(fileDescriptor: fd, path: path)
    }

    /// Reads the kernel's `struct input_event` records from `fileDescriptor` (non-blocking),
    /// which it then owns and closes.
    public init(fileDescriptor: Int32, path: String) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        buffer = .allocate(capacity: Self.batch)
    }

    deinit {
        close(fileDescriptor)
        buffer.deallocate()
    }

    /// Appends every event pending to `events`. Throws when the device is gone or the read fails.
    public func readPending(into events: inout [InputEvent]) throws(InputError) {
        let size = MemoryLayout<input_event>.stride
        while true {
            let n = read(fileDescriptor, buffer, size * Self.batch)
            if n < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR: continue
                case ENODEV: throw InputError(path: path, message: "the device went away while it was read back")
                case let code: throw InputError(path: path, message: "read failed: \(String(cString: strerror(code)))")
                }
            }
            if n == 0 { return }
            for i in 0..<(n / size) {
                if buffer[i].type == UInt16(EV_SYN) && buffer[i].code == UInt16(SYN_DROPPED) { droppedByKernel = true }
                events.append(InputEvent(kernel: &buffer[i]))
            }
        }
    }
}
