import TouchInput

/// The touch devices a runtime knows, each once: every device the monitor reported (used or
/// not), found by its node (hotplug, a configuration's rules) or by its descriptor (what a
/// wakeup names: an index, no hashing), with its session while it is in use.
struct DeviceTable {
    /// A device, and its session while it is in use.
    final class Entry {
        let device: any TouchDevice
        var session: DeviceSession?
        /// While the device is owned: its grab is held and its twin stands in for it.
        var twin: OwnedTwin?

        init(device: any TouchDevice) {
            self.device = device
        }
    }

    private var byNode: [String: Entry] = [:]
    private var byDescriptor: [Entry?] = []

    /// Knows `device` from now on (a node reported again must be removed first).
    mutating func add(_ device: any TouchDevice) {
        precondition(byNode[device.node] == nil, "a node is known once")
        let entry = Entry(device: device)
        byNode[device.node] = entry
        let fd = Int(device.fileDescriptor)
        if fd >= byDescriptor.count { byDescriptor += [Entry?](repeating: nil, count: fd + 1 - byDescriptor.count) }
        byDescriptor[fd] = entry
    }

    /// Forgets the device at `node`; returns it (nil when it was not known).
    mutating func remove(node: String) -> Entry? {
        guard let entry = byNode.removeValue(forKey: node) else { return nil }
        let fd = Int(entry.device.fileDescriptor)
        if fd >= 0 && fd < byDescriptor.count && byDescriptor[fd] === entry { byDescriptor[fd] = nil }
        return entry
    }

    /// Forgets every device.
    mutating func removeAll() {
        byNode.removeAll()
        byDescriptor.removeAll()
    }

    /// The device whose descriptor is `fd`, if it is one of them.
    func entry(descriptor fd: Int32) -> Entry? {
        fd >= 0 && Int(fd) < byDescriptor.count ? byDescriptor[Int(fd)] : nil
    }

    /// The device at `node`.
    func entry(node: String) -> Entry? { byNode[node] }

    /// Every device known, by node.
    var all: [Entry] { byNode.keys.sorted().compactMap { byNode[$0] } }

    /// The devices in use, by node.
    var inUse: [Entry] { all.filter { $0.session != nil } }

    /// True when no device is in use.
    var noneInUse: Bool { !byDescriptor.contains { $0?.session != nil } }

    /// The devices in use, in descriptor order, copying nothing.
    func forEachInUse(_ body: (Entry) -> Void) {
        for entry in byDescriptor {
            if let entry, entry.session != nil { body(entry) }
        }
    }
}
