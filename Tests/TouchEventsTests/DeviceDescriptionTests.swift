import Testing
import TouchEvents

@Suite("Device description")
struct DeviceDescriptionTests {
    @Test func kindsProtocolsAndSlots() {
        #expect(TestDevices.touchscreen(slots: 10).kind == .touchscreen)
        #expect(TestDevices.touchscreen(slots: 10).touchProtocol == .slots(10))
        #expect(TestDevices.touchscreen(slots: 10).slotCount == 10)
        #expect(TestDevices.touchpad.kind == .touchpad)
        #expect(TestDevices.anonymous.touchProtocol == .anonymous)
        #expect(TestDevices.singleTouch.touchProtocol == .singleTouch)
        #expect(TestDevices.singleTouch.isSingleTouch)
        #expect(TestDevices.singleTouch.kind == .touchscreen)
    }

    @Test func touchpadWithoutPropertiesIsKnownByBTNToolFinger() {
        var d = TestDevices.touchpad
        d.properties = []
        #expect(d.kind == .touchpad)
    }

    @Test func oldTouchscreenWithoutPropertiesIsKnownByBTNTouch() {
        // Kernels before 2.6.38 reported no properties (the N-Trig recording in fixtures/).
        var d = TestDevices.anonymous
        d.properties = []
        #expect(d.kind == .touchscreen)
    }

    @Test func keyboardsAndPensAreNotTouchDevices() {
        let keyboard = DeviceDescription(name: "kbd", id: InputID(bustype: 3, vendor: 0, product: 0, version: 0),
                                         codes: [EventType.key: [30, 31]], absInfo: [:], properties: [])
        #expect(keyboard.kind == .other)
        #expect(keyboard.touchProtocol == .none)
        let pen = DeviceDescription(name: "pen", id: InputID(bustype: 3, vendor: 0, product: 0, version: 0),
                                    codes: [EventType.key: [KeyCode.toolPen, 0x14b]],
                                    absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 100), AbsCode.y: AbsInfo(minimum: 0, maximum: 100)],
                                    properties: [InputProperty.direct])
        #expect(pen.kind == .other)
    }

    @Test func sizeFromResolutionGivenOrAssumed() throws {
        #expect(TestDevices.touchscreen().reportedSize == SurfaceSize(width: 100, height: 50))
        #expect(TestDevices.singleTouch.reportedSize == nil)

        let fromResolution = try #require(TouchSurface(device: TestDevices.touchscreen()))
        #expect(fromResolution.sizeSource == .resolution)
        #expect(fromResolution.millimetresX(250) == 25)

        let given = try #require(TouchSurface(device: TestDevices.touchscreen(), size: SurfaceSize(width: 200, height: 100)))
        #expect(given.sizeSource == .given)
        #expect(given.size == SurfaceSize(width: 200, height: 100))

        let assumedScreen = try #require(TouchSurface(device: TestDevices.singleTouch))
        #expect(assumedScreen.sizeSource == .assumed)
        #expect(abs(assumedScreen.size.width - 4000 / (96 / 25.4)) < 1e-9)

        var pad = TestDevices.touchpad
        pad.absInfo[AbsCode.mtPositionX]?.resolution = 0
        let assumedPad = try #require(TouchSurface(device: pad))
        #expect(assumedPad.sizeSource == .assumed)
        #expect(assumedPad.size == TouchSurface.assumedTouchpadSize)
    }

    @Test(arguments: [("154x86", SurfaceSize(width: 154, height: 86)), ("154.5X86.25", SurfaceSize(width: 154.5, height: 86.25))])
    func sizeParsing(text: String, size: SurfaceSize) {
        #expect(SurfaceSize(parsing: text) == size)
    }

    @Test(arguments: ["", "154", "0x86", "-1x5", "axb", "1x2x3", "infx3"])
    func badSizesAreRefused(text: String) {
        #expect(SurfaceSize(parsing: text) == nil)
    }

    @Test func eventCodeNames() {
        #expect(EventCodeNames.typeName(EventType.abs) == "EV_ABS")
        #expect(EventCodeNames.codeName(type: EventType.abs, code: AbsCode.mtSlot) == "ABS_MT_SLOT")
        #expect(EventCodeNames.codeName(type: EventType.key, code: KeyCode.toolTripleTap) == "BTN_TOOL_TRIPLETAP")
        #expect(EventCodeNames.codeName(type: EventType.key, code: 0x100) == "BTN_0")
        #expect(EventCodeNames.codeName(type: EventType.syn, code: SynCode.dropped) == "SYN_DROPPED")
        #expect(EventCodeNames.codeName(type: EventType.abs, code: 0x3e) == "0x3e")
        #expect(EventCodeNames.propertyName(InputProperty.direct) == "INPUT_PROP_DIRECT")
        #expect(EventType.isKnown(0x14) && !EventType.isKnown(0x1e))
    }

    /// The bit test knows exactly the types the kernel's table names, for every 16-bit type.
    @Test func aTypeIsKnownExactlyWhenTheKernelNamesIt() {
        let disagreeing = (0...UInt16.max).filter { EventType.isKnown($0) == EventCodeNames.typeName($0).hasPrefix("EV_0x") }
        #expect(disagreeing.isEmpty)
    }
}
