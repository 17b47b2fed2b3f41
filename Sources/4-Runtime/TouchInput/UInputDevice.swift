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

    public init(description: DeviceDescription) throws(InputError) {
        handle = try LibevdevHandle(description: description)
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(handle.pointer, Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &created)
        guard rc == 0, let created else {
            let reason = String(cString: strerror(-rc))
            throw InputError(path: "/dev/uinput", message:
                "cannot create a virtual device: \(reason) (uinput needs the uinput kernel module — modprobe uinput — and write access to /dev/uinput)")
        }
        uinput = created
        node = libevdev_uinput_get_devnode(created).map { String(cString: $0) } ?? ""
        guard !node.isEmpty else {
            libevdev_uinput_destroy(created)
            throw InputError(path: "/dev/uinput", message: "the virtual device has no node (is devtmpfs mounted on /dev?)")
        }
    }

    deinit { libevdev_uinput_destroy(uinput) }

    /// Writes events; the kernel stamps them with the time they are written.
    public func write(_ events: [InputEvent]) throws(InputError) {
        for e in events {
            let rc = libevdev_uinput_write_event(uinput, UInt32(e.type), UInt32(e.code), e.value)
            guard rc == 0 else { throw InputError(path: node, message: "write: \(String(cString: strerror(-rc)))") }
        }
    }
}
