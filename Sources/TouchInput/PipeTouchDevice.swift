#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import TouchEvents

/// A touch device fed through a pipe with the kernel's `struct input_event` records —
/// for tests and tools that need a device without a kernel. Closing the write end is
/// the device going away.
public final class PipeTouchDevice: TouchDevice {
    public let node: String
    public let description: DeviceDescription
    public let fileDescriptor: Int32
    /// The end to write events into.
    public let writeDescriptor: Int32
    public var resynchronizesAfterDrops: Bool { false }
    private var pending: [UInt8] = []

    public init(node: String, description: DeviceDescription) throws(InputError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw InputError(path: node, message: "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        self.node = node
        self.description = description
        fileDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    deinit {
        close(fileDescriptor)
        closeWriter()
    }

    private var writerOpen = true

    /// The device goes away (its reader sees end of file).
    public func closeWriter() {
        if writerOpen {
            close(writeDescriptor)
            writerOpen = false
        }
    }

    /// Writes events as `struct input_event` records.
    public func write(_ events: [InputEvent]) {
        var bytes: [UInt8] = []
        for e in events {
            var ev = e.kernelEvent
            withUnsafeBytes(of: &ev) { bytes.append(contentsOf: $0) }
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(writeDescriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            precondition(n > 0, "pipe full: write fewer events at a time")
            offset += n
        }
    }

    public func readPending(_ body: (InputEvent) -> Void) throws(InputError) -> Bool {
        let size = MemoryLayout<input_event>.size
        var buffer = [UInt8](repeating: 0, count: 64 * size)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EAGAIN { return true }
                if errno == EINTR { continue }
                throw InputError(path: node, message: "read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return false }
            pending.append(contentsOf: buffer[0..<n])
            let whole = pending.count / size * size
            pending.withUnsafeBytes { raw in
                for offset in stride(from: 0, to: whole, by: size) {
                    var ev = raw.loadUnaligned(fromByteOffset: offset, as: input_event.self)
                    body(InputEvent(kernel: &ev))
                }
            }
            pending.removeFirst(whole)
        }
    }
}
