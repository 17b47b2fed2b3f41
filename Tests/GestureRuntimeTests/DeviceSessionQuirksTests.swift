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
        #expect(try policy(quirks("AttrPressureRange=none\n")).hoverPressure == nil)
        // A range outside the axis is no range of this device's: the default stands.
        #expect(try policy(quirks("AttrPressureRange=300:280\n")).hoverPressure == 0)
        // 0: no palms by pressure (libinput's reading); a threshold past Int32 does not trap.
        let zero = try policy(quirks("AttrPalmPressureThreshold=0\n"))
        #expect(zero.palmPressure == nil && !zero.pressureTellsPalms)
        #expect(try policy(quirks("AttrPalmPressureThreshold=4294967295\n")).palmPressure == nil)
    }

    /// A force pad's pressure tells neither palms nor touching: `ModelPressurePad`, or a
    /// pressure axis with a resolution.
    @Test func aForcePadTellsNoPalmByPressure() throws {
        let model = try policy(quirks("ModelPressurePad=1\n"))
        #expect(model.palmPressure == nil && !model.pressureTellsPalms && model.hoverPressure == nil)
        let force = try policy(DeviceQuirks(), device: pad(pressureResolution: 2))
        #expect(force.palmPressure == nil && !force.pressureTellsPalms && force.hoverPressure == nil)
    }

    /// `AttrPalmSizeThreshold`: on a pad that reports each contact's touch major, a contact
    /// touching with a larger area is a palm, left out (libinput judges palms by size only with
    /// the quirk); without the quirk, or without the axis, size says nothing.
    @Test func aPalmSizeThresholdMakesLargeContactsPalms() throws {
        var withMajor = pad()
        withMajor.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 255)
        #expect(try policy(quirks("AttrPalmSizeThreshold=20\n"), device: withMajor).palmSize == 20)
        #expect(try policy(quirks("AttrPalmSizeThreshold=20\n")).palmSize == nil)
        #expect(try policy(DeviceQuirks(), device: withMajor).palmSize == nil)

        /// Taps of one finger, each 60 ms, touching with `majors` in turn, 700 ms apart (a palm
        /// landing again within 500 ms where one lifted is that palm again).
        func taps(_ majors: [Int32], quirks: DeviceQuirks) throws -> [String] {
            let session = try DeviceSession(device: withMajor, layout: Layout(root: Region(id: "pad", frame: Rect(x: 0, y: 0, width: 100, height: 60))),
                                            quirks: quirks)
            session.layout.root.add(TapRecognizer())
            var log: [String] = []
            session.pipeline.observer = { g in log.append("\(g.kind) \(g.state)") }
            for (n, major) in majors.enumerated() {
                let start = Duration.milliseconds(700 * n)
                func at(_ ms: Double) -> Instant { .zero + start + .milliseconds(ms) }
                for (type, code, value) in [(EventType.abs, AbsCode.mtSlot, Int32(0)), (EventType.abs, AbsCode.mtTrackingID, Int32(n + 1)),
                                            (EventType.abs, AbsCode.mtPositionX, 800), (EventType.abs, AbsCode.mtPositionY, 400),
                                            (EventType.abs, AbsCode.mtPressure, 40), (EventType.abs, AbsCode.mtTouchMajor, major),
                                            (EventType.key, KeyCode.touch, 1), (EventType.key, KeyCode.toolFinger, 1),
                                            (EventType.syn, SynCode.report, 0)] {
                    try session.process(InputEvent(time: at(0), type: type, code: code, value: value))
                }
                for (type, code, value) in [(EventType.abs, AbsCode.mtPressure, Int32(30)), (EventType.syn, SynCode.report, 0)] {
                    try session.process(InputEvent(time: at(30), type: type, code: code, value: value))
                }
                for (type, code, value) in [(EventType.abs, AbsCode.mtTrackingID, Int32(-1)), (EventType.key, KeyCode.touch, 0),
                                            (EventType.key, KeyCode.toolFinger, 0), (EventType.syn, SynCode.report, 0)] {
                    try session.process(InputEvent(time: at(60), type: type, code: code, value: value))
                }
            }
            session.finish()
            return log
        }
        #expect(try taps([10, 30, 10], quirks: DeviceQuirks()) == ["tap recognized", "tap recognized", "tap recognized"])
        #expect(try taps([10, 30, 10], quirks: quirks("AttrPalmSizeThreshold=20\n")) == ["tap recognized", "tap recognized"])
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

    /// The pad with a touch major and minor axis, 0–2000.
    func sizedPad() -> DeviceDescription {
        var d = pad()
        d.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 2000)
        d.absInfo[AbsCode.mtTouchMinor] = AbsInfo(minimum: 0, maximum: 2000)
        return d
    }

    /// One touch of a one-finger tap (x 800 of 1600): where it lands (`y`, of 900 at 15
    /// units/mm: the thumb area begins at 792, its lowest 8% at 828), how it presses and how
    /// large it is (nil: the report leaves the axis out), its touch major 30 ms in, and when it
    /// lifts (60 ms; a thumb alone lifting within 180 ms taps whatever the quirks say, as
    /// libinput's jailed touch does, so the thumb tests hold their taps 250 ms).
    struct Tap {
        var y: Int32 = 400
        var lift: Double = 60
        var pressure: Int32 = 40
        var major: Int32? = nil
        var minor: Int32? = nil
        var laterMajor: Int32? = nil
    }

    /// The gestures of `taps`, 700 ms apart, on `device` with `quirks`, over a tap recognizer
    /// on the whole pad.
    func tapLog(_ taps: [Tap], device: DeviceDescription, quirks: DeviceQuirks) throws -> [String] {
        let session = try DeviceSession(device: device, layout: Layout(root: Region(id: "pad", frame: Rect(x: 0, y: 0, width: 100, height: 60))),
                                        quirks: quirks)
        session.layout.root.add(TapRecognizer())
        var log: [String] = []
        session.pipeline.observer = { g in log.append("\(g.kind) \(g.state) at \(g.time)") }
        for (n, tap) in taps.enumerated() {
            func send(_ ms: Double, _ events: [(UInt16, UInt16, Int32?)]) throws {
                for (type, code, value) in events + [(EventType.syn, SynCode.report, 0)] {
                    guard let value else { continue }
                    try session.process(InputEvent(time: .zero + .milliseconds(700 * n) + .milliseconds(ms), type: type, code: code, value: value))
                }
            }
            try send(0, [(EventType.abs, AbsCode.mtSlot, 0), (EventType.abs, AbsCode.mtTrackingID, Int32(n + 1)),
                         (EventType.abs, AbsCode.mtPositionX, 800), (EventType.abs, AbsCode.mtPositionY, tap.y),
                         (EventType.abs, AbsCode.mtPressure, tap.pressure), (EventType.abs, AbsCode.mtTouchMajor, tap.major),
                         (EventType.abs, AbsCode.mtTouchMinor, tap.minor),
                         (EventType.key, KeyCode.touch, 1), (EventType.key, KeyCode.toolFinger, 1)])
            try send(30, [(EventType.abs, AbsCode.mtPressure, tap.pressure - 10), (EventType.abs, AbsCode.mtTouchMajor, tap.laterMajor)])
            try send(tap.lift, [(EventType.abs, AbsCode.mtTrackingID, -1), (EventType.key, KeyCode.touch, 0), (EventType.key, KeyCode.toolFinger, 0)])
        }
        session.finish()
        return log
    }

    /// The thumb and touch size quirks go into the policy where the device reports what they
    /// judge: thumb size and touch size need a touch major, thumb pressure a pressure per contact.
    @Test func thumbAndTouchSizeQuirksNeedTheAxesTheyJudge() throws {
        let q = quirks("AttrTouchSizeRange=20:10\nAttrThumbSizeThreshold=700\nAttrThumbPressureThreshold=45\n")
        let sized = try policy(q, device: sizedPad())
        #expect(sized.touchSizeRange == TouchSizeRange(begin: 20, end: 10))
        #expect(sized.thumbSize == 700 && sized.thumbPressure == 45)
        let bare = try policy(q)
        #expect(bare.touchSizeRange == nil && bare.thumbSize == nil && bare.thumbPressure == 45)
        #expect(try policy(quirks("AttrTouchSizeRange=none\n"), device: sizedPad()).touchSizeRange == nil)
        let none = try policy(DeviceQuirks(), device: sizedPad())
        #expect(none.touchSizeRange == nil && none.thumbSize == nil && none.thumbPressure == nil)
    }

    /// `AttrThumbPressureThreshold`: where the pad tells a thumb by pressure, a contact landing in
    /// the thumb area's upper part is a finger unless it presses harder; in the area's lowest 8%
    /// resting there is enough, as it is everywhere in the area without the quirk.
    @Test func aThumbPressureThresholdLetsLightFingersTapInTheThumbArea() throws {
        let taps = [Tap(y: 400, lift: 250), Tap(y: 810, lift: 250, pressure: 40), Tap(y: 810, lift: 250, pressure: 60),
                    Tap(y: 870, lift: 250, pressure: 40)]
        #expect(try tapLog(taps, device: pad(), quirks: DeviceQuirks()) == ["tap recognized at 0.250000s"])
        #expect(try tapLog(taps, device: pad(), quirks: quirks("AttrThumbPressureThreshold=45\n"))
                    == ["tap recognized at 0.250000s", "tap recognized at 0.950000s"])
        // Quick, each is a tap, thumb or not: alone, it lifted within 180 ms.
        let quick = taps.map { tap in var quick = tap; quick.lift = 60; return quick }
        #expect(try tapLog(quick, device: pad(), quirks: quirks("AttrThumbPressureThreshold=45\n")).count == 4)
    }

    /// `AttrThumbSizeThreshold`: in the thumb area's upper part, a contact longer than it and
    /// narrower than 0.6 of it is a thumb; one as long but wide is no thumb by its shape.
    @Test func aThumbSizeThresholdTellsAThumbByItsShape() throws {
        let taps = [Tap(y: 810, lift: 250, major: 800, minor: 300), Tap(y: 810, lift: 250, major: 800, minor: 600),
                    Tap(y: 810, lift: 250, major: 600, minor: 300)]
        #expect(try tapLog(taps, device: sizedPad(), quirks: DeviceQuirks()) == [])
        #expect(try tapLog(taps, device: sizedPad(), quirks: quirks("AttrThumbSizeThreshold=700\n"))
                    == ["tap recognized at 0.950000s", "tap recognized at 1.650000s"])
    }

    /// `AttrTouchSizeRange=20:10`: a contact touches once its touch major passes 20 with its
    /// minor past 10 (or the other way round; one with no minor is as wide as long); smaller, it
    /// hovers and taps nothing; growing, it lands then.
    @Test func aTouchSizeRangeMakesSmallContactsHover() throws {
        let taps = [Tap(major: 15, minor: 15), Tap(major: 25, minor: 15), Tap(major: 25, minor: 5), Tap(major: 15, minor: 15, laterMajor: 25)]
        #expect(try tapLog(taps, device: sizedPad(), quirks: DeviceQuirks()).count == 4)
        #expect(try tapLog(taps, device: sizedPad(), quirks: quirks("AttrTouchSizeRange=20:10\n"))
                    == ["tap recognized at 0.760000s", "tap recognized at 2.160000s"])
        var majorOnly = pad()
        majorOnly.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 2000)
        #expect(try tapLog([Tap(major: 25), Tap(major: 15)], device: majorOnly, quirks: quirks("AttrTouchSizeRange=20:10\n"))
                    == ["tap recognized at 0.060000s"])
    }
}
