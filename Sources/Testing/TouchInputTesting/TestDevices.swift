import TouchEvents

extension DeviceDescription {
    /// A 10-slot multitouch touchscreen, 200 x 100 mm at 10 units/mm ("Test Panel"): the fake
    /// device of the service's and the runtime's tests.
    public static let testTouchscreen = DeviceDescription(
        name: "Test Panel", id: InputID(bustype: 3, vendor: 1, product: 2, version: 0),
        codes: [EventType.syn: [0, 1, 2, 3], EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ],
        properties: [InputProperty.direct])
}

extension DeviceDescription {
    /// The test touchscreen's twin as a touchpad ("Test Touchpad": a pointer device with
    /// BTN_TOOL_FINGER and no INPUT_PROP_DIRECT), 200 x 100 mm.
    public static let testTouchpad: DeviceDescription = {
        var d = DeviceDescription.testTouchscreen
        d.name = "Test Touchpad"
        d.codes[EventType.key] = [KeyCode.touch, KeyCode.toolFinger, KeyCode.left]
        d.properties = [InputProperty.pointer, InputProperty.buttonpad]
        return d
    }()
}
