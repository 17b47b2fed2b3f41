/// udev's hwdb corrections of a device's axes (60-evdev.hwdb): the properties `EVDEV_ABS_00`,
/// `EVDEV_ABS_01`, `EVDEV_ABS_35`, `EVDEV_ABS_36`… (the axis code in hex) with the value
/// `min:max:res:fuzz:flat`, any field left empty (`::12` gives a resolution only).
///
/// udev's `keyboard` builtin writes them into the kernel's axis information when it sees the
/// device, so a live device usually reports them already; where it did not (the builtin did not
/// run, the device was opened first), a touchpad that reports no resolution would have its size
/// assumed. Applying them fills in what the kernel left out — as libinput reads its sizes
/// from the same database.
public struct UdevAbsOverride: Sendable, Hashable {
    public var minimum: Int32?
    public var maximum: Int32?
    public var resolution: Int32?
    public var fuzz: Int32?
    public var flat: Int32?

    /// Parses `min:max:res:fuzz:flat` (fewer fields are fine; empty ones are not set); nil when
    /// a field is not a number or there are more than five.
    public init?(parsing value: String) {
        let fields = value.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard fields.count <= 5 else { return nil }
        var numbers: [Int32?] = []
        for field in fields {
            if field.isEmpty {
                numbers.append(nil)
            } else if let n = Int32(field) {
                numbers.append(n)
            } else {
                return nil
            }
        }
        while numbers.count < 5 { numbers.append(nil) }
        (minimum, maximum, resolution, fuzz, flat) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
    }

    /// The axis code an `EVDEV_ABS_XX` property names; nil for any other property.
    public static func axisCode(property name: String) -> UInt16? {
        let prefix = "EVDEV_ABS_"
        guard name.hasPrefix(prefix) else { return nil }
        return UInt16(name.dropFirst(prefix.count), radix: 16)
    }
}

extension DeviceDescription {
    /// The description with udev's hwdb corrections (`EVDEV_ABS_XX` properties, by name) put
    /// into the axes the device has and whose resolution it does not report: the kernel's word
    /// stands where it has one. Properties of other names, unreadable values and axes the device
    /// lacks are left alone.
    public func applyingUdevAbsOverrides(_ properties: [String: String]) -> DeviceDescription {
        var d = self
        for (name, value) in properties {
            guard let code = UdevAbsOverride.axisCode(property: name), var axis = d.absInfo[code], axis.resolution <= 0,
                  let override = UdevAbsOverride(parsing: value) else { continue }
            if let v = override.minimum { axis.minimum = v }
            if let v = override.maximum { axis.maximum = v }
            if let v = override.resolution { axis.resolution = v }
            if let v = override.fuzz { axis.fuzz = v }
            if let v = override.flat { axis.flat = v }
            d.absInfo[code] = axis
        }
        return d
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
