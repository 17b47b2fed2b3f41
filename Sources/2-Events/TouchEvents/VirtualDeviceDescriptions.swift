extension DeviceDescription {
    /// gestured's virtual keyboard: every key of the kernel's (no buttons, no autorepeat — a
    /// held key is one press and one release), on the virtual bus.
    public static let virtualKeyboard = DeviceDescription(
        name: "gestured virtual keyboard",
        id: InputID(bustype: 0x06, vendor: 0x0000, product: 0x0001, version: 1),
        codes: [EventType.syn: [SynCode.report], EventType.key: Set(KeyNames.keyboardCodes)],
        absInfo: [:], properties: [])

    /// gestured's virtual pointer: relative motion, the wheel in both directions (classic and
    /// high-resolution, 120 units a click) and the left, right and middle buttons.
    public static let virtualPointer = DeviceDescription(
        name: "gestured virtual pointer",
        id: InputID(bustype: 0x06, vendor: 0x0000, product: 0x0002, version: 1),
        codes: [
            EventType.syn: [SynCode.report],
            EventType.key: [KeyCode.left, KeyCode.right, KeyCode.middle],
            EventType.rel: [RelCode.x, RelCode.y, RelCode.wheel, RelCode.hWheel, RelCode.wheelHighResolution, RelCode.hWheelHighResolution],
        ],
        absInfo: [:], properties: [InputProperty.pointer])

    /// gestured's virtual touchpad (the `touchpad` action): what libinput needs to take a device
    /// for a touchpad and report its gestures — no `INPUT_PROP_DIRECT` and no
    /// `INPUT_PROP_BUTTONPAD` (two physical buttons), `BTN_TOOL_FINGER` to `BTN_TOOL_QUADTAP`,
    /// two slots (three or four fingers are two slots and the tool's count: libinput then always
    /// reports a swipe), and a real resolution (40 units a mm over 100 × 70 mm: without one
    /// libinput assumes 69 × 50 mm). On the virtual bus: the package's udev rule marks it
    /// external, so that disable-while-typing and the edge palm zones of a laptop's own
    /// touchpad do not apply to it.
    public static let virtualTouchpad = DeviceDescription(
        name: "gestured virtual touchpad",
        id: InputID(bustype: 0x06, vendor: 0x0000, product: 0x0003, version: 1),
        codes: [
            EventType.syn: [SynCode.report],
            EventType.key: [KeyCode.left, KeyCode.right, KeyCode.touch, KeyCode.toolFinger, KeyCode.toolDoubleTap,
                            KeyCode.toolTripleTap, KeyCode.toolQuadTap],
            EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY],
        ],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4000, resolution: 40),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 2800, resolution: 40),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 1),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4000, resolution: 40),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2800, resolution: 40),
        ],
        properties: [InputProperty.pointer])
}
