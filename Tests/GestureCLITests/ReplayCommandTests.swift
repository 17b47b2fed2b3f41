import Foundation
import GestureCLI
import Testing

let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

func fixture(_ relative: String) -> String { repositoryRoot + "/fixtures/" + relative }

func replay(_ path: String, _ mode: ReplayRunner.Mode, size: String? = nil) -> (status: Int32, output: CapturedOutput) {
    var output = CapturedOutput()
    let runner = ReplayRunner(recordingPath: path, size: size.flatMap { .init(parsing: $0) }, mode: mode)
    let status = runner.run(output: &output)
    return (status, output)
}

@Suite("gestured replay")
struct ReplayCommandTests {
    @Test func framesAsJSONHaveTheDocumentedShape() {
        let (status, out) = replay(fixture("synthetic/protocol-a-two-fingers.yaml"), .framesJSON)
        #expect(status == 0)
        #expect(out.standardError == "")
        let lines = out.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == #"{"time": 0.0, "contacts": [{"id": 1, "slot": 0, "phase": "began", "device_x": 1000, "device_y": 1000, "x": 50.0, "y": 50.0}], "fingers": 1}"#)
        #expect(lines.last == #"{"time": 0.05, "contacts": [{"id": 2, "slot": 1, "phase": "ended", "device_x": 2970, "device_y": 1040, "x": 148.5, "y": 52.0}], "fingers": 0}"#)
        #expect(lines.count == 6)
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["time"] is Double || object?["time"] is Int)
            #expect(object?["contacts"] is [[String: Any]])
        }
    }

    @Test func readableFramesAndPressure() {
        let (status, out) = replay(fixture("synthetic/palm-during-touch.yaml"), .frames)
        #expect(status == 0)
        #expect(out.standardOutput.split(separator: "\n").prefix(3) == [
            "  0.000000s  fingers 1  #1 slot 0 began (1000, 1000) 100.0 x 100.0 mm",
            "  0.010000s  fingers 2  #1 slot 0 stationary (1000, 1000) 100.0 x 100.0 mm  #2 slot 1 began (2500, 1500) 250.0 x 150.0 mm",
            "  0.020000s  fingers 1  #1 slot 0 moved (1010, 1000) 101.0 x 100.0 mm  #2 slot 1 cancelled (2500, 1500) 250.0 x 150.0 mm",
        ])
        let (_, json) = replay(fixture("synthetic/palm-during-touch.yaml"), .framesJSON)
        #expect(json.standardOutput.hasPrefix(#"{"time": 0.0, "contacts": [{"id": 1, "slot": 0, "phase": "began", "device_x": 1000, "device_y": 1000, "x": 100.0, "y": 100.0, "pressure": 40, "touch_major": 0}], "fingers": 1}"#))
    }

    @Test func summarySaysWhatWasDecodedAndRecognised() {
        let (status, out) = replay(fixture("synthetic/10-finger-drag-down.yaml"), .summary)
        #expect(status == 0)
        #expect(out.standardOutput == """
            \(fixture("synthetic/10-finger-drag-down.yaml")) (libinput-record)
              device:   Synthetic 10-finger Touchscreen [touchscreen], multitouch protocol B, 10 slots
              surface:  300.0 x 200.0 mm (from the device's resolution)
              events:   393
              frames:   21 over 0.22 s
              contacts: 10 (at most 10 fingers at once)
              gestures: none

            """)
        // The built-in layout recognises 1 to 5 fingers; with 10 every recognizer fails.
        let (_, five) = replay(fixture("recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"), .summary)
        #expect(five.standardOutput.hasSuffix("""
              contacts: 4 (at most 4 fingers at once)
              gestures: 1 pan, 1 swipe

            """))
    }

    @Test func aDeviceWithoutResolutionIsReportedAndSizeFixesIt() {
        let path = fixture("recordings/evemu-devices/touchscreens/EP0430M09.2-fingers-touch-release.events")
        let (_, assumed) = replay(path, .summary)
        #expect(assumed.standardError == "warning: \"EP0430M09\" reports no resolution, so its size is unknown; assuming 96 dpi (3.78 units/mm): 338.4 x 202.9 mm, and a press may move 1.43 times as far and still tap (the size may be 30% off). Give the real size with --size WIDTHxHEIGHT (millimetres).\n")
        let (_, given) = replay(path, .summary, size: "95x57")
        #expect(given.standardError == "")
        #expect(given.standardOutput.contains("  surface:  95.0 x 57.0 mm (as given)\n"))
    }

    @Test func badInputExitsWithStatus2AndALocation() {
        let (status, out) = replay(fixture("golden/does-not-exist.yaml"), .summary)
        #expect(status == 2)
        #expect(out.standardOutput == "")
        #expect(out.standardError == "\(fixture("golden/does-not-exist.yaml")): cannot open: No such file or directory\n")
    }

    @Test func aKeyboardIsRefused() {
        var output = CapturedOutput()
        let status = ReplayRunner(recordingPath: fixture("synthetic/keyboard-and-touchpad.yaml"), deviceIndex: 0, mode: .summary).run(output: &output)
        #expect(status == 2)
        #expect(output.standardError.hasSuffix(": \"Synthetic Keyboard\" is not a touchscreen or touchpad; choose a touch device with --device N\n"))
    }
}

/// Replays `name` (against `config` if given) and compares the output with
/// fixtures/golden/BASENAME`suffix`; `GESTURED_RECORD_GOLDEN=1` rewrites the golden file first.
func checkGolden(_ name: String, _ mode: ReplayRunner.Mode, suffix: String, config: String? = nil) throws {
    var out = CapturedOutput()
    var runner = ReplayRunner(recordingPath: fixture(name), mode: mode)
    runner.configPath = config
    #expect(runner.run(output: &out) == 0)
    let goldenName = (name as NSString).lastPathComponent + suffix
    let goldenPath = fixture("golden/" + goldenName)
    if ProcessInfo.processInfo.environment["GESTURED_RECORD_GOLDEN"] == "1" {
        try out.standardOutput.write(toFile: goldenPath, atomically: true, encoding: .utf8)
    }
    let golden = try String(contentsOfFile: goldenPath, encoding: .utf8)
    #expect(out.standardOutput == golden, "differs from fixtures/golden/\(goldenName)")
}

/// Golden frame logs: `replay --frames --json` of a representative few recordings.
/// `GESTURED_RECORD_GOLDEN=1 swift test` rewrites them after a deliberate change.
@Suite("Golden frame logs")
struct GoldenFrameTests {
    static let cases = [
        "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
        "recordings/evemu-devices/touchscreens/N-Trig MultiTouch.2-fingers-touch-release.events",
        "recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_press.events",
        "recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events",
        "recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad.tap.events",
        "synthetic/syn-dropped-mid-gesture.yaml",
    ]

    @Test(arguments: cases)
    func matchesGolden(_ name: String) throws {
        try checkGolden(name, .framesJSON, suffix: ".frames.jsonl")
    }
}

@Suite("gestured replay gestures")
struct ReplayGestureTests {
    @Test func gestureJSONHasTheDocumentedKeysWhereTheyApply() throws {
        let (status, out) = replay(fixture("recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"), .gesturesJSON)
        #expect(status == 0)
        let lines = out.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"time": 0.316644, "device": "Atmel maXTouch Touchscreen", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 93.66, "y": 60.33, "taps": 2}"#,
            #"{"time": 0.772993, "device": "Atmel maXTouch Touchscreen", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 96.31, "y": 67.47, "taps": 2}"#,
            #"{"time": 1.214632, "device": "Atmel maXTouch Touchscreen", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 91.28, "y": 66.41, "taps": 2}"#,
            #"{"time": 1.68515, "device": "Atmel maXTouch Touchscreen", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 92.34, "y": 69.85, "taps": 2}"#,
            #"{"time": 2.234007, "device": "Atmel maXTouch Touchscreen", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 98.69, "y": 66.68, "taps": 1}"#,
        ])
    }

    @Test func continuousGesturesCarryTranslationVelocityAndDirection() throws {
        let (_, out) = replay(fixture("recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"), .gesturesJSON)
        let objects = try out.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let swipe = try #require(objects.first { $0["kind"] as? String == "swipe" })
        #expect(Set(swipe.keys) == ["time", "device", "kind", "state", "region", "touches", "x", "y", "dx", "dy", "vx", "vy", "direction",
                                    "decided_mm", "decided_ms"])
        #expect(swipe["direction"] as? String == "down" && swipe["touches"] as? Int == 4 && swipe["state"] as? String == "recognized")
        let pan = try #require(objects.first { $0["kind"] as? String == "pan" })
        #expect(Set(pan.keys) == ["time", "device", "kind", "state", "region", "touches", "x", "y", "dx", "dy", "vx", "vy"])
        #expect(objects.map { $0["state"] as! String }.last == "ended")
    }

    @Test func readableGestures() {
        let (_, out) = replay(fixture("recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events"), .gestures)
        #expect(out.standardOutput == "  0.407998s  tap recognized  root  2 touches  taps 1  at 48.0, 18.9 mm\n")
    }
}

/// Golden gesture logs: `replay --json` of the recordings the recognizer work is judged on.
@Suite("Golden gesture logs")
struct GoldenGestureTests {
    static let cases = [
        "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
        "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events",
        "recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events",
        "recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.tap.events",
        "recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events",
        "recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_press.events",
    ]

    @Test(arguments: cases)
    func matchesGolden(_ name: String) throws {
        try checkGolden(name, .gesturesJSON, suffix: ".gestures.jsonl")
    }
}

@Suite("gestured check-config and replay --config")
struct ConfigCommandTests {
    let kiosk = repositoryRoot + "/examples/kiosk.yaml"

    @Test func checkConfigSummarisesAValidFileAndExitsZero() throws {
        let result = try runGestured(["check-config", kiosk])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("\(kiosk): OK — 8 regions, 13 gestures (13 with actions), 1 device rule\n"))
    }

    @Test func checkConfigReportsTheMistakeAndExitsTwo() throws {
        let folder = NSTemporaryDirectory() + "gestured-cfg-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/bad.yaml"
        try "layout:\n  id: root\n  gestures:\n    - kind: tap\n      taps: 0\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runGestured(["check-config", path])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "\(path):5:13: taps must be a whole number from 1 to 10, not \"0\"\n")
    }

    @Test func printDefaultIsAValidStartingPoint() throws {
        let printed = try runGestured(["check-config", "--print-default"])
        #expect(printed.status == 0)
        let folder = NSTemporaryDirectory() + "gestured-cfg-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try printed.stdout.write(toFile: folder + "/default.yaml", atomically: true, encoding: .utf8)
        let checked = try runGestured(["check-config", folder + "/default.yaml"])
        #expect(checked.status == 0)
        #expect(checked.stdout.hasPrefix("\(folder)/default.yaml: OK — 1 region, 24 gestures (0 with actions), every touch device\n"))
    }

    @Test func replayWithAConfigurationThatUsesNoSuchDevice() {
        var output = CapturedOutput()
        var runner = ReplayRunner(recordingPath: fixture("recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events"), mode: .gesturesJSON)
        runner.configPath = kiosk
        #expect(runner.run(output: &output) == 2)
        #expect(output.standardError == "\(kiosk): no device rule matches \"CyPS/2 Cypress Trackpad\" [touchpad]: the configuration would not use this device\n")
    }

    @Test func replayWithABrokenConfiguration() {
        var output = CapturedOutput()
        var runner = ReplayRunner(recordingPath: fixture("synthetic/kiosk-session.yaml"), mode: .gestures)
        runner.configPath = "/nonexistent.yaml"
        #expect(runner.run(output: &output) == 2)
        #expect(output.standardError.hasPrefix("/nonexistent.yaml: cannot read the configuration: "))
    }

    /// Golden logs: each gesture attributed to the region it was made in, positions in the
    /// kiosk's pixels.
    @Test(arguments: [
        "synthetic/kiosk-session.yaml",
        "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events",
        "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
        "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events",
    ])
    func kioskGolden(_ name: String) throws {
        try checkGolden(name, .gesturesJSON, suffix: ".kiosk.jsonl", config: kiosk)
    }

    @Test func theKioskSessionGoesToTheRightRegions() throws {
        var output = CapturedOutput()
        var runner = ReplayRunner(recordingPath: fixture("synthetic/kiosk-session.yaml"), mode: .gesturesJSON)
        runner.configPath = kiosk
        _ = runner.run(output: &output)
        let started = try output.standardOutput.split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { ["recognized", "began"].contains($0["state"] as? String) }
        #expect(started.map { "\($0["kind"]!) \($0["region"]!)" } == [
            "tap play", "tap play", "tap previous", "tap next",
            "edge-pan screen", "edge-pan screen", "pinch photo", "pan volume",
        ])
        #expect(started.filter { $0["kind"] as? String == "edge-pan" }.map { $0["edge"] as! String } == ["left", "bottom"])
    }
}

@Suite("gestured replay --explain")
struct ExplainTests {
    @Test func everyFailureComesWithItsReasonInTheOrderThingsHappened() {
        let (status, out) = replay(fixture("recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events"), .explain)
        #expect(status == 0)
        let lines = out.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 22)  // 21 recognizers of the touchpad layout fail, one tap is recognised
        #expect(lines.contains("  0.000000s  tap(1 tap, 1 touch)@root failed: 2 touches > 1 required"))
        #expect(lines.contains("  0.107998s  long-press(2 touches)@root failed: lifted after 108.0 ms < 500.0 ms required"))
        // A semi-multitouch pad: its resting fingers do not move (the box hysteresis).
        #expect(lines.contains("  0.107998s  pan(1-5 touches)@root failed: lifted after moving 0.0 mm < 6.0 mm"))
        #expect(lines.suffix(2) == [
            "  0.407998s  tap(2 taps, 2 touches)@root failed: no tap 2 within 300.0 ms",
            "  0.407998s  tap recognized  root  2 touches  taps 1  at 48.0, 18.9 mm",
        ])
    }

    @Test func explanationsAsJSON() throws {
        let (_, out) = replay(fixture("recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"), .explainJSON)
        let lines = out.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"{"time": 0.316644, "kind": "tap", "state": "failed", "region": "root", "recognizer": "tap(1 tap, 1 touch)", "reason": "lost to tap(2 taps, 1 touch)"}"#))
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        #expect(lines.filter { $0.contains(#""state": "recognized""#) }.count == 5)
    }

    /// Issue 64: for a device its configuration owns, --explain shows each touch's fate on the
    /// twin and what the app beneath gets — without hardware.
    func ownedExplain(_ ending: String, _ mode: ReplayRunner.Mode = .explain, recording: String = "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
                      gestures: String = """
                          - {kind: swipe, touches: 4, directions: [down], action: {exec: [/bin/true]}}
                          - {kind: tap, action: {emit: true}}
                      """) throws -> [String] {
        let folder = NSTemporaryDirectory() + "gestured-own-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            devices:
              - match: {kind: touchscreen}
                own: true
                end-owned-touches: \(ending)
            layout:
              id: root
              gestures:
            \(gestures)
            """.write(toFile: folder + "/own.yaml", atomically: true, encoding: .utf8)
        var output = CapturedOutput()
        var runner = ReplayRunner(recordingPath: fixture(recording), mode: mode)
        runner.configPath = folder + "/own.yaml"
        #expect(runner.run(output: &output) == 0)
        return output.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test func anOwnedDevicesTouchesShowTheirFateOnTheTwin() throws {
        let lines = try ownedExplain("cancel")
        #expect(Array(lines.suffix(10)) == [
            "  0.249810s  touch 1 on the twin: passed → owned (a gesture that owns its touches took it from the app)",
            "  0.249810s  touch 2 on the twin: passed → owned (a gesture that owns its touches took it from the app)",
            "  0.249810s  touch 3 on the twin: passed → owned (a gesture that owns its touches took it from the app)",
            "  0.249810s  touch 4 on the twin: passed → owned (a gesture that owns its touches took it from the app)",
            "  0.249810s  swipe recognized  root  4 touches  down  at 96.8, 65.0  moved 1.3, 16.5  → exec /bin/true",
            "  0.249810s  touch 1 on the twin: owned → ended by cancel (libinput's cancel)",
            "  0.249810s  touch 2 on the twin: owned → ended by cancel (libinput's cancel)",
            "  0.249810s  touch 3 on the twin: owned → ended by cancel (libinput's cancel)",
            "  0.249810s  touch 4 on the twin: owned → ended by cancel (libinput's cancel)",
            "the app beneath (own: true, owned touches end with libinput's cancel): 4 touches ended by cancel; every other touch whole",
        ])
        let lifted = try ownedExplain("lift")
        #expect(lifted.last == "the app beneath (own: true, owned touches end with a lift): 4 touches ended by lift; every other touch whole")
        #expect(lifted.contains("  0.249810s  touch 4 on the twin: owned → ended by lift (a plain lift: end-owned-touches, for a compositor that drops libinput's cancel)"))
        // A double tap bound to a program beside a shared tap: its two taps are cancelled, and
        // the single tap after it reaches the app whole once the double tap has failed.
        let double = try ownedExplain("auto", recording: "synthetic/owned-double-tap.yaml", gestures: """
                - {kind: tap, taps: 2, action: {exec: [/bin/true]}}
                - {kind: tap}
            """)
        #expect(Array(double.suffix(4)) == [
            "  1.380000s  tap(2 taps, 1 touch)@root failed: no tap 2 within 300.0 ms",
            "  1.380000s  tap recognized  root  1 touch  taps 1  at 100.0, 100.0",
            "  1.380000s  touch 3 on the twin: lift withheld → passed (no gesture will own it)",
            "the app beneath (own: true, owned touches end as the compositor needs: shown with libinput's cancel): 2 touches ended by cancel; every other touch whole",
        ])
        let json = try ownedExplain("cancel", .explainJSON)
        #expect(json.contains(#"{"time": 0.24981, "contact": 4, "state": "twin", "from": "owned", "to": "ended by cancel", "why": "libinput's cancel"}"#))
        for line in json {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }
}
