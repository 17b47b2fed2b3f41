import Foundation
import GestureCLI
import TouchEvents
import Testing

/// `gestured synth`: touches described in words, written as a recording that replays to the
/// gestures described.
@Suite("gestured synth")
struct SynthTests {
    /// The kiosk builder's configuration (issue 46): a 1280 × 800 screen with a three-finger
    /// swipe left, a back button top left with a tap, and a menu with a long press.
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
              action: {emit: true}
          children:
            - id: back
              frame: [0, 0, 120, 120]
              gestures:
                - kind: tap
                  action: {emit: true}
            - id: menu
              frame: [1000, 620, 200, 160]
              gestures:
                - kind: long-press
                  action: {emit: true}
        """

    /// A fresh folder with `files` written in it.
    func folder(_ files: [String: String]) throws -> String {
        let dir = NSTemporaryDirectory() + "gestured-synth-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    func synth(_ dir: String, script: String?, statements: [String] = [], config: Bool = true, kind: String? = nil) -> (Int32, CapturedOutput) {
        var runner = SynthRunner(scriptPath: script.map { dir + "/" + $0 }, outputPath: dir + "/out.yaml")
        runner.statements = statements
        runner.configPath = config ? dir + "/mine.yaml" : nil
        if kind == "touchpad" { runner.kind = .touchpad }
        var out = CapturedOutput()
        return (runner.run(output: &out), out)
    }

    func replay(_ dir: String, config: Bool = true) -> String {
        var runner = ReplayRunner(recordingPath: dir + "/out.yaml", mode: .gestures)
        runner.configPath = config ? dir + "/mine.yaml" : nil
        var out = CapturedOutput()
        _ = runner.run(output: &out)
        return out.standardOutput
    }

    /// The three gestures, scripted in layout units, replay to exactly those gestures.
    @Test func theKioskBuildersThreeGestures() throws {
        let dir = try folder(["mine.yaml": Self.kiosk, "kiosk.script": """
            # the kiosk builder's three gestures
            tap at 60,60
            3 fingers swipe left from 900,400 over 200 ms
            long-press at 1060,700 for 800 ms
            """])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, out) = synth(dir, script: "kiosk.script")
        #expect(status == 0)
        #expect(out.standardError == "wrote \(dir)/out.yaml: Synthetic Touchscreen, 217.5 x 136.0 mm, 205 events in 26 frames over 2.07 s. "
                    + "Try it: gestured replay \(dir)/out.yaml --config \(dir)/mine.yaml\n")
        #expect(replay(dir) == """
              0.060000s  tap recognized  back  1 touch  taps 1  at 60.0, 60.0  → emit to socket clients
              0.640000s  swipe recognized  screen  3 touches  left  at 805.7, 400.0  moved -94.2, 0.0  → emit to socket clients
              1.770000s  long-press began  menu  1 touch  at 1059.9, 700.0  → emit to socket clients
              2.070000s  long-press ended  menu  1 touch  at 1059.9, 700.0

