import Foundation
import GestureProtocol
import GestureReplay
import GestureRuntime
import Gestures
import Testing
import TouchEvents
import TouchRecordings

let recordings: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path + "/fixtures/recordings/"
}()

@Suite("JSON values")
struct JSONValueTests {
    @Test func valuesParseInOrderAndWriteBack() throws {
        let text = #"{"b": [1, -2.5, 1e3, true, false, null], "a": {"s": "tab\there \u00e9 \ud83d\ude00 \"q\" \\ /"}}"#
        let v = try JSONValue.parse(text)
        #expect(v.objectValue?.keys == ["b", "a"])
        #expect(v.objectValue?["b"] == .array([.number(1), .number(-2.5), .number(1000), .bool(true), .bool(false), .null]))
        #expect(v.objectValue?["a"]?.objectValue?["s"]?.stringValue == "tab\there é 😀 \"q\" \\ /")
        #expect(v.text == #"{"b": [1, -2.5, 1000, true, false, null], "a": {"s": "tab\there é 😀 \"q\" \\ /"}}"#)
        #expect(try JSONValue.parse(v.text) == v)
    }

    @Test(arguments: [
        ("", "byte 1: the text ends where a value should be"),
        ("{\"a\": 1,}", "byte 9: expected a key in quotes"),
        ("{\"a\" 1}", "byte 6: expected ':' after the key \"a\""),
        ("{\"a\": 1, \"a\": 2}", "byte 16: the key \"a\" appears twice"),
        ("[1 2]", "byte 4: expected ',' or ']' in a list"),
        ("01", "byte 2: text after the JSON value"),
        ("-", "byte 2: a number needs digits"),
        ("1.", "byte 3: a number needs digits after its point"),
        ("1e400", "byte 1: the number 1e400 is out of range"),
        ("NaN", "byte 1: unexpected character 'N'"),
        ("\"a\u{1}\"", "byte 3: a control character inside a string (write it as \\n, \\t or \\u)"),
        ("\"\\x\"", "byte 3: unknown escape \\'x'"),
        ("\"\\ud800\"", "byte 8: a lone surrogate in \\u escapes"),
        ("\"abc", "byte 5: the text ends inside a string"),
        ("tru", "byte 4: expected true"),
    ])
    func badTextSaysWhereAndWhat(_ text: String, _ message: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func invalidUTF8AndDeepNestingAreRefused() {
        #expect(throws: JSONParseError(offset: 4, message: "text that is not valid UTF-8")) { try JSONValue.parse([0x22, 0x61, 0xFF, 0x62, 0x22]) }
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(throws: Never.self) { try JSONValue.parse(deepest) }
        #expect(throws: JSONParseError(offset: 32, message: "nested more than 32 levels deep")) { try JSONValue.parse(deep) }
    }
}

@Suite("The gesture event model")
struct GestureEventTests {
    /// Every gesture of real recordings: its line reads back as the same event, and an action's
    /// environment has the same values under GESTURE_ names — the three outputs cannot drift.
    @Test(arguments: [
        "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
        "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events",
    ])
    func aLineReadsBackAsTheSameEvent(_ name: String) throws {
        let replay = try RecordingReplay.run(path: recordings + name)
        #expect(!replay.gestures.isEmpty)
        for g in replay.gestures {
            let event = GestureEvent(g, origin: replay.device.firstEventTime)
            let line = g.jsonLine(origin: replay.device.firstEventTime)
            #expect(line == event.jsonLine())
            let read = try GestureEvent(json: try JSONValue.parse(line.dropLast().utf8).objectValue!)
            #expect(read == event)
            guard case .gesture(let viaSocket) = try ServiceMessage.parse(ServiceMessage.gesture(event).jsonLine.dropLast().utf8) else {
                Issue.record("not a gesture message")
                continue
            }
            #expect(viaSocket == event)
            let env = event.environment
            #expect(env.count == event.fields.count)
            for f in event.fields {
                let plain = f.json.hasPrefix("\"") ? (try JSONValue.parse(f.json).stringValue ?? "") : f.json
                #expect(env["GESTURE_" + f.key.uppercased()] == plain)
            }
        }
    }

