/// The bus and ids of a device (`struct input_id`).
public struct InputID: Sendable, Hashable {
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// One absolute axis (`struct input_absinfo`). `resolution` is in units per millimetre
/// for position axes (0 when the device does not report it).
public struct AbsInfo: Sendable, Hashable {
    /// The axis value when the description was taken: the initial state a decoder starts from.
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What a device is, for gestures.
public enum DeviceKind: String, Sendable, Hashable, CustomStringConvertible {
    /// Direct touch: the finger is where the point is (`INPUT_PROP_DIRECT`).
    case touchscreen
    /// Indirect touch surface (`INPUT_PROP_POINTER`, or `BTN_TOOL_FINGER` without `INPUT_PROP_DIRECT`).
    case touchpad
    /// Anything else (keyboards, mice, pens): never used for gestures.
    case other

    public var description: String { rawValue }
}

/// How a device reports its contacts.
public enum TouchProtocol: Sendable, Hashable, CustomStringConvertible {
    /// Multitouch protocol B: `ABS_MT_SLOT` with this many slots.
    case slots(Int)
    /// Multitouch protocol A: anonymous contacts separated by `SYN_MT_REPORT`.
    case anonymous
    /// One contact from `ABS_X`/`ABS_Y` and `BTN_TOUCH` (resistive panels, old touchpads).
    case singleTouch
    /// No touch axes at all.
    case none

    public var description: String {
        switch self {
        case .slots(let n): "multitouch protocol B, \(n) slots"
        case .anonymous: "multitouch protocol A"
        case .singleTouch: "single touch"
        case .none: "no touch axes"
        }
    }
}

/// A device as the kernel describes it: name, ids, enabled event codes, axes and
/// properties — what `evemu-describe` and `libinput record` write, and what a uinput
/// device is created from.
public struct DeviceDescription: Sendable, Equatable {
    public var name: String
    public var id: InputID
    /// Enabled codes per event type. `EV_SYN` and `EV_ABS` codes are implied by the
    /// presence of their types and axes but are stored as given.
    public var codes: [UInt16: Set<UInt16>]
    /// Axis information per `ABS_*` code.
    public var absInfo: [UInt16: AbsInfo]
    /// Enabled `INPUT_PROP_*` bits.
    public var properties: Set<UInt16>
    /// udev properties as recorded by `libinput record` (`ID_INPUT_TOUCHSCREEN=1`, …); may be empty.
    public var udevProperties: [String]

    public init(
        name: String,
        id: InputID,
        codes: [UInt16: Set<UInt16>],
        absInfo: [UInt16: AbsInfo],
        properties: Set<UInt16>,
        udevProperties: [String] = []
    ) {
        self.name = name
        self.id = id
        self.codes = codes
        self.absInfo = absInfo
        self.properties = properties
        self.udevProperties = udevProperties
    }

    /// udev's `LIBINPUT_CALIBRATION_MATRIX` for the device (six numbers, libinput's order), or
    /// nil when it has none or it is not six numbers.
    public var calibrationMatrix: [Double]? {
        let key = "LIBINPUT_CALIBRATION_MATRIX="
        guard let property = udevProperties.last(where: { $0.hasPrefix(key) }) else { return nil }
        let values = property.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        return values.count == 6 ? values : nil
    }

    /// True if the device has this event code enabled.
    public func has(type: UInt16, code: UInt16) -> Bool {
        if type == EventType.abs, absInfo[code] != nil { return true }
        return codes[type]?.contains(code) ?? false
    }

    /// True if the device has this property.
    public func has(property: UInt16) -> Bool { properties.contains(property) }

    private func hasKey(_ code: UInt16) -> Bool { has(type: EventType.key, code: code) }

    /// Multitouch protocol, from the axes.
    public var touchProtocol: TouchProtocol {
        let hasMT = absInfo[AbsCode.mtPositionX] != nil && absInfo[AbsCode.mtPositionY] != nil
        if hasMT, let slot = absInfo[AbsCode.mtSlot] {
            return .slots(max(0, Int(slot.maximum) - Int(slot.minimum) + 1))
        }
        if hasMT { return .anonymous }
        if absInfo[AbsCode.x] != nil, absInfo[AbsCode.y] != nil,
           hasKey(KeyCode.touch) || hasKey(KeyCode.toolFinger) {
            return .singleTouch
        }
        return .none
    }

    /// Number of protocol-B slots (0 for the other protocols).
    public var slotCount: Int {
        if case .slots(let n) = touchProtocol { return n }
        return 0
    }

    /// True for devices with one contact from `ABS_X`/`ABS_Y` and `BTN_TOUCH` and no `ABS_MT_*` axes.
    public var isSingleTouch: Bool { touchProtocol == .singleTouch }

    /// Touchscreen, touchpad or other, by the rules udev's input_id uses:
    /// `INPUT_PROP_DIRECT` makes a touchscreen; `INPUT_PROP_POINTER` or `BTN_TOOL_FINGER`
    /// makes a touchpad; a device with touch axes and `BTN_TOUCH` but neither property nor
    /// `BTN_TOOL_FINGER` (kernels before 2.6.38 reported no properties) is a touchscreen.
    /// Pen-only devices are `other`.
    public var kind: DeviceKind {
        if touchProtocol == .none { return .other }
        let pen = hasKey(KeyCode.toolPen)
        if has(property: InputProperty.direct) {
            return pen && !hasKey(KeyCode.touch) && touchProtocol == .singleTouch ? .other : .touchscreen
        }
        if has(property: InputProperty.pointer) || hasKey(KeyCode.toolFinger) { return .touchpad }
        if hasKey(KeyCode.touch) && !pen { return .touchscreen }
        return .other
    }

    /// True for touchscreens and touchpads.
    public var isTouchDevice: Bool { kind != .other }

    /// The whole touch's axes (`ABS_PRESSURE`, `ABS_TOOL_WIDTH`) of a touchpad with slots that
    /// reports no pressure per contact, each with a range: what it says of its contacts'
    /// pressure and width (`TouchFrame.wholeTouch`). Nil on every other device.
    public var wholeTouchAxes: (pressure: AbsInfo, width: AbsInfo)? {
        guard kind == .touchpad, case .slots = touchProtocol, absInfo[AbsCode.mtPressure] == nil,
              let pressure = absInfo[AbsCode.pressure], let width = absInfo[AbsCode.toolWidth],
              pressure.maximum > pressure.minimum, width.maximum > width.minimum else { return nil }
        return (pressure, width)
    }

    /// The axes that carry contact positions: `ABS_MT_POSITION_X/Y` on multitouch
    /// devices, `ABS_X/Y` on single-touch ones.
    public var positionAxes: (x: UInt16, y: UInt16)? {
        switch touchProtocol {
        case .slots, .anonymous: (AbsCode.mtPositionX, AbsCode.mtPositionY)
        case .singleTouch: (AbsCode.x, AbsCode.y)
        case .none: nil
        }
    }

    /// The surface size in millimetres from the axes' resolution, or nil when the
    /// device reports a resolution of 0 (common on touchscreens).
    public var reportedSize: SurfaceSize? {
        guard let axes = positionAxes, let x = absInfo[axes.x], let y = absInfo[axes.y],
              x.resolution > 0, y.resolution > 0 else { return nil }
        return SurfaceSize(
            width: Double(Int(x.maximum) - Int(x.minimum)) / Double(x.resolution),
            height: Double(Int(y.maximum) - Int(y.minimum)) / Double(y.resolution))
    }
}
