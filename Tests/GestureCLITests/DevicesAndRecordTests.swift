import DeviceQuirks
import GestureReplay
import GestureRuntime
import Foundation
import GestureCLI
import Testing
import TouchEvents
import TouchInput
import TouchInputTesting
import TouchRecordings

private func description(_ relative: String) throws -> DeviceDescription {
    try Recording.load(path: fixture(relative)).device(nil).description
}

private let atmel = "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"

@Suite("gestured devices")
struct DevicesCommandTests {
    func devices() throws -> [TouchDeviceInfo] {
        [
            TouchDeviceInfo(node: "/dev/input/event5", name: "Synthetic 10-finger Touchscreen", kind: .touchscreen,
                            description: try description("synthetic/10-finger-drag-down.yaml")),
            TouchDeviceInfo(node: "/dev/input/event12", name: "Atmel maXTouch Touchscreen", kind: .touchscreen,
                            description: try description(atmel)),
            TouchDeviceInfo(node: "/dev/input/event7", name: "SynPS/2 Synaptics TouchPad", kind: .touchpad,
                            access: .denied(reason: "cannot open: Permission denied", fix: "join the input group")),
        ]
    }

    @Test func readableListSaysSizeSlotsAndAccess() throws {
        let list = try devices()
        var out = CapturedOutput()
        let status = DevicesRunner(list: { list }).run(output: &out)
        #expect(status == 0)
        #expect(out.standardOutput == """
            /dev/input/event5
              Name:        Synthetic 10-finger Touchscreen
              Kind:        touchscreen
              Seat:        seat0
              Protocol:    multitouch, 10 slots (protocol B)
              Size:        300.0 x 200.0 mm
              Resolution:  10 x 10 units/mm
              Axes:        x 0…3000, y 0…2000
              Access:      yes

            /dev/input/event12
              Name:        Atmel maXTouch Touchscreen
              Kind:        touchscreen
              Seat:        seat0
              Protocol:    multitouch, 10 slots (protocol B)
              Size:        unknown: the device reports no resolution (set size: in the configuration, or --size)
              Resolution:  none reported
              Axes:        x 0…799, y 0…479
              Access:      yes

            /dev/input/event7
              Name:        SynPS/2 Synaptics TouchPad
              Kind:        touchpad
              Seat:        seat0
              Access:      no: cannot open: Permission denied
              Fix:         join the input group

            """)
        #expect(out.standardError == "1 of 3 devices cannot be read by this user; see Access above\n")
    }

    /// Issue 64: the list ends with how an owned touchscreen's touches end under the
    /// compositor running.
    @Test func theListSaysHowOwnedTouchesEndUnderTheCompositorRunning() throws {
        let list = try devices()
        var runner = DevicesRunner(list: { list })
        runner.compositor = { RunningCompositor(name: "cage", pid: 420) }
        var out = CapturedOutput()
        #expect(runner.run(output: &out) == 0)
        #expect(out.standardOutput.hasSuffix("""
              Fix:         join the input group

            Compositor:  running: cage (pid 420)
              Owned touchscreens (own: true, end-owned-touches: auto): touches an owning gesture takes from the apps end with a lift — cage drops libinput's touch cancel

            """))
        runner.compositor = { RunningCompositor(name: "sway", pid: 77, version: .init(1, 10)) }
        out = CapturedOutput()
        _ = runner.run(output: &out)
        #expect(out.standardOutput.hasSuffix("end with libinput's cancel — sway 1.10 passes libinput's touch cancel on\n"))
        runner.compositor = { nil }
        out = CapturedOutput()
        _ = runner.run(output: &out)
        #expect(out.standardOutput.contains("Compositor:  running: none gestured knows\n"))
    }

    @Test func jsonHasOneObjectPerDevice() throws {
        let list = try devices()
        var out = CapturedOutput()
        #expect(DevicesRunner(json: true, list: { list }).run(output: &out) == 0)
        let lines = out.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"node": "/dev/input/event5", "name": "Synthetic 10-finger Touchscreen", "kind": "touchscreen", "seat": "seat0", "protocol": "slots", "slots": 10, "width_mm": 300.0, "height_mm": 200.0, "resolution": [10, 10], "x_range": [0, 3000], "y_range": [0, 2000], "quirks": [], "readable": true}"#,
            #"{"node": "/dev/input/event12", "name": "Atmel maXTouch Touchscreen", "kind": "touchscreen", "seat": "seat0", "protocol": "slots", "slots": 10, "width_mm": null, "height_mm": null, "resolution": [0, 0], "x_range": [0, 799], "y_range": [0, 479], "quirks": [], "readable": true}"#,
            #"{"node": "/dev/input/event7", "name": "SynPS/2 Synaptics TouchPad", "kind": "touchpad", "seat": "seat0", "readable": false, "reason": "cannot open: Permission denied", "fix": "join the input group"}"#,
        ])
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
    }

    /// libinput's quirks for each device, and where each came from: a Cypress PS/2 pad's say its
    /// pressure tells no palm (issue 45, item 1's device).
    @Test func aDeviceShowsTheQuirksThatApply() throws {
        let cypress = try description("recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events")
        let list = [TouchDeviceInfo(node: "/dev/input/event6", name: cypress.name, kind: .touchpad, description: cypress)]
        var runner = DevicesRunner(list: { list })
        runner.quirks = QuirksDatabase.load(directory: fixture("quirks/libinput-1.22.1"), overrides: nil)
        var out = CapturedOutput()
        #expect(runner.run(output: &out) == 0)
        #expect(out.standardOutput == """
            /dev/input/event6
              Name:        CyPS/2 Cypress Trackpad
              Kind:        touchpad
              Seat:        seat0
              Protocol:    multitouch, 2 slots (protocol B)
              Size:        100.0 x 60.0 mm
              Resolution:  16 x 15 units/mm
              Axes:        x 0…1600, y 0…900
              Quirks:      AttrPressureRange=10:8 ([Cypress Touchpads] 30-vendor-cypress.quirks:10)
                           AttrPalmPressureThreshold=254 ([Cypress Touchpads] 30-vendor-cypress.quirks:11)
              Access:      yes

            """)
        runner.json = true
        out = CapturedOutput()
        #expect(runner.run(output: &out) == 0)
        #expect(out.standardOutput.contains(#""quirks": [{"key": "AttrPressureRange", "value": "10:8", "section": "Cypress Touchpads", "file": ""#))
        #expect(out.standardOutput.contains(#"30-vendor-cypress.quirks", "line": 11}]"#))
        // A quirks folder without a section for it: none match.
        runner.json = false
        runner.quirks = QuirksDatabase(text: "[Other]\nMatchName=Other\nModelChromebook=1\n", file: "other.quirks")
        out = CapturedOutput()
        #expect(runner.run(output: &out) == 0)
        #expect(out.standardOutput.contains("  Quirks:      none (no section of libinput's quirks files names this device)\n"))
    }

    @Test func noDevicesSaysWhereToLookAndExits1() {
        var out = CapturedOutput()
        #expect(DevicesRunner(list: { [] }).run(output: &out) == 1)
        #expect(out.standardOutput == "")
        #expect(out.standardError.hasPrefix("no touchscreen or touchpad found"))
        #expect(out.standardError.contains("docs/troubleshooting.md"))
    }
}

@Suite("gestured record")
struct RecordCommandTests {
    /// A device fed through a pipe: what it is fed, then the pipe closed (the device gone).
    func recordThroughPipe(_ recording: RecordedDevice, to path: String) throws -> (Int32, CapturedOutput) {
        let pipe = try PipeTouchDevice(node: "/dev/input/event9", description: recording.description)
        // Everything is written before reading starts; the pipe holds it (a few thousand events).
        pipe.write(recording.events)
        pipe.closeWriter()
        var runner = RecordRunner(device: "/dev/input/event9", outputPath: path)
        runner.showsProgress = false
        runner.handlesSignals = false
        runner.open = { _ throws(InputError) in pipe }
        var out = CapturedOutput()
        return (runner.run(output: &out), out)
    }

    @Test func aRecordingReplaysToTheSameGestures() throws {
        let original = fixture(atmel)
        let device = try Recording.load(path: original).device(nil)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(getpid()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, out) = try recordThroughPipe(device, to: path)
        #expect(status == 0)
        let frames = device.events.filter { $0.type == 0 && $0.code == 0 }.count
        #expect(out.standardError == """
            recording /dev/input/event9: Atmel maXTouch Touchscreen, until Ctrl-C
            the device went away: wrote \(path): \(device.events.count) events in \(frames) frames. Play it with: gestured replay \(path)

            """)
        let recorded = try Recording.load(path: path).device(nil)
        #expect(recorded.events.map { [$0.type, $0.code] } == device.events.map { [$0.type, $0.code] })
        #expect(recorded.events.map(\.value) == device.events.map(\.value))
        #expect(recorded.description.absInfo == device.description.absInfo)
        #expect(recorded.node == "/dev/input/event9")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# libinput record\n# Recorded by gestured from /dev/input/event9\nversion: 1\n"))
        // The replayed gestures are the original's.
        let before = replay(original, .gesturesJSON)
        let after = replay(path, .gesturesJSON)
        #expect(after.status == 0)
        #expect(!before.output.standardOutput.isEmpty)
        #expect(after.output.standardOutput == before.output.standardOutput)
    }

    @Test func aFrameCutOffByTheStopIsDropped() throws {
        var device = try Recording.load(path: fixture("synthetic/pinch-rotate.yaml")).device(nil)
        let complete = device.events.count
        device.events.append(InputEvent(time: device.events.last!.time + .milliseconds(10), type: 3, code: 0x35, value: 1234))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-cut-\(getpid()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, _) = try recordThroughPipe(device, to: path)
        #expect(status == 0)
        #expect(try Recording.load(path: path).device(nil).events.count == complete)
    }

    @Test func nothingHappeningStillWritesTheDescriptionAndSaysSo() throws {
        var device = try Recording.load(path: fixture("synthetic/pinch-rotate.yaml")).device(nil)
        device.events = []
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-empty-\(getpid()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, out) = try recordThroughPipe(device, to: path)
        #expect(status == 0)
        #expect(out.standardError.contains("0 events in 0 frames (nothing happened on the device: touch it while recording)"))
        #expect(try Recording.load(path: path).device(nil).description.name == "Synthetic 10-finger Touchscreen")
    }

    @Test func devicesAreFoundByNameAndAmbiguityIsExplained() throws {
        let list = [
            TouchDeviceInfo(node: "/dev/input/event5", name: "Atmel maXTouch Touchscreen", kind: .touchscreen),
            TouchDeviceInfo(node: "/dev/input/event7", name: "SynPS/2 Synaptics TouchPad", kind: .touchpad),
            TouchDeviceInfo(node: "/dev/input/event8", name: "ELAN Touchscreen", kind: .touchscreen),
        ]
        func run(_ name: String) -> (Int32, String) {
            var runner = RecordRunner(device: name, outputPath: "/tmp/unused.yaml")
            runner.inventory = { list }
            runner.open = { node throws(InputError) in throw InputError(path: node, message: "opened") }
            var out = CapturedOutput()
            return (runner.run(output: &out), out.standardError)
        }
        #expect(run("maxtouch") == (2, "/dev/input/event5: opened\n"))
        #expect(run("touchscreen") == (2, "touchscreen: several touch devices match: /dev/input/event5 (Atmel maXTouch Touchscreen), /dev/input/event8 (ELAN Touchscreen); give the node\n"))
        #expect(run("wacom") == (2, "wacom: no touch device's name contains this; there are: /dev/input/event5 (Atmel maXTouch Touchscreen), /dev/input/event7 (SynPS/2 Synaptics TouchPad), /dev/input/event8 (ELAN Touchscreen)\n"))
    }

    @Test func anUnwritableOutputIsRefusedBeforeRecording() {
        var runner = RecordRunner(device: "/dev/input/event5", outputPath: "/no/such/dir/out.yaml")
        runner.open = { node throws(InputError) in Issue.record("opened \(node)"); throw InputError(path: node, message: "") }
        var out = CapturedOutput()
        #expect(runner.run(output: &out) == 2)
        #expect(out.standardError == "/no/such/dir/out.yaml: cannot write here: No such file or directory (choose another -o)\n")
    }
}
