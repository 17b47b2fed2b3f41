#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import TouchEvents

/// A virtual input device made through uinput from a description (libevdev's uinput API):
/// what `gestured replay --uinput` plays recordings into.
public final class UInputDevice {
    private let handle: LibevdevHandle
    private let uinput: OpaquePointer
    /// The device node the kernel gave it (`/dev/input/event12`).
    public let node: String

    /// What each frame's `write(2)` sends, grown as needed (writing a frame allocates nothing
    /// once it has grown).
    private var records: UnsafeMutablePointer<input_event>
    private var capacity = 64
    /// The descriptor of /dev/uinput is this object's to close (libevdev closes only one it
    /// opened itself).
    private let closesDescriptor: Bool

    public convenience init(description: DeviceDescription) throws(InputError) {
        try self.init(description: description, phys: nil)
    }

    /// One of gestured's own virtual touch devices (the `touchpad` action's): marked by its phys
    /// (``DeviceTwinMark/virtualPhysPrefix``), so that no gestured reads it as a touch device.
    public convenience init(virtualTouchDevice description: DeviceDescription) throws(InputError) {
        try self.init(description: description, phys: DeviceTwinMark.virtualPhysPrefix + description.name)
    }

    /// The twin of the device at `node` (``DeviceDescription/twinDescription``): its identity
    /// kept (name, bus, vendor, product, version: what compositors, udev's hwdb and libinput's
    /// quirks match devices by), marked as a twin by its phys (``DeviceTwinMark``).
    public convenience init(twinOf description: DeviceDescription, node: String) throws(InputError) {
        try self.init(description: description.twinDescription, phys: DeviceTwinMark.physPrefix + node)
    }

    private init(description: DeviceDescription, phys: String?) throws(InputError) {
        handle = try LibevdevHandle(description: description)
        // With a phys, /dev/uinput is opened here to set it before the device is created
        // (libevdev's uinput API leaves it empty); it is closed when the device is destroyed.
        var uinputFD = Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue)
        if let phys {
            uinputFD = open("/dev/uinput", O_RDWR | O_CLOEXEC)
            guard uinputFD >= 0 else {
                let reason = String(cString: strerror(errno))
                throw InputError(path: "/dev/uinput", message:
                    "cannot create a virtual device: \(reason) (uinput needs the uinput kernel module — modprobe uinput — and write access to /dev/uinput)")
            }
            guard gestured_uinput_set_phys(uinputFD, phys) == 0 else {
                let reason = String(cString: strerror(errno))
                close(uinputFD)
                throw InputError(path: "/dev/uinput", message: "cannot set the virtual device's phys: \(reason)")
            }
        }
        closesDescriptor = phys != nil
        records = .allocate(capacity: capacity)
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(handle.pointer, uinputFD, &created)
        guard rc == 0, let created else {
            if phys != nil { close(uinputFD) }
            records.deallocate()
            let reason = String(cString: strerror(-rc))
            throw InputError(path: "/dev/uinput", message:
                "cannot create a virtual device: \(reason) (uinput needs the uinput kernel module — modprobe uinput — and write access to /dev/uinput)")
        }
        uinput = created
        node = libevdev_uinput_get_devnode(created).map { String(cString: $0) } ?? ""
        guard !node.isEmpty else {
            // Every property is set: the deinit destroys the device and frees the rest.
            throw InputError(path: "/dev/uinput", message: "the virtual device has no node (is devtmpfs mounted on /dev?)")
        }
    }

    deinit {
        let fd = libevdev_uinput_get_fd(uinput)
        libevdev_uinput_destroy(uinput)
        if closesDescriptor { close(fd) }
        records.deallocate()
    }

    /// Writes events in one `write(2)`; the kernel stamps them with the time they are written.
    public func write(_ events: [InputEvent]) throws(InputError) {
        guard !events.isEmpty else { return }
        if events.count > capacity {
            records.deallocate()
            capacity = max(events.count, 2 * capacity)
            records = .allocate(capacity: capacity)
        }
        for (i, e) in events.enumerated() {
            records[i] = input_event()
            records[i].type = e.type
            records[i].code = e.code
            records[i].value = e.value
        }
        let fd = libevdev_uinput_get_fd(uinput)
        let size = MemoryLayout<input_event>.stride * events.count
        var done = 0
        while done < size {
            let n = Glibc.write(fd, UnsafeRawPointer(records) + done, size - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(path: node, message: "write: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }
}
