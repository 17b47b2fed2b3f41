import GestureEvaluation
import GestureReplay
import GestureRuntime
import Gestures
import TouchEvents

/// Draws a replay as SVG: the layout's regions (true frame solid, extended hit area dashed),
/// each contact's trace (one colour per contact, a dot where it landed, a bar where it lifted,
/// a cross where it was cancelled, a tick every 100 ms) and each recognised gesture labelled
/// where it happened.
struct SVGRenderer {
    /// Contact colours, distinct on white and for common colour blindness (Okabe–Ito).
    static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
    static let width = 1000.0
    static let margin = 30.0
    /// A tick on each trace every 100 ms: a fast swipe shows few, a slow drag many.
    static let tickMicroseconds: Int64 = 100_000
    /// Label text size (px) and a generous average glyph width, to keep labels apart.
    static let fontSize = 12.0
    static let glyphWidth = 7.2

    var title: String
    var result: RecordingReplay.Result
    /// Every decoded frame, in surface millimetres.
    var frames: [TouchFrame]
    var unit: String
    /// The gestures drawn: the replay's, or another recognizer's (a gesture log's).
    var gestures: [JudgedGesture]

    init(title: String, result: RecordingReplay.Result, frames: [TouchFrame], unit: String, gestures: [JudgedGesture]? = nil) {
        self.title = title
        self.result = result
        self.frames = frames
        self.unit = unit
        self.gestures = gestures ?? result.gestures.map(JudgedGesture.init)
    }

    func render() -> String {
        let root = result.layout.root.absoluteFrame
        let scale = (Self.width - 2 * Self.margin) / max(root.width, 1e-9)
        let height = root.height * scale + 2 * Self.margin + 40
        func px(_ p: Point) -> (Double, Double) {
            (Self.margin + (p.x - root.minX) * scale, Self.margin + (p.y - root.minY) * scale)
        }
        func n(_ v: Double) -> String { formatDecimal(v, places: 1) }
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(Self.width))" height="\(n(height))" viewBox="0 0 \(n(Self.width)) \(n(height))" font-family="sans-serif" font-size="\(n(Self.fontSize))">
            <title>\(xml(title))</title>
            <rect width="100%" height="100%" fill="#ffffff"/>

