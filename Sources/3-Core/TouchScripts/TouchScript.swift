#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Gestures
import TouchEvents

/// Scripted touches, for tests and `gestured synth`: say where fingers land, move and lift
/// (times from the script's start, positions in mm) and get the frames a decoder would produce —
/// every finger down in every frame, in slot order, with `stationary` for the ones that did not
/// move.
///
///     var s = TouchScript()
///     s.tap(at: .zero, x: 20, y: 30)
///     s.drag(from: Point(x: 10, y: 10), to: Point(x: 60, y: 10), at: .milliseconds(500), duration: .milliseconds(200))
///     clock.play(s.frames)
public struct TouchScript {
    private enum Action {
        case down(Point, pressure: Int32?)
        case move(Point, pressure: Int32?)
        case up
    }

    private var actions: [(time: Instant, finger: Int, action: Action)] = []
    private var toolCounts: [(time: Instant, count: Int)] = []
    private var buttons: [(time: Instant, down: Bool)] = []
    private var wholeTouches: [(time: Instant, value: WholeTouch)] = []
    private var nextFinger = 100

    public init() {}

    /// Finger `finger` (any number naming it in this script) lands.
    /// With `pressure`, the contact reports it (`ABS_MT_PRESSURE`, device units).
    public mutating func down(_ finger: Int, at offset: Duration, x: Double, y: Double, pressure: Int32? = nil) {
        actions.append((.zero + offset, finger, .down(Point(x: x, y: y), pressure: pressure)))
    }

    public mutating func move(_ finger: Int, at offset: Duration, x: Double, y: Double, pressure: Int32? = nil) {
        actions.append((.zero + offset, finger, .move(Point(x: x, y: y), pressure: pressure)))
    }

    /// A physical button (a clickpad's click) goes down or up at `offset`.
    public mutating func button(down: Bool, at offset: Duration) {
        buttons.append((.zero + offset, down))
    }

    public mutating func up(_ finger: Int, at offset: Duration) {
        actions.append((.zero + offset, finger, .up))
    }

    /// The device's `BTN_TOOL_*` finger count from `offset` on (touchpads that report more
    /// fingers than they have slots).
    public mutating func toolFingers(_ count: Int, at offset: Duration) {
        toolCounts.append((.zero + offset, count))
    }

    /// The whole touch's pressure and width (`ABS_PRESSURE`, `ABS_TOOL_WIDTH`) from `offset` on,
    /// as a touchpad with no pressure per contact reports them (`TouchFrame.wholeTouch`).
    public mutating func wholeTouch(pressure: Int32, width: Int32, at offset: Duration) {
        wholeTouches.append((.zero + offset, WholeTouch(pressure: pressure, width: width)))
    }

    /// `touches` fingers 10 mm apart land at `offset` and lift `duration` later.
    public mutating func tap(at offset: Duration, x: Double, y: Double, touches: Int = 1, duration: Duration = .milliseconds(80)) {
        let fingers = (0..<touches).map { _ in newFinger() }
        for (i, f) in fingers.enumerated() { down(f, at: offset, x: x + Double(i) * 10, y: y) }
        for f in fingers { up(f, at: offset + duration) }
    }

    /// `touches` fingers 10 mm apart move together from `start` to `end` in `steps` frames.
    public mutating func drag(from start: Point, to end: Point, at offset: Duration, duration: Duration, touches: Int = 1,
                              steps: Int = 10) {
        let fingers = (0..<touches).map { _ in newFinger() }
        for (i, f) in fingers.enumerated() { down(f, at: offset, x: start.x + Double(i) * 10, y: start.y) }
        for step in 1...max(1, steps) {
            let k = Double(step) / Double(max(1, steps))
            let p = start + (end - start) * k
            for (i, f) in fingers.enumerated() { move(f, at: offset + duration * k, x: p.x + Double(i) * 10, y: p.y) }
        }
        for f in fingers { up(f, at: offset + duration) }
    }

    /// `touches` fingers `spacing` mm apart in a row along x, centred on `centre`, land at
    /// `offset`, stay `duration` and lift: a tap, or held long enough, a long press.
    public mutating func press(at offset: Duration, centre: Point, touches: Int = 1, duration: Duration = .milliseconds(60),
                               spacing: Double = 15) {
        let fingers = (0..<max(1, touches)).map { _ in newFinger() }
        for (i, f) in fingers.enumerated() {
            let p = centre + Self.rowOffset(i, of: fingers.count, spacing: spacing)
            down(f, at: offset, x: p.x, y: p.y)
        }
        for f in fingers { up(f, at: offset + duration) }
    }

    /// `touches` fingers in a row along x (`spacing` mm apart), centred on `start`, move
    /// together to `end` over `duration`, reporting every `interval`, and lift one `interval`
    /// later: a pan, or fast enough, a swipe.
    public mutating func stroke(from start: Point, to end: Point, at offset: Duration, duration: Duration, touches: Int = 1,
                                spacing: Double = 15, interval: Duration = .milliseconds(10)) {
        let fingers = (0..<max(1, touches)).map { _ in newFinger() }
        let offsets = fingers.indices.map { Self.rowOffset($0, of: fingers.count, spacing: spacing) }
        move(fingers, at: offset, duration: duration, interval: interval) { f, k in
            start + (end - start) * k + offsets[f]
        }
    }

