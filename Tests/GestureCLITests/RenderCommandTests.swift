import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GestureCLI
import Testing

/// What an SVG holds, read back through a real XML parser (so it must be well-formed).
final class SVGContents: NSObject, XMLParserDelegate {
    struct Element { var name: String; var attributes: [String: String] }
    var elements: [Element] = []
    var texts: [String] = []
    private var text: String?

    static func parse(_ svg: String) -> SVGContents? {
        let contents = SVGContents()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = contents
        return parser.parse() ? contents : nil
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(Element(name: name, attributes: attributes))
        if name == "text" || name == "title" { text = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if let t = text, name == "text" || name == "title" { texts.append(t) }
        text = nil
    }

    func ids(ofClass cls: String) -> [String] {
        elements.filter { $0.attributes["class"] == cls }.compactMap { $0.attributes["data-id"] }
    }

    var gestureKinds: [String] { elements.compactMap { $0.name == "g" ? $0.attributes["data-kind"] : nil } }
}

func render(_ recording: String, config: String? = nil, to out: String = "-") -> (status: Int32, output: CapturedOutput) {
    var runner = RenderRunner(recordingPath: recording, outputPath: out)
    runner.configPath = config
    var output = CapturedOutput()
    return (runner.run(output: &output), output)
}

@Suite("gestured render")
struct RenderCommandTests {
    @Test func kioskLayoutWithExtendedButtonsAndEveryGesture() throws {
        let (status, out) = render(fixture("synthetic/kiosk-session.yaml"), config: repositoryRoot + "/examples/kiosk.yaml")
        #expect(status == 0)
        #expect(out.standardError == "")
        let svg = try #require(SVGContents.parse(out.standardOutput))
        #expect(svg.elements.first?.name == "svg")
        #expect(svg.ids(ofClass: "region") == ["screen", "photo", "controls", "previous", "play", "next", "volume"])
        #expect(svg.ids(ofClass: "hit-area") == ["previous", "play", "next"])
        #expect(svg.ids(ofClass: "region inactive") == ["settings"])
        #expect(svg.ids(ofClass: "contact") == (1...10).map(String.init))
        #expect(svg.gestureKinds == ["tap", "tap", "tap", "tap", "edge-pan", "edge-pan", "pinch", "pan"])
        let labels = svg.texts.filter { $0.contains("(") }
        #expect(labels == [
            "settings (hidden)",
            "tap (1) in play", "tap (1) in play", "tap (1) in previous", "tap (1) in next",
            "edge-pan from left 200 (1) in screen", "edge-pan from bottom 180 (1) in screen",
            "pinch ×3.0 (2) in photo", "pan 80 (1) in volume",
        ])
        #expect(svg.texts.contains("kiosk-session.yaml — Synthetic Kiosk Touchscreen, 800.0 × 480.0 layout units"))
    }

    @Test func pinchAndRotateLabelledWithTheirFinalValues() throws {
        let (status, out) = render(fixture("synthetic/pinch-rotate.yaml"))
        #expect(status == 0)
        let svg = try #require(SVGContents.parse(out.standardOutput))
        #expect(svg.ids(ofClass: "region") == ["root"])
        #expect(svg.ids(ofClass: "hit-area") == [])
        #expect(svg.gestureKinds == ["pinch", "rotate"])
        #expect(svg.texts.filter { $0.contains("(2)") } == ["pinch ×3.0 (2)", "rotate 60° (2)"])
        // 300 mm across 940 px: the first finger lands 20 mm left of the centre (150, 100) mm.
        let starts = svg.elements.filter { $0.attributes["class"] == "start" }
        #expect(starts.map { [$0.attributes["cx"], $0.attributes["cy"]] } == [["437.3", "343.3"], ["562.7", "343.3"]])
        // Ticks every 100 ms: six on each trace (100 … 600 ms), none on the lift at 620 ms.
        #expect(svg.elements.filter { $0.attributes["class"] == "tick" }.count == 12)
        #expect(svg.elements.filter { $0.attributes["class"] == "end" }.count == 2)
    }

    @Test func cancelledContactsAreCrossed() throws {
        let (status, out) = render(fixture("synthetic/palm-during-touch.yaml"))
        #expect(status == 0)
        let svg = try #require(SVGContents.parse(out.standardOutput))
        #expect(svg.elements.filter { $0.attributes["class"] == "cancelled" }.count == 1)
        #expect(svg.elements.filter { $0.attributes["class"] == "end" }.count == 1)
    }

    @Test func markupInNamesIsEscaped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tricky = dir.appendingPathComponent("a&b <c> \"d\".yaml").path
        try FileManager.default.copyItem(atPath: fixture("synthetic/pinch-rotate.yaml"), toPath: tricky)
        let out = dir.appendingPathComponent("out.svg").path
        let (status, output) = render(tricky, to: out)
        #expect(status == 0)
        #expect(output.standardError == "wrote \(out): 2 contacts, 107 gesture events\n")
        let svg = try #require(SVGContents.parse(try String(contentsOfFile: out, encoding: .utf8)))
        #expect(svg.texts.first == "a&b <c> \"d\".yaml")
    }

    /// The pictures in the README are what the command draws today.
    @Test(arguments: [("pinch-rotate.svg", "synthetic/pinch-rotate.yaml", nil),
                      ("kiosk-session.svg", "synthetic/kiosk-session.yaml", "examples/kiosk.yaml")])
    func documentedPicturesAreCurrent(picture: String, recording: String, config: String?) throws {
        let (status, out) = render(fixture(recording), config: config.map { repositoryRoot + "/" + $0 })
        #expect(status == 0)
        let committed = try String(contentsOfFile: repositoryRoot + "/docs/" + picture, encoding: .utf8)
        #expect(out.standardOutput == committed,
                "regenerate with: gestured render fixtures/\(recording)\(config.map { " --config " + $0 } ?? "") -o docs/\(picture)")
    }

    @Test func badInputSaysWhatIsWrongAndExitsWith2() {
        let missing = render(fixture("synthetic/no-such-file.yaml"))
        #expect(missing.status == 2)
        #expect(missing.output.standardError.hasPrefix(fixture("synthetic/no-such-file.yaml") + ":"))
        #expect(missing.output.standardOutput == "")
        let badConfig = render(fixture("synthetic/pinch-rotate.yaml"), config: fixture("synthetic/pinch-rotate.yaml"))
        #expect(badConfig.status == 2)
        #expect(badConfig.output.standardError.hasPrefix(fixture("synthetic/pinch-rotate.yaml") + ":"))
        let keyboard = render(fixture("synthetic/keyboard-typing.yaml"))
        #expect(keyboard.status == 2)
        #expect(keyboard.output.standardError.contains("has no touchscreen or touchpad"))
    }
}
