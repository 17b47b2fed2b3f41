import Testing
import TouchEvents
import TouchRecordings

/// Frames written as kernel events decode back to the same frames: what `gestured synth` and
/// the touch bench rely on.
@Suite struct TouchFrameEncoderTests {
    func contact(_ id: Int, slot: Int, _ phase: TouchPhase, x: Double, y: Double) -> TouchContact {
        TouchContact(id: id, slot: slot, phase: phase, deviceX: Int32(x * 10), deviceY: Int32(y * 10), x: x, y: y)
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
        ])
    }
}
