import TouchEvents

/// Why a recognizer failed, with the numbers; rendered as text only when asked (logs,
/// `failureReason`, `replay --explain`), so failing costs nothing on the hot path.
public enum FailureReason: Sendable, Equatable, CustomStringConvertible {
    case tooManyTouches(Int, limit: Int, required: Bool)
    case tooFewTouches(Int, required: Int)
    case moved(millimetres: Double, allowed: Double)
    case held(Duration, allowed: Duration)
    case noFurtherTap(next: Int, within: Duration)
    case tapTooFar(tap: Int, millimetres: Double, allowed: Double)
    case liftedTooSoon(Duration, required: Duration)
    case liftedBeforeMoving(millimetres: Double, required: Double)
    /// It moved far enough, but the fingers lifted before ``TouchPolicy/fingerSettleTime`` had
    /// passed since the last landed.
    case liftedBeforeSettling(Duration)
    case wrongAxis(PanAxis, along: Double, across: Double)
    case swipeTooShortOrSlow(millimetres: Double, required: Double, velocity: Double)
    case swipeTooSlow(allowed: Duration, moved: Double)
    case spreadTooSmall(millimetres: Double, required: Double)
    case turnedTooLittle(degrees: Double, required: Double)
    /// Turned or spread far enough, but the fingers moved together as far or further: a
    /// translation with a wobble, not a transform (``TouchTracker/transformDominates(_:over:)``).
    /// The fingers moved `together` mm together and `transform` mm around or apart, where the
    /// transform needed `required` mm to dominate (more once a pan of as many fingers began).
    case movedTogether(transform: Double, together: Double, required: Double)
    case tooFarFromEdge(millimetres: Double, edge: Edge, band: Double)
    case notInward(millimetres: Double, edge: Edge)
    case liftedBeforeMovingInward(millimetres: Double, required: Double)
    case noEdges
    case noRegion
    case lostTo(String)
    case requirementSucceeded(String)
    case endedWhileWaiting
    case shouldBeginRefused
    case disabled
    case touchesLifted
    case buttonPressed
    /// A touchpad's pan ended when a finger landed: a gesture of the new count starts.
    case fingerCountChanged
    /// A contact landed again where one had just lifted (``TouchPolicy/bounceTime``).
    case bounced
    /// Every contact of the press that lifted vanished, lifting as hard as it ever pressed
    /// (``TouchPolicy/vanishedTapReportInterval``).
    case vanished
    /// A contact of the press had been down this long, left out as a resting thumb or finger
    /// (or a piece of a palm), before it counted (`TouchContact.downSince` in `TouchEvents`).
    case restedBefore(Duration)
    /// Its region was removed, hidden or disabled while the sequence lasted, or the recognizer
    /// was taken off it.
    case regionGone
    case cancelled(String)

    /// The reason's kind without its numbers (`moved`, `lost_to`), a label the metrics count by.
    public var name: String {
        switch self {
        case .tooManyTouches: "too_many_touches"
        case .tooFewTouches: "too_few_touches"
        case .moved: "moved"
        case .held: "held"
        case .noFurtherTap: "no_further_tap"
        case .tapTooFar: "tap_too_far"
        case .liftedTooSoon: "lifted_too_soon"
        case .liftedBeforeMoving: "lifted_before_moving"
        case .liftedBeforeSettling: "lifted_before_settling"
        case .wrongAxis: "wrong_axis"
        case .swipeTooShortOrSlow: "swipe_too_short_or_slow"
        case .swipeTooSlow: "swipe_too_slow"
        case .spreadTooSmall: "spread_too_small"
        case .turnedTooLittle: "turned_too_little"
        case .movedTogether: "moved_together"
        case .tooFarFromEdge: "too_far_from_edge"
        case .notInward: "not_inward"
        case .liftedBeforeMovingInward: "lifted_before_moving_inward"
        case .noEdges: "no_edges"
        case .noRegion: "no_region"
        case .lostTo: "lost_to"
        case .requirementSucceeded: "requirement_succeeded"
        case .endedWhileWaiting: "ended_while_waiting"
        case .shouldBeginRefused: "should_begin_refused"
        case .disabled: "disabled"
        case .touchesLifted: "touches_lifted"
        case .buttonPressed: "button_pressed"
        case .fingerCountChanged: "finger_count_changed"
        case .bounced: "bounced"
        case .vanished: "vanished"
        case .restedBefore: "rested_before"
        case .regionGone: "region_gone"
        case .cancelled: "cancelled"
        }
    }

