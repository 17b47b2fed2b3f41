import GestureConfiguration
import Gestures
import TouchEvents

/// One gesture of the screen replayed on gestured's virtual touchpad
/// (`DeviceDescription.virtualTouchpad`), as the kernel events a real touchpad would send, so
/// that the compositor's libinput reports `GESTURE_SWIPE_*` or `GESTURE_PINCH_*` and the
/// desktop animates it under the fingers.
///
/// - **Swipe** (`touchpad: {swipe: 3}` on a pan): the fingers land at the pad's centre, two
///   slots 15 mm apart and the tool's count (`BTN_TOOL_TRIPLETAP`, `_QUADTAP`) saying how many,
///   and move together by the pan's movement, scaled so that a stroke across the whole screen is
///   ``TouchpadAction/stroke`` (width across, height down).
/// - **Pinch** (`touchpad: {pinch: 2}` on a pinch): two fingers 40 mm apart across the centre,
///   their distance the pinch's scale times 40 mm (at most the pad's width), so that libinput's
///   scale follows the fingers on the screen.
/// - **The end**: the fingers lift. **A cancel**: the finger count changes (a finger more, or
///   one fewer), which libinput ends as a cancelled gesture once the count has settled; then
///   they lift (``cancelHold``).
///
/// Positions stay on the pad (100 × 70 mm): a stroke longer than the room left stops at its edge.
struct TouchpadStroke {
    /// The virtual touchpad's units per mm and its size in mm.
    static let unitsPerMillimetre = 40.0
    static let width = 100.0
    static let height = 70.0
    /// How far apart a swipe's two slots stand, and a pinch's fingers at its start (mm).
    static let swipeSpacing = 15.0
    static let pinchSpan = 40.0

    let action: TouchpadAction
    /// The screen's size in layout units (the layout's root): a stroke across it is `action.stroke`.
    let screen: SurfaceSize
    /// Each slot's tracking id.
    private let ids: [Int32]
    /// Each slot's position now (mm).
    private(set) var positions: [Point]

    /// How many fingers the pad reports.
    var fingers: Int {
        switch action.kind {
        case .swipe(let n): n
        case .pinch: 2
        }
    }

    /// The pan's movement when it began (its slop): the touchpad follows what comes after.
    private var origin: Point?

    /// The tracking id of its first slot: the stroke's name.
    var firstID: Int32 { ids[0] }

    /// A stroke whose two slots take the tracking ids `firstID` and `firstID + 1`.
    init(action: TouchpadAction, screen: SurfaceSize, firstID: Int32) {
        self.action = action
        self.screen = screen
        ids = [firstID, firstID + 1]
        let centre = Point(x: Self.width / 2, y: Self.height / 2)
        let half = (action.kind == .pinch ? Self.pinchSpan : Self.swipeSpacing) / 2
        positions = [Point(x: centre.x - half, y: centre.y), Point(x: centre.x + half, y: centre.y)]
        start = positions
    }

    private let start: [Point]

    /// The fingers land (the gesture began).
    mutating func began() -> [InputEvent] {
        var events: [InputEvent] = []
        for slot in 0..<2 {
            events += [abs(AbsCode.mtSlot, Int32(slot)), abs(AbsCode.mtTrackingID, ids[slot])]
            events += coordinates(of: positions[slot])
        }
        events += [key(KeyCode.touch, 1), key(Self.tool(fingers: fingers), 1)]
        events += singleTouch()
        return events + [report()]
    }

    /// A swipe's fingers, moved by the pan's movement since it began (`translation`, layout
    /// units, less what it had moved when it began).
    mutating func moved(translation: Point) -> [InputEvent] {
        let origin = origin ?? translation
        self.origin = origin
        let dx = screen.width > 0 ? (translation.x - origin.x) / screen.width * action.stroke.width : 0
        let dy = screen.height > 0 ? (translation.y - origin.y) / screen.height * action.stroke.height : 0
        return place(start.map { Point(x: $0.x + dx, y: $0.y + dy) })
    }

    /// A pinch's fingers at `scale` times their first distance.
    mutating func pinched(scale: Double) -> [InputEvent] {
        let span = min(max(Self.pinchSpan * scale, 1 / Self.unitsPerMillimetre), Self.width)
        let centre = Point(x: Self.width / 2, y: Self.height / 2)
        return place([Point(x: centre.x - span / 2, y: centre.y), Point(x: centre.x + span / 2, y: centre.y)])
    }

