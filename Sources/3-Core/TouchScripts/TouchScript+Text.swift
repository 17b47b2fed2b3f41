import Gestures
import TouchEvents

/// A line of a touch script that cannot be read: `LINE:COLUMN: what is wrong`.
public struct TouchScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(line):\(column): \(message)" }
}

/// How a script's numbers map onto the surface: positions through `surfacePoint` (layout units
/// to millimetres), distances divided by `perMillimetre`. ``millimetres`` leaves them as they are.
public struct TouchScriptUnits: Sendable {
    public var surfacePoint: @Sendable (Point) -> Point?
    /// Units per millimetre, for distances (a swipe's length, a pinch's spread).
    public var perMillimetre: Double
    /// Whether a point (millimetres) is on the surface: every finger of a statement must be,
    /// wherever it lands and moves.
    public var onSurface: @Sendable (Point) -> Bool
    /// Where positions may be, in words, for a message about one that is not
    /// (`0,0 to 800,480`); empty: nothing said.
    public var extent: String

    public init(surfacePoint: @escaping @Sendable (Point) -> Point?, perMillimetre: Double,
                onSurface: @escaping @Sendable (Point) -> Bool = { _ in true }, extent: String = "") {
        self.surfacePoint = surfacePoint
        self.perMillimetre = perMillimetre
        self.onSurface = onSurface
        self.extent = extent
    }

    /// Positions and distances in millimetres on the surface.
    public static let millimetres = TouchScriptUnits(surfacePoint: { $0 }, perMillimetre: 1)
}

extension TouchScript {
    /// The pause between one statement's end and the next one's start, unless `wait` says
    /// otherwise: 500 ms, longer than a double tap's 300 ms between taps, so that two taps in
    /// a row are two taps.
    public static let statementPause = Duration.milliseconds(500)
    /// The longest a statement may last (`for`, `over`): a minute.
    public static let longestStatement = Duration.seconds(60)
    /// The latest a statement may start (`at`), and the longest `wait`: an hour.
    public static let longestScript = Duration.seconds(3600)
    /// The longest distance a statement may give (a swipe's length, a pinch's spread): 10 m.
    public static let longestDistance = 10_000.0
    /// The most fingers down at once: 10, a device's slots.
    public static let mostFingers = 10

