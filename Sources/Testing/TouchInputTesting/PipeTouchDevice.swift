#if canImport(Glibc)
import Glibc
#endif
import TouchEvents
import TouchInput

/// A touch device fed through a pipe with the kernel's `struct input_event` records — for
/// tests that need a device without a kernel. Closing the write end is the device going away.
public final class PipeTouchDevice: TouchDevice {
    public let node: String
    public let description: DeviceDescription
    public let fileDescriptor: Int32
    /// The end to write events into.
    public let writeDescriptor: Int32
    public var resynchronizesAfterDrops: Bool { false }
    /// True while the device is grabbed (``setGrabbed(_:)``).
    public private(set) var isGrabbed = false
    /// What a grab fails with, as a real device's does when another program holds it
    /// (nil: grabs succeed).
    public var grabRefusal: InputError?
    /// What ``slotValues()`` says the device's slots hold (a device touched before it was
    /// opened): none by default.
    public var currentSlotValues: [[UInt16: Int32]] = []
    /// The reading end, read as an evdev node (reading allocates nothing, as a kernel device's
    /// reads do, so a benchmark's count is the service's).
    private var stream: KernelEventStream
    private var writerOpen = true

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
        stream = KernelEventStream(fileDescriptor: fds[0], node: node)
    }

    deinit {
        close(fileDescriptor)
        closeWriter()
    }

    /// The device goes away (its reader sees end of file).
    public func closeWriter() {
        if writerOpen {
            close(writeDescriptor)
            writerOpen = false
        }
    }

    /// Writes events as `struct input_event` records.
    public func write(_ events: [InputEvent]) {
        let bytes = KernelInputEvents.encode(events)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(writeDescriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            precondition(n > 0, "pipe full: write fewer events at a time")
            offset += n
        }
    }

    public func slotValues() -> [[UInt16: Int32]] { currentSlotValues }

    public func setGrabbed(_ grabbed: Bool) throws(InputError) {
        if grabbed, let grabRefusal { throw grabRefusal }
        isGrabbed = grabbed
    }

    public func readPending(_ body: (InputEvent) -> Void) throws(InputError) -> Bool {
        try stream.readPending(body)
    }
}