            """
        // Regions, back to front.
        svg += "<g id=\"regions\">\n"
        for region in result.layout.regions {
            let f = region.absoluteFrame
            let (x, y) = px(Point(x: f.minX, y: f.minY))
            guard !region.isHidden && region.isEnabled else {
                // Never hit: drawn faint, so a touch that did nothing there is explained.
                svg += "<rect class=\"region inactive\" data-id=\"\(xml(region.id))\" x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(f.width * scale))\" height=\"\(n(f.height * scale))\" fill=\"none\" stroke=\"#bbb\" stroke-dasharray=\"1 3\"/>\n"
                let why = region.isHidden ? "hidden" : "disabled"
                svg += "<text class=\"region-label\" x=\"\(n(x + 4))\" y=\"\(n(y + 14))\" fill=\"#aaa\">\(xml(region.id)) (\(why))</text>\n"
                continue
            }
            svg += "<rect class=\"region\" data-id=\"\(xml(region.id))\" x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(f.width * scale))\" height=\"\(n(f.height * scale))\" fill=\"#f4f4f4\" fill-opacity=\"0.5\" stroke=\"#888\"/>\n"
            let area = region.hitArea
            if area != f {
                let (ax, ay) = px(Point(x: area.minX, y: area.minY))
                svg += "<rect class=\"hit-area\" data-id=\"\(xml(region.id))\" x=\"\(n(ax))\" y=\"\(n(ay))\" width=\"\(n(area.width * scale))\" height=\"\(n(area.height * scale))\" fill=\"none\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n"
            }
            svg += "<text class=\"region-label\" x=\"\(n(x + 4))\" y=\"\(n(y + 14))\" fill=\"#555\">\(xml(region.id))</text>\n"
        }
        svg += "</g>\n"

        // Traces.
        var traces: [Int: [(time: Instant, point: Point, phase: TouchPhase)]] = [:]
        var order: [Int] = []
        for frame in frames {
            for c in frame.contacts {
                if traces[c.id] == nil { order.append(c.id) }
                traces[c.id, default: []].append((frame.time, result.mapping.point(Point(x: c.x, y: c.y)), c.phase))
            }
        }
        svg += "<g id=\"traces\">\n"
        for (i, id) in order.enumerated() {
            guard let trace = traces[id], let first = trace.first, let last = trace.last else { continue }
            let colour = Self.palette[i % Self.palette.count]
            let points = trace.map { px($0.point) }.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
            svg += "<g class=\"contact\" data-id=\"\(id)\">\n"
            svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" stroke-linejoin=\"round\"/>\n"
            let (ex, ey) = px(last.point)
            if last.phase == .cancelled {
                svg += "<path class=\"cancelled\" d=\"M\(n(ex - 5)),\(n(ey - 5)) L\(n(ex + 5)),\(n(ey + 5)) M\(n(ex - 5)),\(n(ey + 5)) L\(n(ex + 5)),\(n(ey - 5))\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
            } else {
                svg += "<rect class=\"end\" x=\"\(n(ex - 5))\" y=\"\(n(ey - 5))\" width=\"10\" height=\"10\" fill=\"#ffffff\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
            }
            // Drawn after the end mark, so a touch that never moved shows both.
            let (sx, sy) = px(first.point)
            svg += "<circle class=\"start\" cx=\"\(n(sx))\" cy=\"\(n(sy))\" r=\"3.5\" fill=\"\(colour)\"/>\n"
            var next = first.time + .microseconds(Self.tickMicroseconds)
            for sample in trace.dropLast() where sample.time >= next {
                let (tx, ty) = px(sample.point)
                svg += "<circle class=\"tick\" cx=\"\(n(tx))\" cy=\"\(n(ty))\" r=\"2\" fill=\"#ffffff\" stroke=\"\(colour)\"/>\n"
                // The first tick after this sample.
                next += .microseconds(Self.tickMicroseconds * ((sample.time - next).inMicroseconds / Self.tickMicroseconds + 1))
            }
            svg += "</g>\n"
        }
        svg += "</g>\n"

        // Gestures where they happened.
        svg += "<g id=\"gestures\">\n"
        var placed: [(x: Double, y: Double, width: Double)] = []
        // A continuous gesture is labelled once, where it began, with its final values.
        var beganAt: [String: Point] = [:]
        for g in gestures {
            let key = "\(g.recognizer)@\(g.region)@\(g.startTime)"
            let location: Point
            switch g.state {
            case .began:
                beganAt[key] = g.location
                continue
            case .recognized:
                location = g.location
            case .ended, .cancelled:
                location = beganAt.removeValue(forKey: key) ?? g.location
            case .possible, .changed, .failed:
                continue
            }
            let text = label(g)
            let (x, y0) = px(location)
            let textWidth = Double(text.count) * Self.glyphWidth
            // Right of the point unless that runs off the picture; then left of it.
            let leftward = x + 6 + textWidth > Self.width
            let textX = leftward ? x - 6 - textWidth : x + 6
            var y = y0
            while placed.contains(where: { $0.x < textX + textWidth && textX < $0.x + $0.width && abs($0.y - y) < Self.fontSize + 2 }) {
                y += Self.fontSize + 2
            }
            placed.append((textX, y, textWidth))
            svg += "<g class=\"gesture\" data-kind=\"\(g.kind.rawValue)\" data-state=\"\(g.state.rawValue)\">\n"
            svg += "<circle cx=\"\(n(x))\" cy=\"\(n(y0))\" r=\"3\" fill=\"#222\"/>\n"
            if y != y0 {
                svg += "<line x1=\"\(n(x))\" y1=\"\(n(y0))\" x2=\"\(n(leftward ? x - 4 : x + 4))\" y2=\"\(n(y - 10))\" stroke=\"#222\" stroke-width=\"0.5\"/>\n"
            }
            svg += "<text x=\"\(n(textX))\" y=\"\(n(y - 6))\" fill=\"#222\" font-weight=\"bold\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">\(xml(text))</text>\n"
            svg += "</g>\n"
        }
        svg += "</g>\n"
        let caption = "\(title) — \(result.device.description.name), \(formatDecimal(root.width, places: 1)) × \(formatDecimal(root.height, places: 1)) \(unit)"
        let legend = "● landed, □ lifted, ✕ cancelled, ○ every 100 ms; dashed: extended hit area; dotted: hidden or disabled"
        svg += "<text class=\"caption\" x=\"\(n(Self.margin))\" y=\"\(n(height - 26))\" fill=\"#444\">\(xml(caption))</text>\n"
        svg += "<text class=\"legend\" x=\"\(n(Self.margin))\" y=\"\(n(height - 10))\" fill=\"#444\">\(xml(legend))</text>\n"
        svg += "</svg>\n"
        return svg
    }

    /// `tap ×2 (1)`, `swipe ↓ (4)`, `pinch ×1.80 (2)`, `rotate 45° (2)`, `edge-pan from left (1)`,
    /// `pan → 32 mm (3)`; ` in REGION` unless the root; ` cancelled` when it was.
    /// A swipe's direction as an arrow (diagonals too).
    static func arrow(_ direction: SwipeDirection) -> String {
        switch direction {
        case .left: "←"
        case .right: "→"
        case .up: "↑"
        case .down: "↓"
        case .upLeft: "↖"
        case .upRight: "↗"
        case .downLeft: "↙"
        case .downRight: "↘"
        }
    }

    func label(_ g: JudgedGesture) -> String {
        var s = g.kind.rawValue
        func moved(_ t: Point?) {
            guard let t else { return }
            s += " " + formatDecimal((t.x * t.x + t.y * t.y).squareRoot(), places: 0) + (unit == "mm" ? " mm" : "")
        }
        switch g.kind {
        case .tap: if let taps = g.taps, taps > 1 { s += " ×\(taps)" }
        case .swipe: if let direction = g.direction { s += " " + Self.arrow(direction) }
        case .edgePan:
            if let edge = g.edge { s += " from \(edge.rawValue)" }
            moved(g.translation)
        case .pinch: if let scale = g.scale { s += " ×" + formatDecimal(scale, places: 2) }
        case .rotate: if let degrees = g.degrees { s += " " + formatDecimal(degrees, places: 0) + "°" }
        case .pan: moved(g.translation)
        case .longPress, .custom: break
        }
        s += " (\(g.touches))"
        if g.region != "root" { s += " in \(g.region)" }
        if g.state == .cancelled { s += " cancelled" }
        return s
    }

    func xml(_ s: String) -> String { Self.xml(s) }

    /// `s` escaped for XML and HTML text and attributes.
    static func xml(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
