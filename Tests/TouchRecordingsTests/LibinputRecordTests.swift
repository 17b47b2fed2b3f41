import Foundation
import Testing
import TouchEvents
@testable import TouchRecordings

@Suite("libinput record reader and writer")
struct LibinputRecordTests {
    @Test func readsHeaderEventsAndIgnoresLibinputFramesAndUnknownKeys() throws {
        let events = """
              # Current time is 14:51:15
              - evdev:
                - [  0,      0,   3,  57,     5] # EV_ABS / ABS_MT_TRACKING_ID 5
                - [  0,      0,   3,  53,   100]
                - [  0,      0,   3,  54,   200]
                - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +0ms
              - libinput:
                - {time: 0.000000, type: TOUCH_DOWN, slot: 0, point: [10.0, 20.0]}
              - evdev:
                - [  1,  20000,   3,  57,    -1]
                - [  1,  20000,   0,   0,     0]
            """
        let text = libinputRecording(events: events, extraDeviceKeys: "  hid: [1, 2, 3]\n  something_new: {a: 1}\n")
        let path = writeTemporary("rec.yml", text)
        let recording = try Recording.load(path: path)
        #expect(recording.format == .libinputRecord)
        let device = try recording.device(nil)
        #expect(device.node == "/dev/input/event4")
        #expect(device.description.name == "Test Touchscreen")
        #expect(device.description.id == InputID(bustype: 3, vendor: 1, product: 2, version: 3))
        #expect(device.description.absInfo[AbsCode.mtSlot] == AbsInfo(value: 1, minimum: 0, maximum: 1))
        #expect(device.description.udevProperties == ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"])
        #expect(device.description.reportedSize == SurfaceSize(width: 100, height: 50))
        #expect(device.events == [
            InputEvent(time: Instant(microseconds: 0), type: 3, code: 57, value: 5),
            InputEvent(time: Instant(microseconds: 0), type: 3, code: 53, value: 100),
            InputEvent(time: Instant(microseconds: 0), type: 3, code: 54, value: 200),
            InputEvent(time: Instant(microseconds: 0), type: 0, code: 0, value: 0),
            InputEvent(time: Instant(microseconds: 1_020_000), type: 3, code: 57, value: -1),
            InputEvent(time: Instant(microseconds: 1_020_000), type: 0, code: 0, value: 0),
        ])
        #expect(device.eventLines == [38, 39, 40, 41, 45, 46])
    }

    /// The DMI modalias libinput's quirks match laptops by: libinput record's `system: dmi:`,
    /// evemu-describe's `# DMI:` comment (a description file beside the events counts too).
    @Test func theRecordingSystemsDMIModaliasIsKept() throws {
        let events = "  - evdev:\n    - [  0,      0,   0,   0,     0]\n"
        let plain = libinputRecording(events: events)
        #expect(try Recording.load(path: writeTemporary("plain.yml", plain)).dmi == nil)
        let withSystem = plain.replacingOccurrences(of: "libinput:\n  version: \"1.22.1\"\n",
            with: "libinput:\n  version: \"1.22.1\"\nsystem:\n  os: \"debian:12\"\n  kernel: \"6.1.0\"\n  dmi: \"dmi:bvnLENOVO:svnLENOVO:pn20EQA00PAU:\"\n")
        #expect(withSystem != plain)
        #expect(try Recording.load(path: writeTemporary("system.yml", withSystem)).dmi == "dmi:bvnLENOVO:svnLENOVO:pn20EQA00PAU:")
        let lenovo = try Recording.load(path: fixture("recordings/evemu-devices/touchpads/SynPS2 Synaptics TouchPad.lenovo-p50.desc"))
        #expect(lenovo.dmi?.hasPrefix("dmi:bvnLENOVO:bvrN1EET41W(1.15):bd12/31/2015:svnLENOVO:pn20EQA00PAU:") == true)
        #expect(try Recording.load(path: fixture("recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events")).dmi == nil)
    }

    @Test func multiDeviceRecordingsDefaultToTheFirstTouchDevice() throws {
        let recording = try Recording.load(path: fixture("synthetic/keyboard-and-touchpad.yaml"))
        #expect(recording.devices.map(\.description.kind) == [.other, .touchpad])
        #expect(try recording.device(nil).description.name == "Synthetic Touchpad")
        #expect(try recording.device(0).description.name == "Synthetic Keyboard")
        #expect(try recording.device(0).events.count == 4)
        #expect(throws: RecordingError.self) { try recording.device(2) }
        do {
            _ = try recording.device(2)
        } catch {
            #expect(error.message == "there is no device 2: the recording has 2 (0: Synthetic Keyboard [other], 1: Synthetic Touchpad [touchpad])")
        }
    }

    @Test func writerOutputReadsBackToTheSameDeviceAndEvents() throws {
        let original = try Recording.load(path: fixture(
            "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")).devices[0]
        let yaml = LibinputRecordWriter(source: "test").yaml(for: original)
        let path = writeTemporary("converted.yaml", yaml)
        let back = try Recording.load(path: path).devices[0]
        var expected = original.description
        expected.udevProperties = ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"]
        #expect(back.description == expected)
        let t0 = original.events[0].time
        #expect(back.events == original.events.map { InputEvent(time: .zero + ($0.time - t0), type: $0.type, code: $0.code, value: $0.value) })

        // Writing what was read gives the same text again.
        #expect(LibinputRecordWriter(source: "test").yaml(for: back) == yaml)
    }

    @Test func writerOutputHasWhatLibinputReplayRequires() throws {
        let device = try Recording.load(path: fixture("synthetic/palm-during-touch.yaml")).devices[0]
        let yaml = LibinputRecordWriter().yaml(for: device)
        for required in ["\nversion: 1\n", "\nndevices: 1\n", "\ndevices:\n- node: ", "\n  evdev:\n", "\n    name: \"Synthetic 10-finger Touchscreen\"\n",
                         "\n    id: [3, 1, 2, 1]\n", "\n    codes:\n", "\n    absinfo:\n", "\n    properties: [1]\n",
                         "\n  udev:\n    properties:\n    - ID_INPUT=1\n", "\n  events:\n  - evdev:\n"] {
            #expect(yaml.contains(required), "missing \(required)")
        }
        // Same columns as libinput record: [%3d, %6d, %3d, %3d, %7d] # TYPE / %-20s %6d
        #expect(yaml.contains("\n    - [  0,      0,   3,  47,      0] # EV_ABS / ABS_MT_SLOT               0\n"))
    }
}

@Suite("evemu writer")
struct EvemuWriterTests {
    @Test(arguments: [
        "synthetic/10-finger-drag-down.yaml",
        "recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_press.events",
        "recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.tap.events",
    ])
    func writerOutputReadsBackToTheSameDeviceAndEvents(_ name: String) throws {
        let original = try Recording.load(path: fixture(name)).devices[0]
        let path = writeTemporary("out.evemu", EvemuWriter().text(for: original))
        let back = try Recording.load(path: path).devices[0]
        var expected = original.description
        expected.udevProperties = []
        expected.codes[EventType.syn] = [0, 1, 2, 3]
        #expect(back.description == expected)
        let t0 = original.events[0].time
        #expect(back.events == original.events.map { InputEvent(time: .zero + ($0.time - t0), type: $0.type, code: $0.code, value: $0.value) })
    }
}