    public var description: String {
        switch self {
        case .tooManyTouches(let n, let limit, let required):
            "\(plural(n, "touch")) > \(limit) \(required ? "required" : "allowed")"
        case .tooFewTouches(let n, let required): "\(plural(n, "touch")) < \(required) required"
        case .moved(let mm, let allowed): "moved \(one(mm)) mm > \(one(allowed)) mm allowed"
        case .held(let held, let allowed): "held \(ms(held)) ms without lifting (\(ms(allowed)) ms allowed)"
        case .noFurtherTap(let next, let within): "no tap \(next) within \(ms(within)) ms"
        case .tapTooFar(let tap, let mm, let allowed): "tap \(tap) landed \(one(mm)) mm from the first > \(one(allowed)) mm allowed"
        case .liftedTooSoon(let held, let required): "lifted after \(ms(held)) ms < \(ms(required)) ms required"
        case .liftedBeforeMoving(let mm, let required): "lifted after moving \(one(mm)) mm < \(one(required)) mm"
        case .liftedBeforeSettling(let settle): "lifted within \(ms(settle)) ms of a finger landing, before the finger count settled"
        case .wrongAxis(let axis, let along, let across):
            "moved \(one(across)) mm across the \(axis) axis > \(one(along)) mm along it"
        case .swipeTooShortOrSlow(let mm, let required, let velocity):
            "lifted after \(one(mm)) mm (needs \(one(required)) mm at \(one(velocity)) mm/s)"
        case .swipeTooSlow(let allowed, let moved): "took longer than \(ms(allowed)) ms (moved \(one(moved)) mm)"
        case .spreadTooSmall(let mm, let required): "spread changed \(one(mm)) mm < \(one(required)) mm"
        case .turnedTooLittle(let degrees, let required): "turned \(one(degrees))° < \(one(required))°"
        case .movedTogether(let transform, let together, let required) where transform < required:
            "moved together \(one(together)) mm; around or apart \(one(transform)) mm < \(one(required)) mm required: a translation, not a transform"
        case .movedTogether(let transform, _, _):
            "moved around or apart \(one(transform)) mm, but not with every finger: one finger about a resting one, not a transform"
        case .tooFarFromEdge(let mm, let edge, let band): "began \(one(mm)) mm from the \(edge) edge > \(one(band)) mm band"
        case .notInward(let mm, let edge): "moved \(one(mm)) mm but not inward from the \(edge) edge"
        case .liftedBeforeMovingInward(let mm, let required): "lifted after \(one(mm)) mm < \(one(required)) mm inward"
        case .noEdges: "no edges configured"
        case .noRegion: "not attached to a region"
        case .lostTo(let winner): "lost to \(winner)"
        case .requirementSucceeded(let other): "lost to \(other) (it had to fail first)"
        case .endedWhileWaiting: "its touches ended while it waited for others to fail"
        case .shouldBeginRefused: "shouldBegin returned false"
        case .disabled: "disabled"
        case .touchesLifted: "the touches lifted"
        case .buttonPressed: "a physical button was pressed: a click, not a gesture"
        case .bounced: "a contact landed again where one had just lifted: a bounce, not a new touch"
        case .vanished: "every contact lifted pressing as hard as it ever had: the sensor lost it (a palm flickering), no finger lifted"
        case .restedBefore(let rested): "a contact had rested \(ms(rested)) ms, left out (a thumb, a palm, a hover), before it counted: it taps and holds nothing"
        case .fingerCountChanged: "a finger landed during a pan: a gesture of the new finger count starts"
        case .regionGone: "its region was removed, hidden or disabled (or it was taken off it)"
        case .cancelled(let why): why
        }
    }
}

/// `4.2` — one decimal, for reasons.
private func one(_ value: Double) -> String { formatDecimal(value, places: 1) }

/// A duration in milliseconds with one decimal.
private func ms(_ duration: Duration) -> String { one(duration.inMilliseconds) }
