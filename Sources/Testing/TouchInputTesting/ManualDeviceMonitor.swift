#if canImport(Glibc)
import Glibc
#endif
import SystemLoop
import TouchInput

/// A device monitor driven by hand: ``plugIn(_:)`` and ``unplug(node:)`` are hotplug events.
/// For tests of the service, with devices of their own (``PipeTouchDevice``).
public final class ManualDeviceMonitor: DeviceMonitor {
    private var pendingChanges: [DeviceChange] = []
    /// Readable while changes wait.
    private let wake: EventCounter

    public init() {
        do throws(SystemError) {
            wake = try EventCounter()
        } catch {
            fatalError("ManualDeviceMonitor: \(error)")
        }
    }

    public var fileDescriptor: Int32 { wake.fileDescriptor }

    public func plugIn(_ device: any TouchDevice) {
        pendingChanges.append(.added(device))
        wake.signal()
    }

    public func unplug(node: String) {
        pendingChanges.append(.removed(node: node))
        wake.signal()
    }

    public func changes() -> [DeviceChange] {
        wake.drain()
        defer { pendingChanges.removeAll() }
        return pendingChanges
    }
}