    /// A script of touches in words, one statement a line (`#` starts a comment), each after
    /// the one before (``statementPause`` later, or `wait` as long):
    ///
    ///     tap at 60,60                                  # 1 finger, 60 ms
    ///     2 fingers tap at 640,400 for 80 ms
    ///     double-tap at 640,400
    ///     long-press at 1060,700 for 800 ms
    ///     3 fingers swipe left from 900,400 over 200 ms # 40 mm unless "by 300"
    ///     drag from 100,100 to 400,100 over 500 ms
    ///     pinch out at 640,400 from 100 to 300 over 400 ms
    ///     4 fingers pinch in at 640,400                 # around a circle, 60 to 20 mm across
    ///     rotate clockwise at 640,400 by 45 degrees over 400 ms
    ///     wait 1 s
    ///     at 2000 ms: tap at 60,60                      # at a time of its own
    ///
    /// Positions (`X,Y`) and distances are in `units` (layout units with a configuration, else
    /// millimetres); times in `ms` or `s`. Fingers stand 15 mm apart in a row along x,
    /// centred on the position; a pinch's or a rotation's (2 to 10) evenly around a circle on it;
    /// moving fingers report every 10 ms.
    public init(parsing text: String, units: TouchScriptUnits = .millimetres) throws(TouchScriptError) {
        self.init()
        var cursor = Duration.zero
        var pause = Duration.zero
        var first = true
        // Each statement's fingers and when they are down, to keep to ``mostFingers`` at once.
        var spans: [(start: Duration, end: Duration, fingers: Int)] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            var words = ScriptWords(line, number: n + 1)
            guard !words.isAtEnd else { continue }
            var start = first ? pause : cursor + pause
            if words.take("at") {
                start = try words.time(upTo: Self.longestScript)
                try words.expect(":")
            }
            if words.take("wait") {
                // In place of the pause; waits add up.
                pause = (pause == Self.statementPause && !first ? .zero : pause) + (try words.time(upTo: Self.longestScript))
                try words.end()
                continue
            }
            pause = Self.statementPause
            let statementColumn = words.column
            var touches = 1
            var counted = false
            let countColumn = words.column
            if let count = words.peekNumber() {
                counted = true
                touches = count <= 10 ? Int(count) : 11
                guard Double(touches) == count, (1...10).contains(touches) else { throw words.fail("a finger count is 1 to 10") }
                words.skip()
                guard words.take("finger") || words.take("fingers") else { throw words.fail("expected \"fingers\" after the count") }
            }
            /// A position: as the script gave it, and on the surface.
            func place() throws(TouchScriptError) -> (given: Point, mm: Point) {
                let column = words.column
                let p = try words.point()
                guard let mm = units.surfacePoint(p) else {
                    let extent = units.extent.isEmpty ? "" : " (positions run \(units.extent))"
                    throw TouchScriptError(line: n + 1, column: column,
                                           message: "\(formatDecimal(p.x, places: 1)),\(formatDecimal(p.y, places: 1)) is off the surface\(extent)")
                }
                return (p, mm)
            }
            func point() throws(TouchScriptError) -> Point { try place().mm }
            /// A distance: the script's units, or millimetres on the surface when `mm` follows.
            func distance() throws(TouchScriptError) -> Double {
                let column = words.column
                let given = try words.number()
                let d = words.take("mm") ? given : given / units.perMillimetre
                guard d <= Self.longestDistance else {
                    throw TouchScriptError(line: n + 1, column: column, message: "a distance is at most 10 m on the surface")
                }
                return d
            }
            let actionsBefore = actionCount
            guard let verb = words.word() else { throw words.fail("expected tap, double-tap, long-press, swipe, drag, pinch, rotate or wait") }
            if verb == "wait" { throw words.failLast("wait takes a time and no finger count: wait 200 ms") }
            switch verb {
            case "tap", "long-press":
                try words.expect("at")
                let at = try point()
                let duration = words.take("for") ? try words.time(upTo: Self.longestStatement) : verb == "tap" ? .milliseconds(60) : .milliseconds(800)
                press(at: start, centre: at, touches: touches, duration: duration)
                cursor = start + duration
            case "double-tap":
                try words.expect("at")
                let at = try point()
                press(at: start, centre: at, touches: touches)
                press(at: start + .milliseconds(180), centre: at, touches: touches)
                cursor = start + .milliseconds(240)
            case "swipe":
                guard let way = words.word(), let unit = ["left": Point(x: -1, y: 0), "right": Point(x: 1, y: 0),
                                                                  "up": Point(x: 0, y: -1), "down": Point(x: 0, y: 1)][way] else {
                    throw words.failLast("a swipe goes left, right, up or down")
                }
                try words.expect("from")
                let from = try place()
                let length = words.take("by") ? try distance() : 40
                let duration = words.take("over") ? try words.time(upTo: Self.longestStatement) : .milliseconds(150)
                // Left in the layout is where the mapping puts it on the surface (a panel
                // mounted turned).
                let along = (units.surfacePoint(from.given + unit) ?? from.mm + unit) - from.mm
                let direction = along.length > 0 ? along * (1 / along.length) : unit
                stroke(from: from.mm, to: from.mm + direction * length, at: start, duration: duration, touches: touches)
                cursor = start + duration
            case "drag":
                try words.expect("from")
                let from = try point()
                try words.expect("to")
                let to = try point()
                let duration = words.take("over") ? try words.time(upTo: Self.longestStatement) : .milliseconds(500)
                stroke(from: from, to: to, at: start, duration: duration, touches: touches)
                cursor = start + duration
            case "pinch", "rotate":
                guard touches != 1 || !counted else {
                    throw TouchScriptError(line: n + 1, column: countColumn, message: "a \(verb) needs 2 fingers or more")
                }
                guard let way = words.word() else { throw words.fail(verb == "pinch" ? "pinch in or out" : "rotate clockwise or counterclockwise") }
                let outward: Bool
                var degrees = 0.0
                switch (verb, way) {
                case ("pinch", "out"): outward = true
                case ("pinch", "in"): outward = false
                case ("rotate", "clockwise"), ("rotate", "counterclockwise"):
                    outward = true
                    degrees = way == "clockwise" ? 45 : -45
                default: throw words.failLast(verb == "pinch" ? "pinch in or out, not \"\(way)\"" : "rotate clockwise or counterclockwise, not \"\(way)\"")
                }
                try words.expect("at")
                let at = try point()
                var from = verb == "rotate" ? 40.0 : outward ? 20 : 60
                var to = verb == "rotate" ? 40.0 : outward ? 60 : 20
                if verb == "pinch", words.take("from") {
                    let column = words.column
                    from = try distance()
                    try words.expect("to")
                    to = try distance()
                    guard outward ? to > from : to < from else {
                        throw TouchScriptError(line: n + 1, column: column,
                                               message: outward ? "a pinch out spreads: from less than to" : "a pinch in closes: from more than to")
                    }
                }
                if verb == "rotate", words.take("by") {
                    // Signed: -30 degrees clockwise is 30 counterclockwise.
                    degrees = try words.signedNumber() * (degrees < 0 ? -1 : 1)
                    guard words.take("degrees") || words.take("degree") else { throw words.fail("expected \"degrees\"") }
                }
                let duration = words.take("over") ? try words.time(upTo: Self.longestStatement) : .milliseconds(400)
                transform(at: start, centre: at, fromDistance: from, toDistance: to, degrees: degrees, duration: duration,
                          touches: max(2, touches))
                cursor = start + duration
            default:
                throw TouchScriptError(line: n + 1, column: words.lastColumn,
                                       message: "unknown action \"\(verb)\": tap, double-tap, long-press, swipe, drag, pinch, rotate or wait")
            }
            // Every finger of it on the surface, however the row spreads and wherever it moves.
            if let off = positions(from: actionsBefore).first(where: { !units.onSurface($0) }) {
                throw TouchScriptError(line: n + 1, column: statementColumn,
                                       message: "a finger of this statement goes off the surface (to \(formatDecimal(off.x, places: 1)), "
                                           + "\(formatDecimal(off.y, places: 1)) mm; fingers stand 15 mm apart in a row)")
            }
            let fingers = verb == "pinch" || verb == "rotate" ? max(2, touches) : touches
            let lift = ["swipe", "drag", "pinch", "rotate"].contains(verb) ? cursor + .milliseconds(10) : cursor
            let times = [start] + spans.map(\.start).filter { $0 >= start && $0 <= lift }
            let busiest = times.map { t in spans.filter { $0.start <= t && t <= $0.end }.reduce(0) { $0 + $1.fingers } }.max() ?? 0
            guard busiest + fingers <= Self.mostFingers else {
                throw TouchScriptError(line: n + 1, column: statementColumn,
                                       message: "more than \(Self.mostFingers) fingers down at once (\(busiest) already down then)")
            }
            spans.append((start, lift, fingers))
            try words.end()
            cursor = max(cursor, end)
            first = false
        }
    }
}

