#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import CLibinput
import TouchEvents

/// One touchscreen or touchpad udev knows, and whether this process may read it.
public struct TouchDeviceInfo: Sendable {
    /// `/dev/input/eventN`.
    public var node: String
    /// The kernel's name for it (from sysfs, readable without opening the device).
    public var name: String
    /// Touchscreen or touchpad, by udev's `ID_INPUT_TOUCHSCREEN`/`ID_INPUT_TOUCHPAD`.
    public var kind: DeviceKind
    /// The udev seat (`ID_SEAT`, `seat0` when unset).
    public var seat: String
    /// The full description when the device could be opened; nil otherwise.
    public var description: DeviceDescription?
    public var access: Access

    public enum Access: Sendable, Equatable {
        case readable
        /// Could not be opened: the reason, and what would fix it.
        case denied(reason: String, fix: String)
    }

    public init(node: String, name: String, kind: DeviceKind, seat: String = "seat0",
                description: DeviceDescription? = nil, access: Access = .readable) {
        self.node = node
        self.name = name
        self.kind = kind
        self.seat = seat
        self.description = description
        self.access = access
    }
}

/// The touchscreens and touchpads on this machine, from udev's database — what
/// `gestured devices` lists. Each is opened read-only for a moment to read its axes; one
/// that cannot be opened is still listed, with why and what would fix it.
public enum TouchDeviceInventory {
    /// Every touch device udev knows, in node order (event2 before event10).
    public static func list() throws(InputError) -> [TouchDeviceInfo] {
        guard let udev = udev_new() else { throw InputError(path: "udev", message: "udev_new failed") }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { throw InputError(path: "udev", message: "udev_enumerate_new failed") }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_scan_devices(enumerate)
        var found: [TouchDeviceInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let e = entry {
            defer { entry = udev_list_entry_get_next(e) }
            guard let syspath = udev_list_entry_get_name(e),
                  let device = udev_device_new_from_syspath(udev, syspath) else { continue }
            defer { udev_device_unref(device) }
            guard let nodePointer = udev_device_get_devnode(device) else { continue }
            let node = String(cString: nodePointer)
            guard node.hasPrefix("/dev/input/event") else { continue }
            func property(_ name: String) -> String? {
                udev_device_get_property_value(device, name).map { String(cString: $0) }
            }
            let kind: DeviceKind
            if property("ID_INPUT_TOUCHSCREEN") == "1" { kind = .touchscreen }
            else if property("ID_INPUT_TOUCHPAD") == "1" { kind = .touchpad }
            else { continue }
            // The name lives on the parent inputN device.
            var name = ""
            if let parent = udev_device_get_parent(device),
               let n = udev_device_get_sysattr_value(parent, "name") { name = String(cString: n) }
            var info = TouchDeviceInfo(node: node, name: name, kind: kind, seat: property("ID_SEAT") ?? "seat0")
            do throws(InputError) {
                var description = try describe(node).applyingUdevAbsOverrides(axisOverrides(device))
                description.udevProperties = udevProperties(device)
                info.description = description
                if !description.name.isEmpty { info.name = description.name }
            } catch {
                info.access = .denied(reason: error.message, fix: fix(for: node))
            }
            found.append(info)
        }
        return found.sorted { numericOrder($0.node) < numericOrder($1.node) }
    }

    /// udev properties worth keeping in a recording (libinput record keeps the same ones).
    static func udevProperties(_ device: OpaquePointer) -> [String] {
        properties(of: device) { name in
            name.hasPrefix("ID_INPUT") || name == "LIBINPUT_CALIBRATION_MATRIX" || name == "LIBINPUT_DEVICE_GROUP" || name == "ID_SEAT"
        }.map { "\($0.name)=\($0.value)" }
    }

    /// The device's udev properties whose names `keep` accepts, in udev's order.
    private static func properties(of device: OpaquePointer, _ keep: (String) -> Bool) -> [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        var entry = udev_device_get_properties_list_entry(device)
        while let e = entry {
            defer { entry = udev_list_entry_get_next(e) }
            guard let n = udev_list_entry_get_name(e) else { continue }
            let name = String(cString: n)
            guard keep(name) else { continue }
            out.append((name, udev_list_entry_get_value(e).map { String(cString: $0) } ?? ""))
        }
        return out
    }

    /// udev's hwdb corrections of the device's axes (`EVDEV_ABS_XX` properties), by name.
    static func axisOverrides(_ device: OpaquePointer) -> [String: String] {
        Dictionary(properties(of: device) { UdevAbsOverride.axisCode(property: $0) != nil }, uniquingKeysWith: { $1 })
    }

    /// The description of the device at `node`, read through libevdev.
    public static func describe(_ node: String) throws(InputError) -> DeviceDescription {
        let (fd, dev) = try EvdevDevice.openLibevdev(node)
        defer {
            libevdev_free(dev)
            close(fd)
        }
        return DeviceDescription(libevdev: dev)
    }

    /// What would let this user read `node`: the group that owns it, or the udev rule.
    static func fix(for node: String) -> String {
        var st = stat()
        guard stat(node, &st) == 0 else { return "check that \(node) exists" }
        let group = getgrgid(st.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(st.st_gid)"
        let groupReadable = st.st_mode & S_IRGRP != 0
        if hasGroup(named: "gestured") {
            return "the gestured group exists: install udev/70-gestured.rules (it grants that group read access) "
                + "and add yourself to it: sudo usermod -aG gestured $USER, then log in again"
        }
        if groupReadable && group != "root" {
            return "join the \(group) group that owns \(node) (sudo usermod -aG \(group) $USER, then log in again), "
                + "or install udev/70-gestured.rules and use the gestured group"
        }
        return "install udev/70-gestured.rules and add yourself to the gestured group "
            + "(sudo groupadd -r gestured; sudo usermod -aG gestured $USER; log in again), or run as root"
    }

    private static func hasGroup(named name: String) -> Bool { getgrnam(name) != nil }

    /// `/dev/input/event10` after `event9`.
    private static func numericOrder(_ node: String) -> Int {
        Int(node.drop(while: { !$0.isNumber })) ?? Int.max
    }
}

extension TouchDeviceInventory {
    /// The udev properties a recording keeps for the device at `node` (empty when udev does
    /// not know it).
    public static func udevProperties(node: String) -> [String] {
        var st = stat()
        guard stat(node, &st) == 0, let udev = udev_new() else { return [] }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_devnum(udev, Int8(UInt8(ascii: "c")), st.st_rdev) else { return [] }
        defer { udev_device_unref(device) }
        return udevProperties(device)
    }
}
