#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import TouchEvents

/// Where an owned device's events go on: its uinput twin (``UInputDevice/init(twinOf:node:)``),
/// or in tests a recorder.
public protocol TwinOutput: AnyObject {
    /// The twin's node (`/dev/input/event12`), for logs.
    var node: String { get }
    /// Writes whole frames (each ends with `SYN_REPORT`), in one `write(2)`.
    func write(_ events: [InputEvent]) throws(InputError)
}

/// What marks a uinput device as an owned device's twin: its phys starts with it
/// (`gestured-twin:/dev/input/event5`). gestured never reads such a device as a touch device
/// of its own — its own twins, or another instance's.
public enum DeviceTwinMark {
    public static let physPrefix = "gestured-twin:"
    /// The phys of gestured's own virtual touch devices (the `touchpad` action's touchpad):
    /// never read as a touch device, or the service would recognize its own output.
    public static let virtualPhysPrefix = "gestured-virtual:"

    /// True for a twin's phys, or a virtual touch device's of gestured's own.
    public static func isTwin(phys: String?) -> Bool {
        guard let phys else { return false }
        return phys.hasPrefix(physPrefix) || phys.hasPrefix(virtualPhysPrefix)
    }
}

extension DeviceDescription {
    /// The description of an owned device's twin: the device's own (name, bus, vendor,
    /// product, version, codes, axes with range, resolution, fuzz and flat, properties, slot
    /// count), with `ABS_MT_TOOL_TYPE` (finger … palm) added where the device lacks it — the
    /// twin cancels a touch by turning it palm. Axis values start at their minimum.
    public var twinDescription: DeviceDescription {
        var d = self
        if d.absInfo[AbsCode.mtSlot] != nil && d.absInfo[AbsCode.mtToolType] == nil {
            d.absInfo[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: MTToolType.palm)
            d.codes[EventType.abs, default: []].insert(AbsCode.mtToolType)
        }
        for (code, info) in d.absInfo {
            var i = info
            i.value = code == AbsCode.mtTrackingID ? -1 : min(max(0, i.minimum), i.maximum)
            if code == AbsCode.mtSlot { i.value = 0 }
            d.absInfo[code] = i
        }
        return d
    }
}

extension UInputDevice: TwinOutput {}

extension EvdevDevice {
    /// `EVIOCGRAB`: with `true`, only this descriptor gets the device's events (the
    /// compositor reads its twin instead); `false` lets go. Fails with `EBUSY` when another
    /// program holds the grab. Closing the descriptor (the process ending, killed or not)
    /// lets go too.
    public func setGrabbed(_ grabbed: Bool) throws(InputError) {
        let rc = libevdev_grab(handle, grabbed ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)
        guard rc == 0 else {
            let reason = String(cString: strerror(-rc))
            throw InputError(path: path, message: -rc == EBUSY
                ? "cannot grab: another program holds the device (\(reason))"
                : "cannot grab: \(reason)")
        }
    }
}