/// The words of one script line, with where each is.
struct ScriptWords {
    private var tokens: [(text: String, column: Int)] = []
    private var index = 0
    let line: Int
    private(set) var lastColumn = 1
    private let length: Int

    init(_ line: String, number: Int) {
        self.line = number
        length = line.count
        var column = 1
        var current = ""
        var start = 1
        func flush() {
            if !current.isEmpty { tokens.append((current.lowercased(), start)) }
            current = ""
        }
        for ch in line {
            if ch == " " || ch == "\t" {
                flush()
            } else if ch == ":" {
                flush()
                tokens.append((":", column))
            } else {
                if current.isEmpty { start = column }
                current.append(ch)
            }
            column += 1
        }
        flush()
    }

    var isAtEnd: Bool { index >= tokens.count }
    var column: Int { isAtEnd ? length + 1 : tokens[index].column }

    func fail(_ message: String) -> TouchScriptError {
        TouchScriptError(line: line, column: column, message: message)
    }

    /// The word just read is wrong.
    func failLast(_ message: String) -> TouchScriptError {
        TouchScriptError(line: line, column: lastColumn, message: message)
    }

    mutating func take(_ word: String) -> Bool {
        guard !isAtEnd, tokens[index].text == word else { return false }
        lastColumn = tokens[index].column
        index += 1
        return true
    }

