import Foundation
import GestureCLI
import Testing

/// A libinput-record YAML of a 300 × 200 mm touchscreen (3000 × 2000 units, 10 units/mm) on
/// which each of `touches` lands at `from` (mm), moves to `to` in 10 ms steps and lifts
/// `duration` ms after it landed; each starts `start` ms into the recording.
func touchscreenRecording(_ touches: [(start: Int, duration: Int, from: (Double, Double), to: (Double, Double))]) -> String {
    var yaml = """
        # libinput record
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event9
          evdev:
            name: "Synthetic Touchscreen"
            id: [3, 1, 2, 1]
            codes:
              0: [0]
              1: [330]
              3: [0, 1, 47, 53, 54, 57]
            absinfo:
              0: [0, 3000, 0, 0, 10]
              1: [0, 2000, 0, 0, 10]
              47: [0, 9, 0, 0, 0]
              53: [0, 3000, 0, 0, 10]
              54: [0, 2000, 0, 0, 10]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHSCREEN=1
          events:

        """
    func frame(_ ms: Int, _ events: [(Int, Int, Int)]) {
        yaml += "  - evdev:\n"
        for (type, code, value) in events + [(0, 0, 0)] {
            yaml += "    - [\(ms / 1000), \((ms % 1000) * 1000), \(type), \(code), \(value)]\n"
        }
    }
    for (n, t) in touches.enumerated() {
        let steps = max(1, t.duration / 10)
        for step in 0..<steps {
            let share = Double(step) / Double(max(1, steps - 1))
            let x = Int((t.from.0 + (t.to.0 - t.from.0) * share) * 10), y = Int((t.from.1 + (t.to.1 - t.from.1) * share) * 10)
            let landing = step == 0 ? [(3, 57, n + 1), (1, 330, 1)] : []
            frame(t.start + step * 10, [(3, 47, 0)] + landing.prefix(1) + [(3, 53, x), (3, 54, y)] + landing.dropFirst())
        }
        frame(t.start + t.duration, [(3, 47, 0), (3, 57, -1), (1, 330, 0)])
    }
    return yaml
}

@Suite("gestured replay: why nothing fired")
struct SilenceTests {
    /// The kiosk builder's layout: a 1280 × 800 screen with a three-finger swipe, and a back
    /// button top left with a tap and a long press.
    static let kiosk = """
        devices:
          - match:
              kind: touchscreen
            output: [1280, 800]
        layout:
          id: screen
          frame: [0, 0, 1280, 800]
          gestures:
            - kind: swipe
              touches: 3
              directions: [left]
          children:
            - id: back
              frame: [0, 0, 120, 120]
              gestures:
                - kind: tap
                - kind: long-press
        """

    func run(_ recording: String, config: String, mode: ReplayRunner.Mode = .gestures) throws -> (Int32, CapturedOutput) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("silence-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try recording.write(toFile: dir + "/touches.yaml", atomically: true, encoding: .utf8)
        try config.write(toFile: dir + "/mine.yaml", atomically: true, encoding: .utf8)
        var out = CapturedOutput()
        var runner = ReplayRunner(recordingPath: dir + "/touches.yaml", mode: mode)
        runner.configPath = dir + "/mine.yaml"
        return (runner.run(output: &out), out)
    }

