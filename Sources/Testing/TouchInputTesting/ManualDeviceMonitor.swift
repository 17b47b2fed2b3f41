#if canImport(Glibc)
import Glibc
#endif
import TouchInput

/// A device monitor driven by hand: ``plugIn(_:)`` and ``unplug(node:)`` are hotplug events.
/// For tests of the service, with devices of their own (``PipeTouchDevice``).
public final class ManualDeviceMonitor: DeviceMonitor {
    private var pendingChanges: [DeviceChange] = []
    private let wake: [Int32]

    public init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "pipe failed")
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wake = fds
    }

    deinit {
        close(wake[0])
        close(wake[1])
    }

    public var fileDescriptor: Int32 { wake[0] }

    public func plugIn(_ device: any TouchDevice) {
        pendingChanges.append(.added(device))
        signal()
    }

    public func unplug(node: String) {
        pendingChanges.append(.removed(node: node))
        signal()
    }

    private func signal() {
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
    }

    public func changes() -> [DeviceChange] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(wake[0], $0.baseAddress, $0.count) }) > 0 {}
        defer { pendingChanges.removeAll() }
        return pendingChanges
    }
}