    /// docs/protocol.md's table of a gesture message's keys lists the keys the writer and the
    /// reader walk (GestureEvent.keys), in their order.
    @Test func theDocumentedKeysAreTheMessagesKeys() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let page = try String(contentsOf: url.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let table = page.components(separatedBy: "| key | meaning |")[1].components(separatedBy: "\n\n")[0]
        var documented: [String] = []
        for row in table.split(separator: "\n") where row.hasPrefix("| `") {
            let keys = row.split(separator: "|")[0]
            documented += keys.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        #expect(documented == GestureEvent.keyNames)
    }

    /// A line read back gives its kind's typed values — the core's structs, as written (two
    /// decimals) — and none of another kind's.
    @Test func aLineReadBackGivesItsKindsTypedValues() throws {
        func read(_ values: GestureValues) throws -> GestureEvent {
            let g = Gesture(values: values, state: .recognized, time: .zero, startTime: .zero, region: "r", touches: 2,
                            location: .zero, recognizer: "test")
            return try GestureEvent(json: try JSONValue.parse(g.jsonLine(origin: .zero).dropLast().utf8).objectValue!)
        }
        let swipe = GestureValues.Swipe(direction: .upLeft, translation: Point(x: -12.345, y: -20), velocity: Point(x: -300, y: -410.5),
                                        decidedAfterMillimetres: 8.04, decidedAfter: .milliseconds(62.5))
        #expect(try read(.swipe(swipe)).swipe == GestureValues.Swipe(
            direction: .upLeft, translation: Point(x: -12.35, y: -20), velocity: Point(x: -300, y: -410.5),
            decidedAfterMillimetres: 8.0, decidedAfter: .microseconds(62_500)))
        #expect(try read(.tap(.init(taps: 2))).tap == GestureValues.Tap(taps: 2))
        #expect(try read(.pan(.init(translation: Point(x: 1, y: 2), velocity: Point(x: 3, y: 4)))).pan
            == GestureValues.Pan(translation: Point(x: 1, y: 2), velocity: Point(x: 3, y: 4)))
        #expect(try read(.rotate(.init(degrees: 30, degreesPerSecond: -90))).rotate == GestureValues.Rotate(degrees: 30, degreesPerSecond: -90))
        let edge = GestureValues.EdgePan(edge: .right, translation: Point(x: -5, y: 0), velocity: Point(x: -50, y: 0))
        #expect(try read(.edgePan(edge)).edgePan == edge)
        // Protocol 1.1's: a long press's duration (to 0.1 ms) and a pinch's span.
        #expect(try read(.longPress(.init(duration: .microseconds(812_345)))).longPress
            == GestureValues.LongPress(duration: .microseconds(812_300)))
        #expect(try read(.pinch(.init(scale: 1.5, spanMillimetres: 31.234, scalePerSecond: 2))).pinch
            == GestureValues.Pinch(scale: 1.5, spanMillimetres: 31.23, scalePerSecond: 2))
        let tap = try read(.tap(.init(taps: 1)))
        #expect(tap.pan == nil && tap.swipe == nil && tap.rotate == nil && tap.edgePan == nil && tap.longPress == nil && tap.pinch == nil)
        // A 1.0 service's pinch has no span: no typed values, rather than made-up ones; read with
        // partial values (a log of another recognizer, judged by its scale alone), the span is 0.
        let line = #"{"time": 0.5, "kind": "pinch", "state": "changed", "region": "r", "touches": 2, "x": 1.0, "y": 2.0, "scale": 1.5, "scale_velocity": 2.0}"#
        let object = try JSONValue.parse(line).objectValue!
        #expect(try GestureEvent(json: object).pinch == nil)
        #expect(try GestureEvent(json: object).values == nil)
        #expect(try GestureEvent(json: object, partialValues: true).pinch == GestureValues.Pinch(scale: 1.5, spanMillimetres: 0, scalePerSecond: 2))
        // Without its kind's own value, a line has none even so.
        let began = #"{"time": 0.5, "kind": "pan", "state": "began", "region": "r", "touches": 1, "x": 1.0, "y": 2.0, "vx": 3.0}"#
        #expect(try GestureEvent(json: try JSONValue.parse(began).objectValue!, partialValues: true).values == nil)
    }

    @Test func pinchAndRotateNameTheirRates() {
        var g = Gesture(values: .pinch(.init(scale: 1.23456, spanMillimetres: 30, scalePerSecond: 0.5)), state: .changed,
                        time: Instant.zero + .milliseconds(250), startTime: Instant.zero, region: "map", touches: 2,
                        location: Point(x: 10, y: 20), recognizer: "pinch")
        #expect(g.jsonLine(origin: .zero)
            == #"{"time": 0.25, "kind": "pinch", "state": "changed", "region": "map", "touches": 2, "x": 10.0, "y": 20.0, "scale": 1.2346, "scale_velocity": 0.5, "span_mm": 30.0}"# + "\n")
        g.values = .rotate(.init(degrees: -12.345, degreesPerSecond: -40))
        #expect(GestureEvent(g, origin: .zero).environment["GESTURE_ROTATION_VELOCITY"] == "-40.0")
        #expect(GestureEvent(g, origin: .zero).environment["GESTURE_ROTATION"] == "-12.35")
    }

    @Test func aLineAppendedToABufferIsTheLineAndEscapesItsText() {
        var g = Gesture(values: .tap(.init(taps: 1)), state: .recognized, time: Instant(microseconds: 1_500_001), startTime: .zero,
                        region: "say \"hi\"\\\n\u{1}é", touches: 1, location: Point(x: -0.004, y: 3), recognizer: "tap")
        g.device = "Panel"
        let event = GestureEvent(g, origin: .zero)
        var buffer = Array("kept ".utf8)
        event.appendJSONLine(to: &buffer)
        let expected = #"{"time": 1.500001, "device": "Panel", "kind": "tap", "state": "recognized", "region": "say \"hi\"\\\n\u0001é", "touches": 1, "x": 0.0, "y": 3.0, "taps": 1}"# + "\n"
        #expect(String(decoding: buffer, as: UTF8.self) == "kept " + expected)
        #expect(event.jsonLine() == expected)
        #expect(event.jsonLine(prefix: #""type": "gesture""#).hasPrefix(#"{"type": "gesture", "time": 1.500001, "#))
        #expect(event.environment["GESTURE_REGION"] == "say \"hi\"\\\n\u{1}é", "plain text for exec actions")
    }
}

