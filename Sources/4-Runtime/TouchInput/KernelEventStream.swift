#if canImport(Glibc)
import Glibc
#endif
import TouchEvents

/// A non-blocking descriptor carrying the kernel's `struct input_event` records (a pipe or a
/// socket a test or a played recording writes into), read as an evdev node is: what has
/// arrived, decoded, a record split across reads kept until its rest comes. The buffer each
/// `read(2)` fills is allocated once, so reading allocates nothing, as a kernel device's
/// reads do.
public struct KernelEventStream {
    /// The descriptor read (non-blocking), and the device's node for errors.
    public let fileDescriptor: Int32
    public let node: String
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 64 * KernelInputEvents.recordSize)

    public init(fileDescriptor: Int32, node: String) {
        self.fileDescriptor = fileDescriptor
        self.node = node
    }

    /// Everything that has arrived, to `body`, in order; false once the writer has closed its end
    /// (the device went away).
    public mutating func readPending(_ body: (InputEvent) -> Void) throws(InputError) -> Bool {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EAGAIN { return true }
                if errno == EINTR { continue }
                throw InputError(path: node, message: "read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return false }
            pending.append(contentsOf: buffer[0..<n])
            let used = pending.withUnsafeBytes { KernelInputEvents.decode($0, body) }
            pending.removeFirst(used)
        }
    }
}