    /// The fingers lift (the gesture ended).
    func ended() -> [InputEvent] {
        var events: [InputEvent] = []
        for slot in 0..<2 { events += [abs(AbsCode.mtSlot, Int32(slot)), abs(AbsCode.mtTrackingID, -1)] }
        return events + [key(KeyCode.touch, 0), key(Self.tool(fingers: fingers), 0), report()]
    }

    /// The gesture was cancelled: the pad reports another finger count (one more; from four,
    /// one fewer), and once libinput has given up on the gesture for it — it waits
    /// ``cancelHold`` for a count to settle, then ends the gesture cancelled — the fingers
    /// `lift`. (Lifted at once, the gesture would end as though completed.)
    func cancelled() -> (change: [InputEvent], lift: [InputEvent]) {
        let other = fingers == 4 ? 3 : fingers + 1
        let change = [key(Self.tool(fingers: fingers), 0), key(Self.tool(fingers: other), 1), report()]
        var lift: [InputEvent] = []
        for slot in 0..<2 { lift += [abs(AbsCode.mtSlot, Int32(slot)), abs(AbsCode.mtTrackingID, -1)] }
        return (change, lift + [key(KeyCode.touch, 0), key(Self.tool(fingers: other), 0), report()])
    }

    /// How long a cancelled gesture's changed finger count stays before the fingers lift: 150 ms,
    /// past libinput's 100 ms for a finger count to settle (`DEFAULT_GESTURE_SWITCH_TIMEOUT` in
    /// `evdev-mt-touchpad-gestures.c`), after which it ends the gesture cancelled.
    static let cancelHold = Duration.milliseconds(150)

    /// How long the fingers of a gesture that ended without moving the pad stay down: 250 ms,
    /// past libinput's 180 ms tap time (`DEFAULT_TAP_TIMEOUT_PERIOD`), so that it is no tap.
    static let noTapHold = Duration.milliseconds(250)

    /// Whether the fingers have moved since they landed.
    var hasMoved: Bool { positions != start }

    /// The key of the tool that says how many fingers are down.
    static func tool(fingers: Int) -> UInt16 {
        switch fingers {
        case 1: KeyCode.toolFinger
        case 2: KeyCode.toolDoubleTap
        case 3: KeyCode.toolTripleTap
        default: KeyCode.toolQuadTap
        }
    }

    // MARK: - Events

    /// Moves the fingers to `targets` (kept on the pad); the events of the slots that moved.
    private mutating func place(_ targets: [Point]) -> [InputEvent] {
        var events: [InputEvent] = []
        for slot in 0..<2 {
            let target = Point(x: min(max(targets[slot].x, 0), Self.width), y: min(max(targets[slot].y, 0), Self.height))
            let (old, new) = (units(positions[slot]), units(target))
            positions[slot] = target
            guard old != new else { continue }
            events.append(abs(AbsCode.mtSlot, Int32(slot)))
            if old.x != new.x { events.append(abs(AbsCode.mtPositionX, new.x)) }
            if old.y != new.y { events.append(abs(AbsCode.mtPositionY, new.y)) }
        }
        guard !events.isEmpty else { return [] }
        return events + singleTouch() + [report()]
    }

    private func units(_ p: Point) -> (x: Int32, y: Int32) {
        (Int32((p.x * Self.unitsPerMillimetre).rounded()), Int32((p.y * Self.unitsPerMillimetre).rounded()))
    }

    private func coordinates(of p: Point) -> [InputEvent] {
        let u = units(p)
        return [abs(AbsCode.mtPositionX, u.x), abs(AbsCode.mtPositionY, u.y)]
    }

    /// The legacy single-touch axes: the first slot's position, as the kernel's
    /// `input_mt_report_pointer_emulation` reports it.
    private func singleTouch() -> [InputEvent] {
        let u = units(positions[0])
        return [abs(AbsCode.x, u.x), abs(AbsCode.y, u.y)]
    }

    private func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(time: .zero, type: EventType.abs, code: code, value: value) }
    private func key(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(time: .zero, type: EventType.key, code: code, value: value) }
    private func report() -> InputEvent { InputEvent(time: .zero, type: EventType.syn, code: SynCode.report, value: 0) }
}