    /// `touches` fingers (2 by default) evenly around a circle on `centre`, `fromDistance` mm
    /// across, spread (or close) to `toDistance` across over `duration`, turning by `degrees` on
    /// the way (clockwise on the screen, y down), and lift one `interval` later: a pinch, a
    /// rotation, or both. The first starts on the circle's left; two fingers stand side by side
    /// along x, `fromDistance` apart.
    public mutating func transform(at offset: Duration, centre: Point, fromDistance: Double, toDistance: Double,
                                   degrees: Double = 0, duration: Duration, touches: Int = 2, interval: Duration = .milliseconds(10)) {
        let n = max(2, touches)
        let fingers = (0..<n).map { _ in newFinger() }
        move(fingers, at: offset, duration: duration, interval: interval) { f, k in
            let half = (fromDistance + (toDistance - fromDistance) * k) / 2
            // A finger's place on the circle, in turns from +x: the first at a half turn (the
            // left), the others after it; kept within one turn, so two fingers are at π and 0.
            let turn = (0.5 + Double(f) / Double(n)).truncatingRemainder(dividingBy: 1)
            let radians = degrees * k * .pi / 180 + 2 * .pi * turn
            return centre + Point(x: half * cos(radians), y: half * sin(radians))
        }
    }

    /// `fingers` land at `offset` where `position(finger index, 0)` puts them, move to
    /// `position(index, k)` at each `interval` (k the share of `duration` gone), and lift one
    /// `interval` after the last move, as a device reports the lift in a frame of its own.
    private mutating func move(_ fingers: [Int], at offset: Duration, duration: Duration, interval: Duration,
                               _ position: (Int, Double) -> Point) {
        for (i, f) in fingers.enumerated() {
            let p = position(i, 0)
            down(f, at: offset, x: p.x, y: p.y)
        }
        let steps = max(1, Int((duration / interval).rounded(.up)))
        for step in 1...steps {
            let k = Double(step) / Double(steps)
            for (i, f) in fingers.enumerated() {
                let p = position(i, k)
                move(f, at: offset + duration * k, x: p.x, y: p.y)
            }
        }
        for f in fingers { up(f, at: offset + duration + interval) }
    }

    /// Millimetres as device units, 10 a millimetre, held within Int32.
    private static func units(_ mm: Double) -> Int32 {
        mm.isFinite ? Int32(min(max(mm * 10, -2e9), 2e9)) : 0
    }

    /// Where finger `i` of `count` in a row along x, `spacing` apart, is from the row's centre.
    private static func rowOffset(_ i: Int, of count: Int, spacing: Double) -> Point {
        Point(x: (Double(i) - Double(count - 1) / 2) * spacing, y: 0)
    }

    /// How many finger actions (landing, moving, lifting) the script holds so far.
    var actionCount: Int { actions.count }

    /// Where the fingers land and move, from action `index` on (millimetres).
    func positions(from index: Int) -> [Point] {
        actions[index...].compactMap { a in
            switch a.action {
            case .down(let p, _), .move(let p, _): p
            case .up: nil
            }
        }
    }

    /// When the last finger lifts (or the last thing happens), from the script's start.
    public var end: Duration {
        let last = (actions.map(\.time) + toolCounts.map(\.time) + buttons.map(\.time) + wholeTouches.map(\.time)).max() ?? .zero
        return last - .zero
    }

    private mutating func newFinger() -> Int {
        nextFinger += 1
        return nextFinger
    }

    /// The frames, one per distinct time.
    public var frames: [TouchFrame] {
        struct Down { var finger: Int; var id: Int; var slot: Int; var position: Point; var pressure: Int32? }
        var down: [Down] = []
        var nextID = 1
        var frames: [TouchFrame] = []
        let times = Set(actions.map(\.time) + toolCounts.map(\.time) + buttons.map(\.time) + wholeTouches.map(\.time)).sorted()
        // The actions by time, each time's in the order they were added.
        var byTime: [Instant: [(finger: Int, action: Action)]] = [:]
        for a in actions { byTime[a.time, default: []].append((a.finger, a.action)) }
        var tools = 0
        var buttonDown = false
        var whole: WholeTouch?
        for time in times {
            var phases: [Int: TouchPhase] = [:]
            for a in byTime[time] ?? [] {
                switch a.action {
                case .down(let p, let pressure):
                    let used = Set(down.map(\.slot))
                    let slot = (0...).first { !used.contains($0) }!
                    down.append(Down(finger: a.finger, id: nextID, slot: slot, position: p, pressure: pressure))
                    phases[nextID] = .began
                    nextID += 1
                case .move(let p, let pressure):
                    if let i = down.firstIndex(where: { $0.finger == a.finger }) {
                        down[i].position = p
                        if let pressure { down[i].pressure = pressure }
                        if phases[down[i].id] == nil { phases[down[i].id] = .moved }
                    }
                case .up:
                    if let i = down.firstIndex(where: { $0.finger == a.finger }) { phases[down[i].id] = .ended }
                }
            }
            if let t = toolCounts.last(where: { $0.time == time }) { tools = t.count }
            if let b = buttons.last(where: { $0.time == time }) { buttonDown = b.down }
            if let w = wholeTouches.last(where: { $0.time == time }) { whole = w.value }
            let contacts = down.sorted { $0.slot < $1.slot }.map { d in
                TouchContact(id: d.id, slot: d.slot, phase: phases[d.id] ?? .stationary,
                             deviceX: Self.units(d.position.x), deviceY: Self.units(d.position.y), x: d.position.x, y: d.position.y,
                             pressure: d.pressure)
            }
            down.removeAll { phases[$0.id] == .ended }
            frames.append(TouchFrame(time: time, contacts: contacts, toolFingerCount: down.isEmpty ? 0 : tools, buttonDown: buttonDown,
                                     wholeTouch: whole))
        }
        return frames
    }
}
