import CInput
import Foundation
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
        #expect(throws: InputError.self) { try EvdevDevice(path: "/nonexistent/event0") }
    }

    @Test func libudevAndLibinputLink() throws {
        // The service's seat code builds on these; here they must at least load and run.
        let udev = try #require(udev_new())
        defer { udev_unref(udev) }
        let enumerate = try #require(udev_enumerate_new(udev))
        defer { udev_enumerate_unref(enumerate) }
        #expect(udev_enumerate_add_match_subsystem(enumerate, "input") == 0)
        #expect(LIBINPUT_EVENT_TOUCH_DOWN.rawValue == 500)
    }
}
