import Foundation
import Logging
import Testing
import TouchEvents
import TouchInput
import TouchRecordings

/// What can be checked of the C side without a kernel device (the real-kernel lane runs
/// the rest inside a VM).
@Suite("libevdev and libinput shims")
struct LibevdevTests {
    static let descriptions = [
        "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.desc",
        "recordings/evemu-devices/touchpads/SynPS2 Synaptics TouchPad.lenovo-p50.desc",
        "recordings/evemu-devices/touchscreens/N-Trig MultiTouch.desc",
        "synthetic/10-finger-drag-down.yaml",
    ]

    @Test(arguments: descriptions)
    func aDescriptionSurvivesLibevdev(_ name: String) throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let original = try Recording.load(path: url.path + "/fixtures/" + name).devices[0].description
        let handle = try LibevdevHandle(description: original)
        let back = DeviceDescription(libevdev: handle.pointer)
        #expect(back.name == original.name)
        #expect(back.id == original.id)
        #expect(back.properties == original.properties)
        #expect(back.absInfo == original.absInfo)
        for (type, codes) in original.codes where type != EventType.syn {
            #expect(back.codes[type] == codes, "type \(type)")
        }
        #expect(back.kind == original.kind)
        #expect(back.touchProtocol == original.touchProtocol)
    }

    @Test func opensNoDeviceThatIsNotThere() {
        #expect(throws: InputError(path: "/nonexistent/event0",
                                   message: "cannot open: No such file or directory (`gestured devices` lists the touch devices)")) {
            try EvdevDevice(path: "/nonexistent/event0")
        }
    }

    @Test func aSeatWithNoDevicesReportsNone() throws {
        // libudev and libinput run for real: a seat no device belongs to is assigned, has a
        // descriptor to wait on, and reports no device (the real-kernel lane has devices).
        let seat = try LibinputSeat(seat: "gestured-test-seat-with-no-devices", logger: Logger(label: "test"))
        #expect(seat.fileDescriptor >= 0)
        #expect(seat.changes().isEmpty)
        #expect(seat.nodes.isEmpty)
    }

    @Test func kernelRecordsRoundTrip() {
        let events = [
            InputEvent(time: Instant(microseconds: 12_000_345), type: EventType.abs, code: AbsCode.mtPositionX, value: -7),
            InputEvent(time: Instant(microseconds: 12_000_346), type: EventType.syn, code: SynCode.report, value: 0),
        ]
        var bytes = KernelInputEvents.encode(events)
        #expect(bytes.count == 2 * KernelInputEvents.recordSize)
        bytes.append(contentsOf: [1, 2, 3])  // the start of a third record
        var decoded: [InputEvent] = []
        let used = bytes.withUnsafeBytes { KernelInputEvents.decode($0) { decoded.append($0) } }
        #expect(decoded == events)
        #expect(used == 2 * KernelInputEvents.recordSize)
    }
}
