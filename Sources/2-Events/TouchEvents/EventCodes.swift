// Constants from linux/input-event-codes.h and linux/input.h that the decoder and the
// device description need. Names follow the kernel's, without the prefix.

/// Event types (`EV_*`).
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    public static let sw: UInt16 = 0x05
    public static let led: UInt16 = 0x11
    public static let snd: UInt16 = 0x12
    public static let rep: UInt16 = 0x14
    public static let ff: UInt16 = 0x15
    public static let pwr: UInt16 = 0x16
    public static let ffStatus: UInt16 = 0x17
    /// `EV_MAX`: the largest type number the kernel can send.
    public static let max: UInt16 = 0x1f

    /// True for the types the kernel defines. Anything else in a recording is corrupt.
    /// Asked of every event a recording holds: a bit test, not a hashed lookup (a dictionary
    /// lookup was 6.2 M instructions of a 43,466-event replay, issue 47).
    public static func isKnown(_ type: UInt16) -> Bool {
        type <= max && knownTypes & (1 << UInt32(type)) != 0
    }

    /// One bit per type the kernel defines (bit n: type n), from the generated table.
    static let knownTypes: UInt32 = EventCodeNames.typesTable.reduce(0) { $0 | 1 << UInt32($1.0) }
}

/// `SYN_*` codes.
public enum SynCode {
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

/// The `ABS_*` codes a touch decoder reads.
public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let pressure: UInt16 = 0x18
    public static let toolWidth: UInt16 = 0x1c
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtTouchMinor: UInt16 = 0x31
    public static let mtWidthMajor: UInt16 = 0x32
    public static let mtWidthMinor: UInt16 = 0x33
    public static let mtOrientation: UInt16 = 0x34
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtBlobID: UInt16 = 0x38
    public static let mtTrackingID: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a
    public static let mtDistance: UInt16 = 0x3b
    /// `ABS_MAX`.
    public static let max: UInt16 = 0x3f
}

/// The `BTN_*` codes a touch decoder reads.
public enum KeyCode {
    public static let left: UInt16 = 0x110
    public static let right: UInt16 = 0x111
    public static let middle: UInt16 = 0x112
    public static let toolPen: UInt16 = 0x140
    public static let toolFinger: UInt16 = 0x145
    public static let toolQuintTap: UInt16 = 0x148
    public static let touch: UInt16 = 0x14a
    public static let toolDoubleTap: UInt16 = 0x14d
    public static let toolTripleTap: UInt16 = 0x14e
    public static let toolQuadTap: UInt16 = 0x14f
}

/// Device properties (`INPUT_PROP_*`).
public enum InputProperty {
    public static let pointer: UInt16 = 0x00
    public static let direct: UInt16 = 0x01
    public static let buttonpad: UInt16 = 0x02
    public static let semiMT: UInt16 = 0x03
    public static let topButtonpad: UInt16 = 0x04
    public static let pointingStick: UInt16 = 0x05
    public static let accelerometer: UInt16 = 0x06
    /// `INPUT_PROP_MAX`.
    public static let max: UInt16 = 0x1f
}

/// `ABS_MT_TOOL_TYPE` values (`MT_TOOL_*`).
public enum MTToolType {
    public static let finger: Int32 = 0
    public static let pen: Int32 = 1
    public static let palm: Int32 = 2
}

/// `REL_*` codes: what a virtual pointer sends.
public enum RelCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let hWheel: UInt16 = 0x06
    public static let wheel: UInt16 = 0x08
    public static let wheelHighResolution: UInt16 = 0x0b
    public static let hWheelHighResolution: UInt16 = 0x0c
}
