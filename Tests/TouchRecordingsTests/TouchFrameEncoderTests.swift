import Testing
import TouchEvents
import TouchRecordings

/// Frames written as kernel events decode back to the same frames: what `gestured synth` and
/// the touch bench rely on.
@Suite struct TouchFrameEncoderTests {
    func contact(_ id: Int, slot: Int, _ phase: TouchPhase, x: Double, y: Double) -> TouchContact {
        TouchContact(id: id, slot: slot, phase: phase, deviceX: Int32(x * 10), deviceY: Int32(y * 10), x: x, y: y)
    }

    /// Past five fingers no `BTN_TOOL_*` is down (the kernel's `input_mt_report_finger_count`);
    /// tracking ids wrap at 65535; the single-touch axes follow the lowest slot down.
    @Test func fingerCountsTrackingIDsAndTheSingleTouchAxes() {
        let device = DeviceDescription.synthetic(kind: .touchpad, size: SurfaceSize(width: 100, height: 60))
        var encoder = TouchFrameEncoder(device: device)
        func keys(_ events: [InputEvent]) -> [String] {
            events.filter { $0.type == EventType.key || ($0.type == EventType.abs && ($0.code == AbsCode.x || $0.code == AbsCode.y)) }
                .map { "\($0.type == EventType.key ? "key" : "abs") \($0.code) \($0.value)" }
        }
        let five = (0..<5).map { contact($0 + 1, slot: $0, .began, x: 10 + Double($0), y: 20) }
        #expect(keys(encoder.events(for: TouchFrame(time: .zero, contacts: five))) == [
            "abs \(AbsCode.x) 100", "abs \(AbsCode.y) 200", "key \(KeyCode.touch) 1", "key \(KeyCode.toolQuintTap) 1",
        ])
        let six = five.map { var c = $0; c.phase = .stationary; return c } + [contact(6, slot: 5, .began, x: 30, y: 20)]
        #expect(keys(encoder.events(for: TouchFrame(time: .zero + .milliseconds(10), contacts: six))) == ["key \(KeyCode.toolQuintTap) 0"])
        var wrapping = TouchFrameEncoder(device: device)
        var ids: [Int32] = []
        for n in 0..<65_540 {
            let events = wrapping.events(for: TouchFrame(time: .zero + .milliseconds(Int64(n)), contacts: [contact(n, slot: 0, .ended, x: 1, y: 1)]))
            ids += events.filter { $0.code == AbsCode.mtTrackingID && $0.value >= 0 }.map(\.value)
        }
        #expect(ids.max() == 65_535)
        #expect(ids.suffix(6) == [65_535, 0, 1, 2, 3, 4])  // from 1: 65,535 ids, then 0 on
    }

    @Test(arguments: [DeviceKind.touchscreen, .touchpad])
    func framesRoundTripThroughTheDecoder(kind: DeviceKind) throws {
        let device = DeviceDescription.synthetic(kind: kind, size: SurfaceSize(width: 200, height: 100))
        #expect(device.kind == kind)
        func at(_ ms: Int64) -> Instant { .zero + .milliseconds(ms) }
        let frames = [
            TouchFrame(time: at(0), contacts: [contact(1, slot: 0, .began, x: 10, y: 20)]),
            TouchFrame(time: at(10), contacts: [contact(1, slot: 0, .moved, x: 12.5, y: 20), contact(2, slot: 1, .began, x: 50, y: 60)]),
            TouchFrame(time: at(20), contacts: [contact(1, slot: 0, .ended, x: 12.5, y: 20), contact(2, slot: 1, .moved, x: 55, y: 60)]),
            TouchFrame(time: at(30), contacts: [contact(2, slot: 1, .ended, x: 55, y: 60)]),
            TouchFrame(time: at(500), contacts: [contact(3, slot: 0, .began, x: 199.9, y: 99.9)]),
            TouchFrame(time: at(560), contacts: [contact(3, slot: 0, .ended, x: 199.9, y: 99.9)]),
            // Landing and lifting in one frame: sent landing, then lifting.
            TouchFrame(time: at(900), contacts: [contact(4, slot: 2, .ended, x: 30, y: 40)]),
        ]
        var encoder = TouchFrameEncoder(device: device)
        var decoder = TouchDecoder(device: device, surface: try #require(TouchSurface(device: device)))
        var decoded: [String] = []
        for frame in frames {
            for event in encoder.events(for: frame) {
                try decoder.process(event) { f in
                    decoded.append("\(f.time) \(f.fingerCount): " + f.contacts.map { "\($0.slot) \($0.phase) \($0.x),\($0.y)" }.joined(separator: "; "))
                }
            }
        }
        #expect(decoded == [
            "0.000000s 1: 0 began 10.0,20.0",
            "0.010000s 2: 0 moved 12.5,20.0; 1 began 50.0,60.0",
            "0.020000s 1: 0 ended 12.5,20.0; 1 moved 55.0,60.0",
            "0.030000s 0: 1 ended 55.0,60.0",
            "0.500000s 1: 0 began 199.9,99.9",
            "0.560000s 0: 0 ended 199.9,99.9",
            // The decoder splits it into a landing and a lift.
            "0.900000s 1: 2 began 30.0,40.0",
            "0.900000s 0: 2 ended 30.0,40.0",
        ])
    }
}
