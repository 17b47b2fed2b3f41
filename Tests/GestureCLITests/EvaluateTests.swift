import DeviceQuirks
import Foundation
import GestureCLI
import GestureRuntime
import GestureEvaluation
import Gestures
import Testing
import TouchEvents

/// The evaluator: its rules on made-up gesture logs, its bad input, and the floors the labelled
/// corpus must not fall below.
@Suite("gestured evaluate")
struct EvaluateTests {
    func g(_ kind: GestureKind, _ state: GestureState, touches: Int, at ms: Double = 100, taps: Int? = nil,
           translation: Point? = nil, scale: Double? = nil, direction: SwipeDirection? = nil) -> Gesture {
        let values: GestureValues = switch kind {
        case .tap: .tap(.init(taps: taps ?? 1))
        case .longPress: .longPress(.init(duration: .milliseconds(ms)))
        case .pan: .pan(.init(translation: translation ?? .zero, velocity: .zero))
        case .swipe: .swipe(GestureValues.Swipe(direction: direction ?? .right, translation: translation ?? .zero, velocity: .zero,
                                                decidedAfterMillimetres: 0, decidedAfter: .zero))
        case .pinch: .pinch(.init(scale: scale ?? 1, spanMillimetres: 0, scalePerSecond: 0))
        case .rotate: .rotate(.init(degrees: 0, degreesPerSecond: 0))
        case .edgePan: .edgePan(.init(edge: .left, translation: translation ?? .zero, velocity: .zero))
        case .custom: .custom
        }
        return Gesture(values: values, state: state, time: .zero + .milliseconds(ms), startTime: .zero, region: "root",
                       touches: touches, location: .zero, recognizer: kind.rawValue)
    }

    func judge(_ label: String, touches: Int? = nil, repetitions: Int? = nil, direction: String? = nil,
               touchpad: Bool = false, _ gestures: [Gesture]) -> Judgement {
        Judgement.judge(EvaluationLabel(file: "f", device: "d", label: label, touches: touches, repetitions: repetitions,
                                        direction: direction),
                        gestures: gestures, stroke: .zero...(.zero + .milliseconds(400)), touchpad: touchpad)
    }