    /// Two taps in the middle of the screen, where only a three-finger swipe is, and a tap on
    /// the back button that slides 5 mm (failing once past 3 mm): nothing fires, and stderr
    /// says what each touch hit.
    @Test func aReplayWhereNothingFiresSaysWhatTheTouchesHit() throws {
        let recording = touchscreenRecording([
            (0, 60, (150, 100), (150, 100)), (500, 60, (160, 100), (160, 100)), (1000, 100, (10, 10), (15, 10)),
        ])
        let (status, out) = try run(recording, config: Self.kiosk)
        #expect(status == 0)
        #expect(out.standardOutput == "")
        #expect(out.standardError == """
            no gesture fired: 3 touch sequences
              2 landed on `screen` with 1 finger: no gesture for 1 finger there
              1 landed on `back` with 1 finger: tap(1 tap, 1 touch)@back and long-press(1 touch)@back failed: \
            moved 3.3 mm > 3.0 mm allowed

            """)
    }

    /// A gesture fired: one line says how many touch sequences fired nothing, and the commonest
    /// why (issue 69: a new user had to reach for `--explain`). A layout with no gesture where
    /// the touch lands, and a touch on no region, are said in `--explain` too.
    @Test func explainTellsOfTouchesNoRecognizerCouldTake() throws {
        let recording = touchscreenRecording([(0, 60, (10, 10), (10, 10)), (500, 60, (250, 100), (250, 100))])
        let (_, fired) = try run(recording, config: Self.kiosk)
        #expect(fired.standardError
            == "1 of 2 touch sequences fired nothing; 1 landed on `screen` with 1 finger: no gesture for 1 finger there (--explain shows each)\n")
        let (_, all) = try run(touchscreenRecording([(0, 60, (10, 10), (10, 10))]), config: Self.kiosk)
        #expect(all.standardError == "")
        let (_, explainedFired) = try run(recording, config: Self.kiosk, mode: .explain)
        #expect(explainedFired.standardError == "")
        #expect(fired.standardOutput.contains("tap recognized  back"))
        let bare = """
            devices:
              - match:
                  kind: touchscreen
                output: [1280, 800]
            layout:
              id: screen
              frame: [0, 0, 640, 800]
              children:
                - id: photo
                  frame: [0, 0, 320, 320]
            """
        let (_, explained) = try run(recording, config: bare, mode: .explain)
        #expect(explained.standardOutput == """
              0.060000s  touch sequence on `photo` (1 finger): no gesture there
              0.500000s  touch hit no region: ignored

            """)
        #expect(explained.standardError == """
            no gesture fired: 2 touch sequences
              1 landed on `photo` with 1 finger: no gesture there
              1 landed on no region: ignored

            """)
    }

    /// `--frames --config`: positions in the layout's units, as the gestures have them (10 mm
    /// of the 300 mm panel mapped onto 1280 pixels: 42.7), and JSON's x and y too.
    @Test func framesWithAConfigurationAreInLayoutUnits() throws {
        let recording = touchscreenRecording([(0, 20, (10, 10), (10, 10))])
        let (_, frames) = try run(recording, config: Self.kiosk, mode: .frames)
        #expect(frames.standardOutput == """
              0.000000s  fingers 1  #1 slot 0 began (100, 100) at 42.7, 40.0
              0.010000s  fingers 1  #1 slot 0 moved (100, 100) at 42.7, 40.0
              0.020000s  fingers 0  #1 slot 0 ended (100, 100) at 42.7, 40.0

            """)
        let (_, json) = try run(recording, config: Self.kiosk, mode: .framesJSON)
        #expect(json.standardOutput.hasPrefix(#"{"time": 0.0, "contacts": [{"id": 1, "slot": 0, "phase": "began", "device_x": 100, "device_y": 100, "x": 42.67, "y": 40.0}]"#))
    }

    /// Contacts the contact filter left out reach no recognizer: they are counted apart, and a
    /// click that fails every recognizer alike is said once.
    @Test func contactsLeftOutAndRecognizersFailingAlike() {
        let thumb = replay(fixture("chromiumos/link/palm-hovering_thumb.left.contact-link-user-20120508_040727.evemu"), .gestures)
        #expect(thumb.output.standardError == """
            no gesture fired: no touch reached the recognizers
              contacts left out: 1 as thumb (--explain says why)

            """)
        let click = replay(fixture("chromiumos/link/palm-palm_click.lower.left-link-user-20120508_062308.evemu"), .gestures)
        #expect(click.output.standardError == """
            no gesture fired: 4 touch sequences
              4 landed on `root` with 1 finger: tap(1 tap, 1 touch)@root, tap(2 taps, 1 touch)@root and 20 more failed: \
            a physical button was pressed: a click, not a gesture
              contacts left out: 1 as thumb, 2 as palm (--explain says why)

            """)
    }
}

@Suite("gestured replay: the actions gestures would run")
struct ReplayActionTests {
    static let config = """
        devices:
          - match:
              kind: touchscreen
            output: [1280, 800]
        layout:
          id: screen
          frame: [0, 0, 1280, 800]
          gestures:
            - kind: pan
              action: {exec: [/usr/bin/kiosk-ctl, pan], on: [began, ended]}
          children:
            - id: back
              frame: [0, 0, 120, 120]
              gestures:
                - kind: tap
                  action: {key: leftalt+left}
        """

    /// Each gesture line says the action it would run, as the service decides it (a pan's at
    /// the states its `on` names, not at `changed`); JSON lines, the protocol's events, do not.
    @Test func eachGestureLineSaysTheActionItWouldRun() throws {
        let recording = touchscreenRecording([(0, 60, (10, 10), (10, 10)), (500, 100, (150, 100), (170, 100))])
        let (status, out) = try SilenceTests().run(recording, config: Self.config)
        #expect(status == 0)
        let lines = out.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("  → key leftalt+left") == true)
        #expect(lines.filter { $0.contains("pan began") }.allSatisfy { $0.hasSuffix("  → exec /usr/bin/kiosk-ctl pan") })
        #expect(lines.filter { $0.contains("pan changed") }.allSatisfy { !$0.contains("→") })
        #expect(lines.filter { $0.contains("pan ended") }.count == 1 && lines.last?.hasSuffix("  → exec /usr/bin/kiosk-ctl pan") == true)
        let (_, json) = try SilenceTests().run(recording, config: Self.config, mode: .gesturesJSON)
        #expect(!json.standardOutput.contains("→") && !json.standardOutput.contains("kiosk-ctl"))
    }
}
