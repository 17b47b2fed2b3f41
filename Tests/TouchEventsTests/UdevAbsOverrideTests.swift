import Testing
import TouchEvents

/// udev's hwdb corrections of a device's axes (EVDEV_ABS_XX): a touchpad that reports no
/// resolution gets its size from them, as libinput's does.
@Suite struct UdevAbsOverrideTests {
    @Test func fieldsParseAndEmptyOnesAreLeftOut() {
        #expect(UdevAbsOverride(parsing: "1:2000:20:0:0") == {
            var o = UdevAbsOverride(parsing: "")!
            (o.minimum, o.maximum, o.resolution, o.fuzz, o.flat) = (1, 2000, 20, 0, 0)
            return o
        }())
        let resolutionOnly = UdevAbsOverride(parsing: "::12")
        #expect(resolutionOnly?.resolution == 12 && resolutionOnly?.minimum == nil && resolutionOnly?.maximum == nil)
        #expect(UdevAbsOverride(parsing: "1:x:12") == nil)
        #expect(UdevAbsOverride(parsing: "1:2:3:4:5:6") == nil)
        #expect(UdevAbsOverride.axisCode(property: "EVDEV_ABS_35") == 0x35)
        #expect(UdevAbsOverride.axisCode(property: "EVDEV_ABS_0Z") == nil)
        #expect(UdevAbsOverride.axisCode(property: "ID_INPUT_TOUCHPAD") == nil)
    }

    @Test func aPadWithoutResolutionGetsItsSizeFromTheHwdb() {
        // 2000 x 1000 units, no resolution: assumed 69 x 50 mm.
        var pad = TestDevices.touchscreen()
        pad.name = "Pad without resolution"
        pad.codes[EventType.key] = [KeyCode.touch, KeyCode.toolFinger]
        pad.properties = [InputProperty.pointer]
        for code in [AbsCode.x, AbsCode.mtPositionX] { pad.absInfo[code] = AbsInfo(minimum: 0, maximum: 2000) }
        for code in [AbsCode.y, AbsCode.mtPositionY] { pad.absInfo[code] = AbsInfo(minimum: 0, maximum: 1000) }
        #expect(TouchSurface(device: pad)?.sizeSource == .assumed)
        #expect(TouchSurface(device: pad)?.size == SurfaceSize(width: 69, height: 50))
        let fixed = pad.applyingUdevAbsOverrides([
            "EVDEV_ABS_00": "::20", "EVDEV_ABS_01": "::20", "EVDEV_ABS_35": "::20", "EVDEV_ABS_36": "::20",
            "EVDEV_ABS_2F": "::5",  // the slot axis: filled in too, and harmless
            "EVDEV_ABS_28": "::5",  // an axis the device lacks: left alone
            "ID_INPUT_TOUCHPAD": "1",
        ])
        let surface = TouchSurface(device: fixed)
        #expect(surface?.sizeSource == .resolution)
        #expect(surface?.size == SurfaceSize(width: 100, height: 50))
        // The kernel's resolution stands where it reports one; unreadable values change nothing.
        #expect(fixed.absInfo[0x28] == nil)
        // The kernel's resolution stands where it reports one; unreadable values change nothing.
        let screen = TestDevices.touchscreen()
        let reported = screen.applyingUdevAbsOverrides(["EVDEV_ABS_35": "::40", "EVDEV_ABS_36": "a:b"])
        #expect(reported.absInfo == screen.absInfo)
    }
}