@Suite("Client requests")
struct ClientRequestTests {
    /// What the client library writes, the service reads back as the same request.
    @Test func requestsRoundTrip() throws {
        let requests: [ClientRequest] = [
            .ping, .unsubscribe, .subscribe(EventFilter()), .subscribe(EventFilter(regions: ["a"], kinds: [.tap, .swipe], states: [.recognized], devices: [])),
            .register(RegionRequest(id: "ok", frame: Rect(x: 1, y: 2.5, width: 30, height: 40), hitInsets: EdgeInsets(top: -5, left: -5, bottom: -5, right: -5),
                                    parent: "panel", gestures: [GestureRequest(kind: .tap, numbers: [.taps: 2]),
                                                                GestureRequest(kind: .swipe, directions: [.left, .up]),
                                                                GestureRequest(kind: .edgePan, edges: [.right])])),
            .update(RegionUpdate(id: "ok", frame: Rect(x: 0, y: 0, width: 1, height: 1), hidden: true)),
            .unregister("ok"), .context(["app": "org.mozilla.firefox", "window": "main"]),
        ]
        for (i, r) in requests.enumerated() {
            let m = ClientMessage(id: .number(Double(i)), r)
            #expect(try ClientMessage.parse(m.jsonLine.dropLast().utf8) == m)
        }
        #expect(ClientMessage(id: 7, .unregister("ok")).jsonLine == #"{"type": "unregister", "id": 7, "region": "ok"}"# + "\n")
    }

