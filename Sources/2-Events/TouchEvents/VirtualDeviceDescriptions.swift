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
}