    mutating func expect(_ word: String) throws(TouchScriptError) {
        guard take(word) else { throw fail(isAtEnd ? "expected \"\(word)\" at the end" : "expected \"\(word)\", not \"\(tokens[index].text)\"") }
    }

    mutating func word() -> String? {
        guard !isAtEnd else { return nil }
        lastColumn = tokens[index].column
        index += 1
        return tokens[index - 1].text
    }

    mutating func skip() { index += 1 }

    func peekNumber() -> Double? { isAtEnd ? nil : Double(tokens[index].text) }

    /// A number that may be negative.
    mutating func signedNumber() throws(TouchScriptError) -> Double {
        guard let v = peekNumber(), v.isFinite, abs(v) <= 1e9 else {
            throw fail(isAtEnd ? "expected a number at the end" : "expected a number up to 1000000000, not \"\(tokens[index].text)\"")
        }
        index += 1
        return v
    }

    mutating func number() throws(TouchScriptError) -> Double {
        guard let v = peekNumber(), v.isFinite, v >= 0, v <= 1e9 else { throw fail(isAtEnd ? "expected a number at the end" : "expected a number from 0 to 1000000000, not \"\(tokens[index].text)\"") }
        index += 1
        return v
    }

    /// `X,Y`.
    mutating func point() throws(TouchScriptError) -> Point {
        guard !isAtEnd else { throw fail("expected a position X,Y at the end") }
        let parts = tokens[index].text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
            throw fail("expected a position X,Y, not \"\(tokens[index].text)\"")
        }
        index += 1
        return Point(x: x, y: y)
    }

    /// `N ms` or `N s` (also `Nms`, `Ns`), at most `limit`.
    mutating func time(upTo limit: Duration) throws(TouchScriptError) -> Duration {
        guard !isAtEnd else { throw fail("expected a time (ms or s) at the end") }
        let text = tokens[index].text
        var value: Double?
        var unit: String?
        var taken = 1
        if let v = Double(text) {
            value = v
            unit = index + 1 < tokens.count ? tokens[index + 1].text : nil
            if unit == "ms" || unit == "s" { taken = 2 } else { unit = nil }
        } else if text.hasSuffix("ms"), let v = Double(text.dropLast(2)) {
            (value, unit) = (v, "ms")
        } else if text.hasSuffix("s"), let v = Double(text.dropLast()) {
            (value, unit) = (v, "s")
        }
        guard let value, let unit, value.isFinite, value >= 0 else {
            throw fail("expected a time like 200 ms or 1.5 s, not \"\(text)\"")
        }
        let ms = unit == "s" ? value * 1000 : value
        guard ms <= Double(limit.inMicroseconds) / 1000 else {
            throw fail("a time here is at most \(formatDecimal(Double(limit.inMicroseconds) / 1_000_000, places: 0)) s")
        }
        index += taken
        return .microseconds(Int64((ms * 1000).rounded()))
    }

    mutating func end() throws(TouchScriptError) {
        guard isAtEnd else { throw fail("unexpected \"\(tokens[index].text)\" at the end of the statement") }
    }
}