    /// On a touchpad one finger is the pointer: a one-finger swipe is a false gesture, and a
    /// one-finger swipe label is right as a pan going one of its ways (as a swipe is judged).
    @Test func oneFingerOnATouchpadIsJudgedAsThePointer() {
        let pan = [g(.pan, .began, touches: 1, at: 100), g(.pan, .ended, touches: 1, at: 300, translation: Point(x: 61.5, y: -14.8))]
        let swipe = [g(.swipe, .recognized, touches: 1, at: 120, direction: .right)]
        // A pointer's stroke with a swipe behind its pan: right on a touchscreen, not on a touchpad.
        #expect(judge("pan", touches: 1, pan + swipe).right)
        #expect(judge("pan", touches: 1, touchpad: true, pan + swipe).why == "1 false: swipe/1")
        // A one-finger swipe label on a touchpad: the pan, along one of the diagonal's ways.
        #expect(judge("swipe", touches: 1, direction: "up-right", touchpad: true, pan) == Judgement(
            right: true, recognized: "pan/1", falseGestures: [], why: "", decisionShare: nil))
        #expect(judge("swipe", touches: 1, direction: "up-left", touchpad: true, pan).why == "panned 61.5, -14.8 mm: not up-left")
        #expect(judge("swipe", touches: 1, direction: "up-right", pan).why == "no swipe")
        // Two fingers are no pointer: their swipe is still a swipe.
        let two = [g(.swipe, .recognized, touches: 2, at: 120, direction: .up)]
        #expect(judge("swipe", touches: 2, direction: "up", touchpad: true, two).right)
    }

    /// A log's pan or pinch that only began says nothing of its movement or scale: the verdict
    /// says so, and takes nothing for it.
    @Test func aLoggedStartWithoutItsValuesIsNotJudgedRight() {
        let label = { (name: String, direction: String?) in
            EvaluationLabel(file: "f", device: "d", label: name, touches: 2, direction: direction)
        }
        func logged(_ kind: GestureKind) -> JudgedGesture {
            JudgedGesture(kind: kind, state: .began, time: .zero, startTime: .zero, touches: 2, region: "root", recognizer: "log",
                          location: .zero)
        }
        #expect(Judgement.judge(label("pan", "down"), gestures: [logged(.pan)], stroke: nil).why
            == "the pan's movement is not known: not down")
        #expect(Judgement.judge(label("pinch-out", nil), gestures: [logged(.pinch)], stroke: nil).why
            == "the pinch's scale is not known")
        var moved = logged(.pan)
        moved.values = .pan(.init(translation: Point(x: 1, y: 20), velocity: .zero))
        #expect(Judgement.judge(label("pan", "down"), gestures: [logged(.pan), moved], stroke: nil).right)
    }

    @Test func tapsMustAddUpAndBeAlone() {
        let taps = [g(.tap, .recognized, touches: 1, taps: 2), g(.tap, .recognized, touches: 1, taps: 1)]
        #expect(judge("tap", touches: 1, repetitions: 3, taps).right)
        #expect(judge("tap", touches: 1, repetitions: 4, taps).why == "3 taps, 4 expected")
        #expect(judge("tap", touches: 2, repetitions: 3, taps).why == "0 taps, 3 expected; 2 false: multi-tap/1, tap/1")
        let withPan = taps + [g(.pan, .began, touches: 1)]
        #expect(judge("tap", touches: 1, repetitions: 3, withPan) == Judgement(
            right: false, recognized: "multi-tap/1", falseGestures: ["pan/1"], why: "1 false: pan/1", decisionShare: nil))
        #expect(judge("multi-tap", touches: 1, taps).right)
        #expect(judge("multi-tap", touches: 1, [g(.tap, .recognized, touches: 1, taps: 1)]).why == "no multi-tap")
    }

    @Test func aPanGoesTheLabelledWayWithNoTransformBesideIt() {
        let pan = [g(.pan, .began, touches: 2), g(.pan, .ended, touches: 2, translation: Point(x: 2, y: 30))]
        #expect(judge("pan", touches: 2, direction: "down", pan).right)
        #expect(judge("pan", touches: 2, direction: "up", pan).why == "panned 2.0, 30.0 mm: not up")
        #expect(judge("pan", touches: 2, direction: "down-right", pan).why == "panned 2.0, 30.0 mm: not down-right")
        let rotate = pan + [g(.rotate, .began, touches: 2)]
        #expect(judge("pan", touches: 2, direction: "down", rotate).falseGestures == ["rotate/2"])
        let palm = [g(.pan, .began, touches: 3), g(.pan, .ended, touches: 3, translation: Point(x: 0, y: 30))]
        #expect(judge("pan", touches: 2, direction: "down", palm).why == "1 false: pan/3")
        #expect(judge("pan", touches: 1, [g(.longPress, .began, touches: 1)]).why == "no pan; 1 false: long-press/1")
        // A one-finger pan left, then (a finger landed) a two-finger pan down: the direction is
        // the two-finger pan's.
        var scroll = [g(.pan, .began, touches: 2, at: 300), g(.pan, .ended, touches: 2, at: 400, translation: Point(x: 1, y: 20))]
        for i in scroll.indices { scroll[i].startTime = .zero + .milliseconds(200) }
        let pointerFirst = [g(.pan, .began, touches: 1), g(.pan, .ended, touches: 1, at: 200, translation: Point(x: -40, y: 0))] + scroll
        #expect(judge("pan", touches: 2, direction: "down", pointerFirst).why == "1 false: pan/1")
        #expect(judge("pan", touches: 2, direction: "left", pointerFirst).why == "panned 1.0, 20.0 mm: not left; 1 false: pan/1")
        // A label whose prompt had a finger move first names that pan in `also`.
        let also = Judgement.judge(EvaluationLabel(file: "f", device: "d", label: "pan", touches: 2, direction: "down", also: ["pan/1"]),
                                   gestures: pointerFirst, stroke: nil)
        #expect(also.right && also.falseGestures == [])
    }

    @Test func aHoldThatGaveWayIsTheRestBeforeAStrokeOrAClickButNotAPalmsGesture() {
        // A touchpad's hold: began while the finger rested, cancelled when it moved; the pan
        // follows.
        let hold = [g(.longPress, .began, touches: 1, at: 500), g(.longPress, .cancelled, touches: 1, at: 620)]
        let pan = [g(.pan, .began, touches: 1, at: 640), g(.pan, .ended, touches: 1, at: 700, translation: Point(x: 20, y: 0))]
        let restThenDrag = judge("pan", touches: 1, direction: "right", hold + pan)
        #expect(restThenDrag.right && restThenDrag.recognized == "pan/1" && restThenDrag.falseGestures == [])
        #expect(judge("negative-click", hold).right)
        // A hold that ended (lifted still) before the stroke was one of its own.
        let ended = [g(.longPress, .began, touches: 1, at: 500), g(.longPress, .ended, touches: 1, at: 600)]
        #expect(judge("pan", touches: 1, direction: "right", ended + pan).why == "1 false: long-press/1")
        // A palm's hold is a false gesture, cancelled or not; so is a tap label's.
        #expect(judge("negative-palm", hold).why == "1 false: long-press/1")
        #expect(judge("tap", touches: 1, hold).why == "no tap; 1 false: long-press/1")
        // Changes between began and cancelled do not hide the cancel.
        let changed = [hold[0], g(.longPress, .changed, touches: 1, at: 550), hold[1]]
        #expect(judge("pan", touches: 1, direction: "right", changed + pan).right)
    }

    /// `--by-device`: each device's own class table, and each touch surface's where a device's
    /// recordings were made on more than one.
    @Test func eachDeviceHasItsOwnTable() {
        var report = EvaluationReport()
        func label(_ device: String, _ name: String, touches: Int? = 1) -> EvaluationLabel {
            EvaluationLabel(file: "f", device: device, label: name, touches: touches)
        }
        let right = Judgement(right: true, recognized: "tap/1", falseGestures: [], why: "", decisionShare: nil)
        let wrong = Judgement(right: false, recognized: "pan/1", falseGestures: ["pan/1"], why: "1 false: pan/1", decisionShare: nil)
        report.add(label("alex", "tap"), right, surface: "100.0 x 60.0 mm")
        report.add(label("link", "tap"), right, surface: "102.0 x 68.0 mm")
        report.add(label("link", "tap"), wrong, surface: "106.7 x 68.0 mm")
        #expect(report.deviceTables == """

            alex: 1 recordings, 1 right (100.0%)
            class            files  right  recall  precision  false gestures
            tap/1                1      1  100.0%     100.0%               0

            link: 2 recordings, 1 right (50.0%)
            class            files  right  recall  precision  false gestures
            tap/1                2      1   50.0%     100.0%               1

            link on 102.0 x 68.0 mm: 1 recordings, 1 right (100.0%)
            class            files  right  recall  precision  false gestures
            tap/1                1      1  100.0%     100.0%               0

            link on 106.7 x 68.0 mm: 1 recordings, 0 right (0.0%)
            class            files  right  recall  precision  false gestures
            tap/1                1      0    0.0%          -               1

            """)
        #expect(report.deviceTablesJSON == #"{"alex": {"tap/1": {"files": 1, "right": 1, "false_gestures": 0}}, "#
            + #""link": {"tap/1": {"files": 2, "right": 1, "false_gestures": 1}}, "#
            + #""link on 102.0 x 68.0 mm": {"tap/1": {"files": 1, "right": 1, "false_gestures": 0}}, "#
            + #""link on 106.7 x 68.0 mm": {"tap/1": {"files": 1, "right": 0, "false_gestures": 1}}}"#)
    }

    @Test func swipesAndTheirDecisionTime() {
        let swipe = [g(.pan, .began, touches: 1, at: 40), g(.swipe, .recognized, touches: 1, at: 100, direction: .up)]
        let right = judge("swipe", touches: 1, direction: "up-right", swipe)
        #expect(right.right && right.decisionShare == 0.25)
        // The stroke was a swipe: its column is the swipe, not the pan that began first.
        #expect(right.recognized == "swipe/1")
        #expect(judge("pan", touches: 1, swipe).recognized == "swipe/1")
        let panThenTap = [g(.pan, .began, touches: 1, at: 40), g(.tap, .recognized, touches: 1, at: 100, taps: 1)]
        #expect(judge("pan", touches: 1, panThenTap).recognized == "pan/1")
        let panThenTwoFingerSwipe = [g(.pan, .began, touches: 1, at: 40), g(.swipe, .recognized, touches: 2, at: 100, direction: .up)]
        #expect(judge("pan", touches: 1, panThenTwoFingerSwipe).recognized == "pan/1")
        #expect(judge("swipe", touches: 1, direction: "down", swipe).why == "swiped up, not down")
    }

    @Test func negativesMustStayQuietAndPinchesGoTheirWay() {
        #expect(judge("negative-click", []).right)
        #expect(judge("negative-palm", [g(.tap, .recognized, touches: 1, taps: 1)]).why == "1 false: tap/1")
        let pinch = [g(.pinch, .began, touches: 2), g(.pinch, .ended, touches: 2, scale: 1.4)]
        #expect(judge("pinch-out", touches: 2, pinch).right)
        #expect(judge("pinch-in", touches: 2, pinch).why == "scale 1.4")
    }

    @Test func aDirectionIsMostlyAlongIt() {
        #expect(Judgement.matches(Point(x: 10, y: -9), direction: "right"))
        #expect(!Judgement.matches(Point(x: 10, y: -11), direction: "right"))
        #expect(Judgement.matches(Point(x: 10, y: -8), direction: "up-right"))
        #expect(!Judgement.matches(Point(x: 10, y: -2), direction: "up-right"))
        #expect(!Judgement.matches(.zero, direction: "up"))
    }

    @Test(arguments: [
        ("[{\"file\": \"a.evemu\", \"device\": \"x\"}]", "record 1: \"label\" is missing"),
        ("[{\"file\": \"a.evemu\", \"device\": \"x\", \"label\": \"tap\", \"touches\": \"two\"}]", "record 1, \"touches\": expected a whole number"),
        ("[{\"file\": \"a.evemu\", \"device\": \"x\", \"label\": \"pan\", \"also\": [\"pan-1\"]}]", "record 1, \"also\": pan-1 is not kind/touches"),
        ("{\"file\": 1}", "not a list of records"),
        ("not json", "not JSON, or not a list of records"),
    ])
    func badLabelsFilesSayWhatIsWrong(_ text: String, _ message: String) throws {
        let path = NSTemporaryDirectory() + "labels-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var out = CapturedOutput()
        #expect(EvaluateRunner(folder: "/nonexistent", labelsPath: path).run(output: &out) == 2)
        #expect(out.standardError == "\(path): \(message)\n")
        #expect(out.standardOutput == "")
    }

    @Test func aMissingRecordingNamesItself() throws {
        let folder = NSTemporaryDirectory() + "corpus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "[{\"file\": \"gone.evemu\", \"device\": \"x\", \"label\": \"tap\", \"touches\": 1}]"
            .write(toFile: folder + "/labels.json", atomically: true, encoding: .utf8)
        var out = CapturedOutput()
        #expect(EvaluateRunner(folder: folder).run(output: &out) == 2)
        #expect(out.standardError.hasPrefix("\(folder)/gone.evemu"))
    }

    /// A labels file may give one device name to recordings of different pads (the link board
    /// was made with two): the device's line says how each surface size did.
    @Test func aDeviceWithRecordingsOfTwoSurfacesIsShownPerSurface() throws {
        let folder = fixture("recordings/evemu-devices/touchscreens")
        let labels = NSTemporaryDirectory() + "labels-\(UUID().uuidString).json"
        try """
            [{"file": "Atmel maXTouch Touchscreen.1-finger-fast-taps.events", "device": "screens", "label": "tap", "touches": 1, "repetitions": 9},
             {"file": "Atmel maXTouch Touchscreen.4-finger-drag-down.events", "device": "screens", "label": "pan", "touches": 4, "direction": "down"},
             {"file": "EP0430M09.1-finger-drag-up-down.events", "device": "screens", "label": "tap", "touches": 1},
             {"file": "EP0430M09.2-fingers-touch-release.events", "device": "ep", "label": "tap", "touches": 2}]
            """.write(toFile: labels, atomically: true, encoding: .utf8)
        var out = CapturedOutput()
        #expect(EvaluateRunner(folder: folder, labelsPath: labels).run(output: &out) == 0)
        let line = out.standardOutput.split(separator: "\n").first { $0.hasPrefix("by device: ") }
        #expect(line == "by device: ep 0/1 (0.0%), screens 1/3 (33.3%; on 211.4 x 126.7 mm 1/2, 50.0%; on 338.4 x 202.9 mm 0/1, 0.0%)")
        let page = NSTemporaryDirectory() + "evaluation-\(UUID().uuidString).html"
        var withPage = CapturedOutput()
        #expect(EvaluateRunner(folder: folder, labelsPath: labels, htmlPath: page).run(output: &withPage) == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<tr><td>screens</td><td>3</td><td>1 (33.3%)</td></tr>\n"
            + "<tr><td>screens, 211.4 x 126.7 mm</td><td>2</td><td>1 (50.0%)</td></tr>\n"
            + "<tr><td>screens, 338.4 x 202.9 mm</td><td>1</td><td>0 (0.0%)</td></tr>\n"))
        var json = CapturedOutput()
        #expect(EvaluateRunner(folder: folder, labelsPath: labels, json: true).run(output: &json) == 0)
        #expect(json.standardOutput.contains(
            "\"devices\": {\"ep\": {\"files\": 1, \"right\": 0}, \"screens\": {\"files\": 3, \"right\": 1, \"surfaces\": "
                + "{\"211.4 x 126.7 mm\": {\"files\": 2, \"right\": 1}, \"338.4 x 202.9 mm\": {\"files\": 1, \"right\": 0}}}}"))
    }

    @Test func theWebPageDrawsTheMatrixAndEveryWrongRecording() throws {
        let folder = fixture("recordings/evemu-devices/touchscreens")
        let labels = NSTemporaryDirectory() + "labels-\(UUID().uuidString).json"
        try """
            [{"file": "Atmel maXTouch Touchscreen.1-finger-fast-taps.events", "device": "atmel", "label": "tap", "touches": 1, "repetitions": 9},
             {"file": "Atmel maXTouch Touchscreen.4-finger-drag-down.events", "device": "atmel", "label": "pan", "touches": 4, "direction": "up"}]
            """.write(toFile: labels, atomically: true, encoding: .utf8)
        let page = NSTemporaryDirectory() + "evaluation-\(UUID().uuidString).html"
        var out = CapturedOutput()
        #expect(EvaluateRunner(folder: folder, labelsPath: labels, htmlPath: page).run(output: &out) == 0)
        #expect(out.standardOutput.hasPrefix("2 recordings evaluated, 1 right (50.0%)\n"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<h2>Wrong (1)</h2>"))
        #expect(html.contains("<h3>Atmel maXTouch Touchscreen.4-finger-drag-down.events</h3>"))
        #expect(html.contains("expected <b>pan/4 up</b>; recognized first <b>pan/3</b>"))
        // The heat map and the wrong recording's trace (the right one is not drawn).
        #expect(html.components(separatedBy: "<svg xmlns").count - 1 == 2)
        #expect(!html.contains("<?xml"))
    }

    /// Another recognizer's gestures, written as `replay --json` lines, are judged by the same
    /// rules as the replay's own: here a log that gets both recordings right, where the replay
    /// gets one.
    @Test func aGestureLogIsJudgedInsteadOfTheReplay() throws {
        let folder = fixture("recordings/evemu-devices/touchscreens")
        let (labels, logs) = try Self.atmelLabelsAndLogs()
        try (1...9).map { "{\"time\": \(Double($0) * 0.3), \"kind\": \"tap\", \"state\": \"recognized\", \"region\": \"root\", \"touches\": 1, \"x\": 1, \"y\": 2, \"taps\": 1}\n" }
            .joined().write(toFile: logs + "/Atmel maXTouch Touchscreen.1-finger-fast-taps.events.jsonl", atomically: true, encoding: .utf8)
        try """
            {"time": 0.5, "kind": "pan", "state": "began", "region": "root", "touches": 4, "x": 1, "y": 2, "dx": 0, "dy": 3}

            {"time": 0.9, "kind": "pan", "state": "ended", "region": "root", "touches": 4, "x": 1, "y": 2, "dx": 1.5, "dy": -40}
            """.write(toFile: logs + "/Atmel maXTouch Touchscreen.4-finger-drag-down.events.jsonl", atomically: true, encoding: .utf8)
        var replayed = CapturedOutput()
        #expect(EvaluateRunner(folder: folder, labelsPath: labels).run(output: &replayed) == 0)
        #expect(replayed.standardOutput.hasPrefix("2 recordings evaluated, 1 right (50.0%)\n"))
        var out = CapturedOutput()
        #expect(EvaluateRunner(folder: folder, labelsPath: labels, gesturesFolder: logs).run(output: &out) == 0)
        #expect(out.standardOutput.hasPrefix("2 recordings evaluated, 2 right (100.0%)\n"), "\(out.standardOutput)")
    }

    @Test(arguments: [
        ("{\"time\": 0.1, \"kind\": \"tap\"}", ":1: state is missing: it must be text"),
        ("\n{\"time\": 0.1, \"kind\": \"wave\", \"state\": \"recognized\", \"region\": \"root\", \"touches\": 1, \"x\": 0, \"y\": 0}",
         ":2: kind is \"wave\", which is not one of: tap, long-press, pan, swipe, pinch, rotate, edge-pan, custom"),
        ("tap at 0.1 s", ":1: not JSON: "),
        ("[1]", ":1: a gesture must be a JSON object, not a list"),
        ("{\"time\": -4, \"kind\": \"tap\", \"state\": \"recognized\", \"region\": \"root\", \"touches\": 1, \"x\": 0, \"y\": 0}",
         ":1: \"time\" must be seconds from the recording's start, not -4.0"),
        ("{\"time\": 2e9, \"kind\": \"tap\", \"state\": \"recognized\", \"region\": \"root\", \"touches\": 1, \"x\": 0, \"y\": 0}",
         ":1: time must be between -1000000000.0 and 1000000000.0, not 2000000000"),
        ("{\"time\": \"soon\", \"kind\": \"tap\", \"state\": \"recognized\", \"region\": \"root\", \"touches\": 1, \"x\": 0, \"y\": 0}",
         ":1: time "),
        ("{\"time\": 0.1, \"kind\": \"tap\", \"state\": \"recognized\", \"region\": \"root\", \"touches\": 1, \"x\": 0, \"y\": 0, \"taps\": 1}\n"
            + "{\"time\": 0.2, \"kind\": \"swipe\", \"state\": \"recognized\", \"region\": \"root\", \"touches\": 1, \"x\": 0, \"y\": 0}",
         ":2: a swipe needs its \"direction\""),
        ("{\"time\": 0.1, \"kind\": \"edge-pan\", \"state\": \"began\", \"region\": \"root\", \"touches\": 1, \"x\": 0, \"y\": 0}",
         ":1: an edge pan needs its \"edge\""),
        ("{\"time\": 0.1, \"kind\": \"tap\", \"state\": \"recognized\", \"region\": \"root\", \"touches\": 1, \"x\": 0, \"y\": 0}",
         ":1: a tap needs its \"taps\""),
        ("{\"time\": 0.1, \"kind\": \"pan\", \"state\": \"began\", \"region\": \"root\", \"touches\": 2, \"x\": 0, \"y\": 0}\n"
            + "{\"time\": 0.2, \"kind\": \"pan\", \"state\": \"ended\", \"region\": \"root\", \"touches\": 2, \"x\": 0, \"y\": 0, \"dx\": 4}",
         ":2: a pan ended needs its \"dy\""),
        ("{\"time\": 0.1, \"kind\": \"pinch\", \"state\": \"changed\", \"region\": \"root\", \"touches\": 2, \"x\": 0, \"y\": 0}",
         ":1: a pinch changed needs its \"scale\""),
        (nil, ": cannot read the gesture log"),
    ] as [(String?, String)])
    func aBadGestureLogSaysWhereAndLosesNothing(_ text: String?, _ message: String) throws {
        let folder = fixture("recordings/evemu-devices/touchscreens")
        let (labels, logs) = try Self.atmelLabelsAndLogs()
        let log = logs + "/Atmel maXTouch Touchscreen.1-finger-fast-taps.events.jsonl"
        try text?.write(toFile: log, atomically: true, encoding: .utf8)
        var out = CapturedOutput()
        #expect(EvaluateRunner(folder: folder, labelsPath: labels, gesturesFolder: logs).run(output: &out) == 2)
        #expect(out.standardError.hasPrefix(log + message), "\(out.standardError)")
        #expect(out.standardOutput == "")
    }

    /// A labels file for two Atmel touchscreen recordings (the drag labelled the wrong way, so
    /// the replay gets it wrong) and an empty folder for their gesture logs.
    static func atmelLabelsAndLogs() throws -> (labels: String, logs: String) {
        let labels = NSTemporaryDirectory() + "labels-\(UUID().uuidString).json"
        try """
            [{"file": "Atmel maXTouch Touchscreen.1-finger-fast-taps.events", "device": "atmel", "label": "tap", "touches": 1, "repetitions": 9},
             {"file": "Atmel maXTouch Touchscreen.4-finger-drag-down.events", "device": "atmel", "label": "pan", "touches": 4, "direction": "up"}]
            """.write(toFile: labels, atomically: true, encoding: .utf8)
        let logs = NSTemporaryDirectory() + "logs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        return (labels, logs)
    }

    /// The labelled corpora — the ChromiumOS touchpads (link and alex) and the public evemu and
    /// xorg recordings, replayed with libinput 1.22's quirks: no class may fall below its floor in the corpus's floors.json — floors
    /// only go up, as recognition gets better.
    @Test(arguments: [("chromiumos", 483), ("chromiumos/variants", 234), ("recordings", 25)])
    func theCorpusStaysAboveItsFloors(_ corpus: String, files: Int) throws {
        let folder = fixture(corpus)
        let labels = try EvaluateRunner.loadLabels(folder + "/labels.json").get()
        #expect(labels.count == files)
        // With libinput 1.22's quirks, as a live device on Debian 12 gets them.
        let quirks = QuirksDatabase.load(directory: fixture("quirks/libinput-1.22.1"), overrides: nil)
        let report = try EvaluateRunner.evaluate(labels, folder: folder, quirks: quirks)
        let floors = try JSONDecoder().decode([String: Int].self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/floors.json")))
        let classes = Dictionary(uniqueKeysWithValues: report.classes.map { ($0.name, $0.figures) })
        #expect(Set(floors.keys) == Set(classes.keys))
        for (name, floor) in floors.sorted(by: { $0.key < $1.key }) {
            let right = classes[name]?.right ?? 0
            #expect(right >= floor, "\(name): \(right) right, below its floor of \(floor)")
            if right > floor { print("evaluate: \(name) now \(right) right: raise its floor from \(floor)") }
        }
        #expect(report.entries.count + report.skipped.count == files)
    }
}
