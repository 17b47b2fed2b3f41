import TouchEvents

/// What a quirks match is made against: a device's name, ids and udev type, and the system's
/// DMI modalias and device tree. A live device has them from udev and sysfs; a recording from
/// what it carries (libinput record keeps udev properties and the DMI modalias; evemu has the
/// name and ids), plus what the command line gives.
public struct QuirksDevice: Sendable, Equatable {
    /// The device's name, as the kernel gives it (`MatchName` globs it).
    public var name: String
    /// Its bus, vendor, product and version (`MatchBus`, `MatchVendor`, `MatchProduct`, `MatchVersion`).
    public var id: InputID
    /// The `MatchUdevType` names the device is (`touchpad`, `mouse`, …).
    public var udevTypes: Set<String>
    /// `/sys/class/dmi/id/modalias`, when known.
    public var dmi: String?
    /// The first string of `/sys/firmware/devicetree/base/compatible`, when known.
    public var deviceTree: String?

    /// The device of these names and ids; without `dmi` or `deviceTree`, sections matching on
    /// them do not match it.
    public init(name: String, id: InputID, udevTypes: Set<String>, dmi: String? = nil, deviceTree: String? = nil) {
        self.name = name
        self.id = id
        self.udevTypes = udevTypes
        self.dmi = dmi
        self.deviceTree = deviceTree
    }

    /// udev's `ID_INPUT_*` properties, as libinput maps them to `MatchUdevType` names.
    static let udevTypeProperties: [(String, String)] = [
        ("ID_INPUT_MOUSE", "mouse"), ("ID_INPUT_POINTINGSTICK", "pointingstick"), ("ID_INPUT_TOUCHPAD", "touchpad"),
        ("ID_INPUT_TABLET", "tablet"), ("ID_INPUT_TABLET_PAD", "tablet-pad"), ("ID_INPUT_JOYSTICK", "joystick"),
        ("ID_INPUT_KEYBOARD", "keyboard"), ("ID_INPUT_KEY", "keyboard"),
    ]

    /// The device as a description says it: its udev type from the udev properties it carries
    /// (`ID_INPUT_TOUCHPAD=1`), or, without any `ID_INPUT_` property (an evemu recording), from
    /// its kind as udev's input_id would give it (a touchpad is `touchpad`).
    public init(description: DeviceDescription, dmi: String? = nil, deviceTree: String? = nil) {
        var types = Set<String>()
        var sawUdevType = false
        for property in description.udevProperties {
            let parts = property.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("ID_INPUT_") else { continue }
            if let (_, type) = Self.udevTypeProperties.first(where: { $0.0 == parts[0] }) {
                // libinput counts the property wherever it is set, whatever its value.
                sawUdevType = true
                types.insert(type)
            } else if parts[0] == "ID_INPUT_TOUCHSCREEN" {
                sawUdevType = true
            }
        }
        if !sawUdevType, description.kind == .touchpad { types.insert("touchpad") }
        self.init(name: description.name, id: description.id, udevTypes: types, dmi: dmi, deviceTree: deviceTree)
    }
}

/// `HIGH:LOW` of `AttrPressureRange` and `AttrTouchSizeRange`: a touch begins at HIGH and
/// ends below LOW (libinput's hysteresis), in the axis's units, HIGH above LOW; or `none`:
/// the axis tells no touch (libinput's util-prop-parsers).
public struct QuirkRange: Sendable, Equatable, CustomStringConvertible {
    /// Where a touch begins, in the axis's units (0 with `low` 0: `none`).
    public var high: Int32
    /// Where a touch ends, below `high`, in the axis's units.
    public var low: Int32
    /// `none`: the axis says nothing about touching.
    public var isNone: Bool { high == 0 && low == 0 }

    /// The range `text` writes (`10:8`, `none`); nil where it is not `HIGH:LOW` with HIGH
    /// above LOW, two whole numbers that fit `Int32`, nor `none`.
    public init?(parsing text: String) {
        if text == "none" {
            (high, low) = (0, 0)
            return
        }
        guard let (first, second) = text.splitOnce(at: UInt8(ascii: ":")),
              let high = Int32(first), let low = Int32(second), high > low else { return nil }
        (self.high, self.low) = (high, low)
    }

    /// The range as a quirks file writes it: `10:8`, `none`.
    public var description: String { isNone ? "none" : "\(high):\(low)" }
}

/// `WIDTHxHEIGHT` of `AttrSizeHint` (millimetres) and `AttrResolutionHint` (units per millimetre).
public struct QuirkDimensions: Sendable, Equatable {
    /// Across: millimetres for `AttrSizeHint`, units per millimetre on x for `AttrResolutionHint`.
    public var width: UInt32
    /// Down: millimetres for `AttrSizeHint`, units per millimetre on y for `AttrResolutionHint`.
    public var height: UInt32

    /// The dimensions `text` writes (`100x60`); nil where it is not two whole numbers joined
    /// by one `x`.
    public init?(parsing text: String) {
        guard let (first, second) = text.splitOnce(at: UInt8(ascii: "x")), let w = UInt32(first), let h = UInt32(second) else { return nil }
        (width, height) = (w, h)
    }
}

extension String {
    /// The text before and after its one `separator` (an ASCII byte); nil where it has none or
    /// more than one. Found by bytes, with no array made: the two parts must be numbers, so a
    /// separator that begins a Character (`:` with a combining mark) leaves a part that is no
    /// number, as splitting by Characters would have left one.
    func splitOnce(at separator: UInt8) -> (Substring, Substring)? {
        let bytes = utf8
        guard let at = bytes.firstIndex(of: separator) else { return nil }
        let after = bytes.index(after: at)
        guard !bytes[after...].contains(separator) else { return nil }
        return (self[..<at], self[after...])
    }
}