    /// Ignored, and named in the reply: a misspelt field shows.
    @Test func unknownFieldsAreIgnoredAndNamed() throws {
        let m = try ClientMessage.parse(#"{"type": "register", "since": 2, "region": {"id": "a", "frame": [0, 0, 1, 1], "colour": "red", "gestures": [{"kind": "tap", "tapz": 2}]}}"#.utf8)
        #expect(m.request == .register(RegionRequest(id: "a", frame: Rect(x: 0, y: 0, width: 1, height: 1), gestures: [GestureRequest(kind: .tap)])))
        #expect(m.ignored == ["since", "region.colour", "region.gestures[0].tapz"])
        let u = try ClientMessage.parse(#"{"type": "update", "region": {"id": "a", "gestures": []}}"#.utf8)
        #expect(u.ignored == ["region.gestures"], "an update cannot change gestures")
        #expect(ServiceMessage.reply(id: 3, request: "update", ignored: u.ignored).jsonLine
            == #"{"type": "reply", "id": 3, "request": "update", "ok": true, "ignored": ["region.gestures"]}"# + "\n")
    }

    @Test func filtersMatchEveryListGiven() {
        let tap = GestureEvent(kind: .tap, state: .recognized, region: "ok", touches: 1, x: 0, y: 0)
        #expect(EventFilter().matches(tap))
        #expect(EventFilter(kinds: [.tap], states: [.recognized]).matches(tap))
        #expect(!EventFilter(kinds: [.pan]).matches(tap))
        #expect(!EventFilter(regions: []).matches(tap), "an empty list matches nothing")
        #expect(!EventFilter(devices: ["Pad"]).matches(tap))
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self = .number(Double(value))
    }
}

@Suite("Line framing")
struct LineFramerTests {
    @Test func linesAcrossReadsCarriageReturnsAndTooLongOnes() {
        var f = LineFramer(maximumBytes: 8)
        #expect(f.feed(Array("ab".utf8)) == [])
        #expect(f.feed(Array("c\r\n\nde\n".utf8)) == [.line(Array("abc".utf8)), .line([]), .line(Array("de".utf8))])
        // Too long within one read, then too long across reads: each reported once, skipped to its newline.
        #expect(f.feed(Array("123456789\nok\n".utf8)) == [.tooLarge, .line(Array("ok".utf8))])
        #expect(f.feed(Array("123456789".utf8)) == [.tooLarge])
        #expect(f.feed(Array("0123456789".utf8)) == [])
        #expect(f.feed(Array("9\nnext\n".utf8)) == [.line(Array("next".utf8))])
    }

    /// Lines of every length up to past the limit, fed in pieces of every size and taken one
    /// at a time as they come (the buffer compacting between): the same lines as cut at once.
    @Test func linesFedInPiecesAreTheLinesOfTheWhole() {
        var seed: UInt64 = 12345
        func random(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        var text: [UInt8] = []
        var expected: [LineFramer.Line] = []
        for _ in 0..<300 {
            let length = random(80)
            text += Array(repeating: UInt8(ascii: "a") + UInt8(length % 26), count: length) + [UInt8(ascii: "\n")]
            expected.append(length > 64 ? .tooLarge : .line(Array(repeating: UInt8(ascii: "a") + UInt8(length % 26), count: length)))
        }
        var f = LineFramer(maximumBytes: 64)
        var got: [LineFramer.Line] = []
        var at = 0
        while at < text.count {
            let n = min(text.count - at, 1 + random(100))
            f.append(text[at..<(at + n)])
            at += n
            for _ in 0..<random(3) {
                if let line = f.next() { got.append(line) }
            }
        }
        while let line = f.next() { got.append(line) }
        #expect(got == expected)
        #expect(f.pendingBytes == 0)
    }
}