            """)
    }

    /// Every statement of the grammar, in millimetres on the built-in layout: each replays to
    /// its gesture.
    @Test func everyStatementMakesItsGesture() throws {
        let dir = try folder(["all.script": """
            2 fingers tap at 100,60
            double-tap at 100,60
            drag from 50,50 to 100,50
            pinch out at 100,60
            rotate counterclockwise at 100,60 by 30 degrees
            wait 100 ms
            tap at 20,20
            at 9 s: 4 fingers swipe down from 100,30 by 50 over 200 ms
            """])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(synth(dir, script: "all.script", config: false).0 == 0)
        let lines = replay(dir, config: false).split(separator: "\n").filter { !$0.contains(" changed ") }
        #expect(lines == [
            // The tap of two waits 300 ms for a second tap.
            "  0.360000s  tap recognized  root  2 touches  taps 1  at 100.0, 60.0 mm",
            "  0.800000s  tap recognized  root  1 touch  taps 2  at 100.0, 60.0 mm",
            "  1.330000s  pan began  root  1 touch  at 53.0, 50.0 mm  moved 3.0, 0.0 mm",
            "  1.470000s  swipe recognized  root  1 touch  right  at 67.0, 50.0 mm  moved 17.0, 0.0 mm",
            "  1.810000s  pan ended  root  1 touch  at 100.0, 50.0 mm  moved 50.0, 0.0 mm",
            "  2.410000s  pinch began  root  2 touches  at 100.0, 60.0 mm  scale 1.5",
            "  2.720000s  pinch ended  root  2 touches  at 100.0, 60.0 mm  scale 3.0",
            "  3.330000s  rotate began  root  2 touches  at 100.0, 60.0 mm  rotation -8.3°",
            "  3.630000s  rotate ended  root  2 touches  at 100.0, 60.0 mm  rotation -30.0°",
            // `wait 100 ms` in place of the half second.
            "  4.090000s  tap recognized  root  1 touch  taps 1  at 20.0, 20.0 mm",
            // `at 9 s:`
            "  9.020000s  pan began  root  4 touches  at 100.0, 35.0 mm  moved 0.0, 5.0 mm",
            "  9.060000s  swipe recognized  root  4 touches  down  at 100.0, 45.0 mm  moved 0.0, 15.0 mm",
            "  9.210000s  pan ended  root  4 touches  at 100.0, 80.0 mm  moved 0.0, 50.0 mm",
        ])
    }

    /// A pinch or a rotation of more than two fingers: they stand around a circle, and the
    /// built-in layout sees all of them pinch or turn.
    @Test func pinchesAndRotationsOfAnyFingerCount() throws {
        let dir = try folder(["many.script": """
            4 fingers pinch in at 100,60
            3 fingers rotate clockwise at 100,60 by 60 degrees
            """])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(synth(dir, script: "many.script", config: false).0 == 0)
        let lines = replay(dir, config: false).split(separator: "\n").filter { !$0.contains(" changed ") }
        #expect(lines == [
            // From 60 to 20 mm across: a third of the span.
            "  0.100000s  pinch began  root  4 touches  at 100.0, 60.0 mm  scale 0.833",
            "  0.410000s  pinch ended  root  4 touches  at 100.0, 60.0 mm  scale 0.333",
            "  0.970000s  rotate began  root  3 touches  at 100.0, 60.0 mm  rotation 9.0°",
            "  1.320000s  rotate ended  root  3 touches  at 100.0, 60.0 mm  rotation 60.0°",
        ])
    }

    /// A touchpad: positions in its own millimetres, a two-finger swipe.
    @Test func aTouchpad() throws {
        let dir = try folder([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, out) = synth(dir, script: nil, statements: ["2 fingers swipe right from 30,30 by 40 over 150 ms"], config: false, kind: "touchpad")
        #expect(status == 0)
        #expect(out.standardError.hasPrefix("wrote \(dir)/out.yaml: Synthetic Touchpad, 100.0 x 60.0 mm"))
        #expect(replay(dir, config: false).contains("swipe recognized  root  2 touches  right"))
    }

    /// With several device rules, a position off the surface says whose surface it is: the
    /// first rule that takes the kind (a laptop's touchpad before its touchscreen), and that
    /// --kind chooses another. With --kind touchscreen a drag in the screen's pixels is on it.
    @Test func offTheSurfaceOfOneOfSeveralRulesSaysWhichRule() throws {
        let laptop = """
            devices:
              - match: {kind: touchpad}
              - match: {kind: touchscreen}
                output: [1920, 1080]
            layout:
              id: screen
              gestures:
                - kind: pan
                  min-touches: 4
                  action: {emit: true}
            """
        let dir = try folder(["mine.yaml": laptop])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, out) = synth(dir, script: nil, statements: ["4 fingers drag from 150,60 to 50,60"])
        #expect(status == 2)
        #expect(out.standardError == "-e:1:21: 150.0,60.0 is off the surface (positions run 0.0,0.0 to 100.0,60.0 on the touchpad "
            + "of the device rule on line 2; --kind chooses another)\n")
        var runner = SynthRunner(scriptPath: nil, outputPath: dir + "/out.yaml")
        runner.statements = ["4 fingers drag from 1000,500 to 600,500"]
        runner.configPath = dir + "/mine.yaml"
        runner.kind = .touchscreen
        var screen = CapturedOutput()
        #expect(runner.run(output: &screen) == 0, "\(screen.standardError)")
    }

    /// Each mistake says where, as FILE:LINE:COLUMN, and exits 2; -e statements are numbered
    /// on their own.
    @Test(arguments: [
        ("tap at 60,60\ntap 60,60\n", "s.script:2:5: expected \"at\", not \"60,60\""),
        ("jump at 1,1", "s.script:1:1: unknown action \"jump\": tap, double-tap, long-press, swipe, drag, pinch, rotate or wait"),
        ("tap at 2000,400", "s.script:1:8: 2000.0,400.0 is off the surface (positions run 0.0,0.0 to 1280.0,800.0)"),
        ("tap at 1e20,60", "s.script:1:8: 1e+20,60.0 is off the surface (positions run 0.0,0.0 to 1280.0,800.0)"),
        ("3 fingers swipe left from 30,400", "s.script:1:1: a finger of this statement goes off the surface (to -9.9, 68.0 mm; fingers stand 15 mm apart in a row)"),
        ("pinch out at 640,400 from 60 to 20", "s.script:1:27: a pinch out spreads: from less than to"),
        ("3 fingers wait 1 s", "s.script:1:11: wait takes a time and no finger count: wait 200 ms"),
        ("11 fingers tap at 60,60", "s.script:1:1: a finger count is 1 to 10"),
        ("swipe sideways from 1,1", "s.script:1:7: a swipe goes left, right, up or down"),
        ("long-press at 60,60 for ever", "s.script:1:25: expected a time like 200 ms or 1.5 s, not \"ever\""),
        ("tap at 60,60 now", "s.script:1:14: unexpected \"now\" at the end of the statement"),
        ("1 finger pinch out at 60,60", "s.script:1:1: a pinch needs 2 fingers or more"),
        ("swipe right from 10,10 by 20000000", "s.script:1:27: a distance is at most 10 m on the surface"),
        ("tap at 60,60 for 2 min", "s.script:1:18: expected a time like 200 ms or 1.5 s, not \"2\""),
        ("long-press at 60,60 for 90 s", "s.script:1:25: a time here is at most 60 s"),
        ("at 0 s: 10 fingers long-press at 640,400\nat 0 s: tap at 60,60", "s.script:2:9: more than 10 fingers down at once (10 already down then)"),
    ])
    func aMistakeSaysWhere(script: String, message: String) throws {
        let dir = try folder(["mine.yaml": Self.kiosk, "s.script": script])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, out) = synth(dir, script: "s.script")
        #expect(status == 2)
        #expect(out.standardError == "\(dir)/\(message)\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.yaml"))
    }

    @Test func statementsOnTheCommandLineAreNumberedOnTheirOwn() throws {
        let dir = try folder(["mine.yaml": Self.kiosk, "s.script": "tap at 60,60\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, out) = synth(dir, script: "s.script", statements: ["tap at 60,60", "tap at"])
        #expect(status == 2)
        #expect(out.standardError == "-e:2:7: expected a position X,Y at the end\n")
    }

    /// A rule that matches by name takes a made-up device named after its glob; a --size other
    /// than the rule's is refused (a replay under the rule applies the rule's size).
    @Test func aRuleMatchingByNameAndItsSize() throws {
        let config = """
            devices:
              - match: {name: "ILITEK*"}
                size: [154, 86]
                output: [800, 480]
            layout:
              id: screen
              gestures: [{kind: tap}]
            """
        let dir = try folder(["mine.yaml": config])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var runner = SynthRunner(scriptPath: nil, outputPath: dir + "/out.yaml")
        runner.statements = ["tap at 400,240"]
        runner.configPath = dir + "/mine.yaml"
        var out = CapturedOutput()
        #expect(runner.run(output: &out) == 0)
        #expect(out.standardError.hasPrefix("wrote \(dir)/out.yaml: ILITEK, 154.0 x 86.0 mm,"))
        #expect(replay(dir) == "  0.060000s  tap recognized  screen  1 touch  taps 1  at 400.0, 240.0\n")
        runner.size = SurfaceSize(width: 200, height: 120)
        out = CapturedOutput()
        #expect(runner.run(output: &out) == 2)
        #expect(out.standardError == "\(dir)/mine.yaml:2: the device rule says size 154.0 x 86.0 mm, and a replay under it applies "
                    + "that size: leave out --size 200.0x120.0, or change the rule\n")
    }

    /// A distance followed by `mm` is millimetres on the surface whatever the units; without,
    /// the layout's (here 1280 px over 217.5 mm: 5.885 px/mm).
    @Test func distancesInMillimetresOrLayoutUnits() throws {
        let dir = try folder(["mine.yaml": """
            devices: [{match: {kind: touchscreen}, output: [1280, 800]}]
            layout:
              id: screen
              frame: [0, 0, 1280, 800]
              gestures: [{kind: pan}]
            """])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func moved(_ statement: String) -> String? {
            var runner = SynthRunner(scriptPath: nil, outputPath: dir + "/out.yaml")
            runner.statements = [statement]
            runner.configPath = dir + "/mine.yaml"
            var out = CapturedOutput()
            guard runner.run(output: &out) == 0 else { return nil }
            return replay(dir).split(separator: "\n").last.map { String($0.split(separator: "  ").last ?? "") }
        }
        // Positions land on the made-up device's 0.1 mm units: 300 px comes back as 300.1.
        #expect(moved("drag from 640,400 to 340,400") == "moved -300.1, 0.0")
        #expect(moved("swipe left from 640,400 by 50 mm") == "moved -294.3, 0.0")
        #expect(moved("swipe left from 640,400 by 300") == "moved -300.1, 0.0")
    }
}