/// The quirks that apply to one device, each with where it came from. Empty when no section
/// matched or there are no quirks files: then every value is nil and gestured uses what it
/// uses without a quirk (as libinput does).
public struct DeviceQuirks: Sendable, Equatable {
    /// One property and the section and line that set it.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        /// The key as the file writes it: `AttrPalmPressureThreshold`.
        public var key: String
        /// The value as the line writes it (`254`): typed only when read by a ``QuirkKey``.
        public var value: String
        /// The name of the section that set it, without brackets.
        public var section: String
        /// The path of the file it was read from.
        public var file: String
        /// The line that set it, counted from 1.
        public var line: Int

        /// `AttrPalmPressureThreshold=254 ([Cypress Touchpads] 30-vendor-cypress.quirks:10)`.
        public var description: String {
            let base = file.split(separator: "/").last.map(String.init) ?? file
            return "\(key)=\(value) ([\(section)] \(base):\(line))"
        }
    }

    /// The winning entry of each key, in the order keys were first set.
    public private(set) var entries: [Entry] = []

    /// No quirks: every value nil, as for a device no section matches.
    public init() {}

    /// Sets a property: a later one of the same key replaces the earlier.
    mutating func set(_ entry: Entry) {
        if let i = entries.firstIndex(where: { $0.key == entry.key }) {
            entries[i] = entry
        } else {
            entries.append(entry)
        }
    }

    /// The winning entry of the key written `key` (`AttrKeyboardIntegration`), declared or
    /// not; nil where no matching section sets it.
    public subscript(key: String) -> Entry? { entries.first { $0.key == key } }

    /// The winning value of a declared key, typed: `quirks[.palmPressureThreshold]`. The entry
    /// keeps the value as its line wrote it, and it is parsed here, when asked for; the parser
    /// checked it at load, so a value that is there parses. Nil where no matching section sets
    /// the key.
    public subscript<Value>(key: QuirkKey<Value>) -> Value? {
        self[key.name].flatMap { key.parse($0.value) }
    }

    /// ``QuirkKey/palmPressureThreshold``, in `ABS_MT_PRESSURE` units: a contact pressing
    /// harder than this is a palm (clamped to `Int32`, the axis's type).
    public var palmPressureThreshold: Int32? { self[.palmPressureThreshold].map { Int32(clamping: $0) } }
    /// ``QuirkKey/palmSizeThreshold``, in `ABS_MT_TOUCH_MAJOR` units: a contact whose touch
    /// major is larger than this is a palm (clamped to `Int32`).
    public var palmSizeThreshold: Int32? { self[.palmSizeThreshold].map { Int32(clamping: $0) } }
    /// ``QuirkKey/thumbPressureThreshold``, in `ABS_MT_PRESSURE` units: a contact pressing
    /// harder than this is a thumb (clamped to `Int32`).
    public var thumbPressureThreshold: Int32? { self[.thumbPressureThreshold].map { Int32(clamping: $0) } }
    /// ``QuirkKey/thumbSizeThreshold``, in `ABS_MT_TOUCH_MAJOR` units: a contact whose touch
    /// major is larger than this is a thumb (clamped to `Int32`).
    public var thumbSizeThreshold: Int32? { self[.thumbSizeThreshold].map { Int32(clamping: $0) } }
    /// ``QuirkKey/pressureRange``, in `ABS_MT_PRESSURE` units: a touch begins pressing more
    /// than its high and ends pressing less than its low.
    public var pressureRange: QuirkRange? { self[.pressureRange] }
    /// ``QuirkKey/touchSizeRange``, in `ABS_MT_TOUCH_MAJOR` units: the same by touch major.
    public var touchSizeRange: QuirkRange? { self[.touchSizeRange] }
    /// ``QuirkKey/pressurePad``: `ModelPressurePad=1`, the pad measures force (a haptic pad)
    /// and its pressure is no palm's. False where no section says so.
    public var isPressurePad: Bool { self[.pressurePad] ?? false }
    /// ``QuirkKey/sizeHint``: the pad's size in millimetres, for a device that reports no
    /// resolution; nil where a side is 0.
    public var sizeHint: SurfaceSize? {
        self[.sizeHint].flatMap { $0.width > 0 && $0.height > 0 ? SurfaceSize(width: Double($0.width), height: Double($0.height)) : nil }
    }
    /// ``QuirkKey/resolutionHint``: units per millimetre on x and y, for a device that reports none.
    public var resolutionHint: QuirkDimensions? { self[.resolutionHint] }
}

extension DeviceDescription {
    /// The description with `AttrResolutionHint` put into the position axes (`ABS_X`/`ABS_Y`,
    /// `ABS_MT_POSITION_X`/`_Y`) that report no resolution; the kernel's word stands where it
    /// has one. Unchanged without a hint.
    public func applyingResolutionHint(_ hint: QuirkDimensions?) -> DeviceDescription {
        guard let hint, hint.width > 0, hint.height > 0 else { return self }
        var d = self
        for (code, value) in [(AbsCode.x, hint.width), (AbsCode.mtPositionX, hint.width),
                              (AbsCode.y, hint.height), (AbsCode.mtPositionY, hint.height)] {
            guard var axis = d.absInfo[code], axis.resolution <= 0 else { continue }
            axis.resolution = Int32(clamping: value)
            d.absInfo[code] = axis
        }
        return d
    }
}
