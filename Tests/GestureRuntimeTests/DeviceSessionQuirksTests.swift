import DeviceQuirks
import GestureRuntime
import Gestures
import Testing
import TouchEvents

/// What libinput's quirks change in a device's session: its pressure thresholds and its size.
@Suite struct DeviceSessionQuirksTests {
    /// A two-slot clickpad reporting pressure 0–255 per contact (`resolution`: the pressure
    /// axis's, a force pad's is not 0), 1600 × 900 units at `positionResolution` units/mm.
    func pad(pressureResolution: Int32 = 0, positionResolution: Int32 = 16) -> DeviceDescription {
        DeviceDescription(
            name: "CyPS/2 Cypress Trackpad", id: InputID(bustype: 0x11, vendor: 2, product: 0x11, version: 1),
            codes: [EventType.key: [KeyCode.toolFinger, KeyCode.touch, KeyCode.left]],
            absInfo: [AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 1),
                      AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1600, resolution: positionResolution),
                      AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 900, resolution: positionResolution == 0 ? 0 : 15),
                      AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255, resolution: pressureResolution)],
            properties: [InputProperty.pointer, InputProperty.buttonpad])
    }

    func quirks(_ lines: String) -> DeviceQuirks {
        QuirksDatabase(text: "[Test]\nMatchName=CyPS/2 Cypress Trackpad\n" + lines, file: "test.quirks")
            .quirks(for: QuirksDevice(description: pad()))
    }

    func policy(_ quirks: DeviceQuirks, device: DeviceDescription? = nil) throws -> TouchPolicy {
        try DeviceSession(device: device ?? pad(), quirks: quirks).pipeline.policy
    }

    /// Without a quirk: half the pressure axis is a palm, and a contact pressing nothing hovers.
    @Test func withoutAQuirkTheDefaults() throws {
        let p = try policy(DeviceQuirks())
        #expect(p.palmPressure == 128)
        #expect(p.hoverPressure == 0)
        #expect(p.pressureTellsPalms)
    }

    /// `AttrPalmPressureThreshold=254` of 0–255 is libinput's way to say pressure tells no palm
    /// (its Cypress PS/2 quirk): no palm by pressure, nothing vanishes. `AttrPressureRange=10:8`:
    /// a touch begins at 10.
    @Test func aThresholdAtTheTopOfTheAxisTurnsPalmsByPressureOff() throws {
        let p = try policy(quirks("AttrPressureRange=10:8\nAttrPalmPressureThreshold=254\n"))
        #expect(p.palmPressure == nil)
        #expect(!p.pressureTellsPalms)
        #expect(p.hoverPressure == 9)
    }

    /// Another threshold is the palm pressure: a contact pressing more is a palm.
    @Test func aThresholdIsThePalmPressure() throws {
        let p = try policy(quirks("AttrPalmPressureThreshold=100\n"))
        #expect(p.palmPressure == 101)
        #expect(p.pressureTellsPalms)
        #expect(try policy(quirks("AttrPressureRange=0:0\n")).hoverPressure == nil)
    }

    /// A force pad's pressure is no palm's: `ModelPressurePad`, or a pressure axis with a resolution.
    @Test func aForcePadTellsNoPalmByPressure() throws {
        let model = try policy(quirks("ModelPressurePad=1\n"))
        #expect(model.palmPressure == nil && !model.pressureTellsPalms)
        let force = try policy(DeviceQuirks(), device: pad(pressureResolution: 2))
        #expect(force.palmPressure == nil && !force.pressureTellsPalms)
    }

    /// A pad that reports no resolution takes its size from `AttrSizeHint`, or its resolution
    /// from `AttrResolutionHint`; one that reports one keeps it.
    @Test func sizeAndResolutionHintsFillWhatTheKernelLeftOut() throws {
        let bare = pad(positionResolution: 0)
        let sized = try DeviceSession(device: bare, quirks: quirks("AttrSizeHint=100x60\n"))
        #expect(sized.surface.size == SurfaceSize(width: 100, height: 60))
        #expect(sized.surface.sizeSource == .given)
        let resolved = try DeviceSession(device: bare, quirks: quirks("AttrResolutionHint=20x10\n"))
        #expect(resolved.surface.size == SurfaceSize(width: 80, height: 90))
        #expect(resolved.surface.sizeSource == .resolution)
        #expect(resolved.description.absInfo[AbsCode.mtPositionX]?.resolution == 20)
        let reported = try DeviceSession(device: pad(), quirks: quirks("AttrSizeHint=10x10\nAttrResolutionHint=20x10\n"))
        #expect(reported.surface.size == SurfaceSize(width: 100, height: 60))
        #expect(try DeviceSession(device: bare).surface.sizeSource == .assumed)
    }
}
