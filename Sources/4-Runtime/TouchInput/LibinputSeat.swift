#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import CLibinput
import Logging
import TouchEvents

/// libinput keeps a pointer to its interface for the context's whole life: it must be
/// static. Its callbacks find the seat through `user_data`.
nonisolated(unsafe) private var seatInterface = libinput_interface(
    open_restricted: { path, flags, userData in
        guard let path, let userData else { return -EINVAL }
        let seat = Unmanaged<LibinputSeat>.fromOpaque(userData).takeUnretainedValue()
        return seat.openRestricted(String(cString: path), flags)
    },
    close_restricted: { fd, _ in
        close(fd)
    })

/// Touchscreens and touchpads on a libinput udev seat, as they come and go.
///
/// libinput does the discovery and hotplug; its open callback refuses every device that is not
/// a touchscreen or touchpad (udev's `ID_INPUT_TOUCHSCREEN`/`ID_INPUT_TOUCHPAD`, confirmed by
/// the device's own capabilities), so the process never holds a keyboard's descriptor and can
/// never read keystrokes. Each touch device is then read through its own libevdev descriptor,
/// with the same decoder as recordings — once: as soon as it is reported, libinput is told to
/// send no events for it (`LIBINPUT_CONFIG_SEND_EVENTS_DISABLED`), which suspends the device and
/// closes libinput's descriptor, so libinput neither wakes nor decodes for its events; it still
/// reports the device's removal.
public final class LibinputSeat: DeviceMonitor {
    public let seatName: String
    private let udev: OpaquePointer
    private var context: OpaquePointer?
    private let logger: Logger
    /// Nodes of the touch devices libinput reported, in the order they came.
    public private(set) var nodes: [String] = []

    public init(seat: String = "seat0", logger: Logger) throws(InputError) {
        seatName = seat
        self.logger = logger
        guard let udev = udev_new() else { throw InputError(path: seat, message: "udev_new failed") }
        self.udev = udev
        guard let li = libinput_udev_create_context(&seatInterface, Unmanaged.passUnretained(self).toOpaque(), udev) else {
            udev_unref(udev)
            throw InputError(path: seat, message: "libinput_udev_create_context failed")
        }
        context = li
        guard libinput_udev_assign_seat(li, seat) == 0 else {
            libinput_unref(li)
            udev_unref(udev)
            throw InputError(path: seat, message: "libinput could not assign seat \"\(seat)\" (is udev running?)")
        }
    }

    deinit {
        if let context { libinput_unref(context) }
        udev_unref(udev)
    }

    public var fileDescriptor: Int32 { context.map(libinput_get_fd) ?? -1 }

    public func changes() -> [DeviceChange] {
        guard let li = context else { return [] }
        libinput_dispatch(li)
        var result: [DeviceChange] = []
        while let event = libinput_get_event(li) {
            defer { libinput_event_destroy(event) }
            let type = libinput_event_get_type(event)
            guard type == LIBINPUT_EVENT_DEVICE_ADDED || type == LIBINPUT_EVENT_DEVICE_REMOVED,
                  let device = libinput_event_get_device(event),
                  let udevDevice = libinput_device_get_udev_device(device) else { continue }
            defer { udev_device_unref(udevDevice) }
            guard let nodePointer = udev_device_get_devnode(udevDevice) else { continue }
            let node = String(cString: nodePointer)
            if type == LIBINPUT_EVENT_DEVICE_ADDED {
                do throws(InputError) {
                    let opened = try EvdevDevice(path: node, udevProperties: TouchDeviceInventory.axisOverrides(udevDevice),
                                                 keptProperties: TouchDeviceInventory.udevProperties(udevDevice))
                    nodes.append(node)
                    result.append(.added(opened))
                    let status = libinput_device_config_send_events_set_mode(device, LIBINPUT_CONFIG_SEND_EVENTS_DISABLED.rawValue)
                    if status != LIBINPUT_CONFIG_STATUS_SUCCESS {
                        logger.debug("libinput keeps reading this device too", metadata: ["device": "\(node)"])
                    }
                } catch {
                    logger.error("cannot read a touch device", metadata: ["device": "\(node)", "error": "\(error.message)"])
                }
            } else if let i = nodes.firstIndex(of: node) {
                nodes.remove(at: i)
                result.append(.removed(node: node))
            }
        }
        return result
    }

    /// libinput's open callback: only touch devices are opened.
    fileprivate func openRestricted(_ path: String, _ flags: Int32) -> Int32 {
        guard let kind = touchKind(path) else {
            logger.debug("not a touch device: refused", metadata: ["device": "\(path)"])
            return -EACCES
        }
        let fd = open(path, flags | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == EACCES || code == EPERM {
                logger.error("permission denied on a \(kind)", metadata: [
                    "device": "\(path)",
                    "fix": "install udev/70-gestured.rules and run gestured in the gestured group (see docs/service.md)",
                ])
            }
            return -code
        }
        // Confirmed by the device's own capabilities, not only by udev's word.
        var dev: OpaquePointer?
        if libevdev_new_from_fd(fd, &dev) == 0, let dev {
            let isTouch = DeviceDescription(libevdev: dev).isTouchDevice
            // An owned device's twin (this instance's or another's) stands in for a device
            // that is read already.
            let isTwin = DeviceTwinMark.isTwin(phys: libevdev_get_phys(dev).map { String(cString: $0) })
            libevdev_free(dev)
            if isTwin {
                close(fd)
                logger.debug("an owned device's twin, or a virtual touch device of gestured's: not read", metadata: ["device": "\(path)"])
                return -EACCES
            }
            if isTouch { return fd }
        }
        close(fd)
        logger.debug("udev calls it a \(kind) but its capabilities do not: refused", metadata: ["device": "\(path)"])
        return -EACCES
    }

    /// "touchscreen" or "touchpad" by udev's properties, or nil.
    private func touchKind(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0, let device = udev_device_new_from_devnum(udev, Int8(UInt8(ascii: "c")), st.st_rdev) else {
            return nil
        }
        defer { udev_device_unref(device) }
        func property(_ name: String) -> Bool {
            udev_device_get_property_value(device, name).map { String(cString: $0) == "1" } ?? false
        }
        if property("ID_INPUT_TOUCHSCREEN") { return "touchscreen" }
        if property("ID_INPUT_TOUCHPAD") { return "touchpad" }
        return nil
    }
}
