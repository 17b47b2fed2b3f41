import Gestures
import TouchEvents

/// Whether a recording's gestures are what its label says, and if not, why.
///
/// Only the events that start a gesture count (a tap or swipe recognized; a long press, pan,
/// pinch, rotate or edge pan began). The rules, per label:
///
/// - `tap` (N fingers, R times): only taps, all of N fingers, adding up to R taps (a double tap
///   counts two); without R, at least one.
/// - `multi-tap`: only taps of N fingers, one of them of two taps or more.
/// - `long-press`: only long presses of N fingers.
/// - `pan` (N fingers, direction): at least one pan; nothing but pans and swipes; every pan and
///   swipe of N fingers when it starts; the first pan of N fingers goes the labelled way (see
///   ``matches(_:direction:)``).
/// - `swipe`: a swipe of N fingers the labelled way (either way of a diagonal); nothing but
///   pans and swipes of N fingers. On a touchpad a one-finger swipe is a false gesture for
///   both, and a one-finger `swipe` label is judged as a `pan`:
///   one finger there moves the pointer (libinput and the ChromiumOS gestures library have no
///   one-finger swipe, and neither has the built-in layout), so its stroke is right as pointer
///   motion, its first pan going the way a swipe would have been judged: along one of the
///   labelled ways, at least as far as across it.
/// - `pinch-in` / `pinch-out`: only pinches, the first ending smaller / larger than it began.
/// - `negative-click`, `negative-palm`: no gesture at all.
///
/// Every started gesture the label does not allow (its kind, or its finger count), and its
/// ``EvaluationLabel/also`` does not name, is a *false gesture*. For `pan`, `swipe` and
/// `negative-click`, a long press that ended `cancelled` is not one: it is the rest before the
/// labelled stroke or click — a touchpad's hold, which begins while the fingers rest and gives
/// way when they move or click (libinput's hold, then its scroll, swipe or button). For every
/// other label (a palm's, a tap's) it is.
public struct Judgement: Sendable, Equatable {
    public var right: Bool
    /// The column of the confusion matrix: the first gesture started (`pan/2`, `tap/1`,
    /// `multi-tap/1`), or `none`; a pan that a swipe of its fingers follows, before anything else
    /// starts, is that swipe (the stroke was a swipe: its pan begins first).
    public var recognized: String
    /// The started gestures the label does not allow, as `kind/touches`.
    public var falseGestures: [String]
    /// Why it is wrong (empty when right).
    public var why: String
    /// For swipes: when the swipe was decided, as a share of the stroke (first touch to last
    /// lift).
    public var decisionShare: Double?

    public init(right: Bool, recognized: String, falseGestures: [String], why: String, decisionShare: Double?) {
        self.right = right
        self.recognized = recognized
        self.falseGestures = falseGestures
        self.why = why
        self.decisionShare = decisionShare
    }

    /// Judges `gestures` (a replay's, in order) against `label`; `stroke` is the time from the
    /// first touch to the last lift; `touchpad`: the recording is a touchpad's.
    public static func judge(_ label: EvaluationLabel, gestures: [Gesture], stroke: ClosedRange<Instant>?, touchpad: Bool = false) -> Judgement {
        judge(label, gestures: gestures.map(JudgedGesture.init), stroke: stroke, touchpad: touchpad)
    }

    /// Judges `gestures` (a replay's, or a gesture log's lines, in order) against `label`.
    public static func judge(_ label: EvaluationLabel, gestures: [JudgedGesture], stroke: ClosedRange<Instant>?, touchpad: Bool = false) -> Judgement {
        var swipeOfPointer = false
        var label = label
        if touchpad, label.label == "swipe", label.touches == 1 {
            label.label = "pan"
            swipeOfPointer = true
        }
        let restsBeforeMotion = ["pan", "swipe", "negative-click"].contains(label.label)
        let starts = gestures.indices.filter { i in
            let g = gestures[i]
            guard g.state == .recognized || g.state == .began else { return false }
            return !(restsBeforeMotion && g.kind == .longPress && endsCancelled(gestures, from: i))
        }.map { gestures[$0] }
        let recognized = column(of: starts)
        let n = label.touches
        func touchesMatch(_ g: JudgedGesture) -> Bool { n == nil || g.touches == n }
        let allowed: (JudgedGesture) -> Bool = switch label.label {
        case "tap", "multi-tap": { $0.kind == .tap && touchesMatch($0) }
        case "long-press": { $0.kind == .longPress && touchesMatch($0) }
        // On a touchpad one finger is the pointer: a one-finger swipe there is a false gesture.
        case "pan", "swipe": { ($0.kind == .pan || ($0.kind == .swipe && !(touchpad && $0.touches == 1))) && touchesMatch($0) }
        case "pinch-in", "pinch-out": { $0.kind == .pinch }
        default: { _ in false }
        }
        let also = Set(label.also ?? [])
        let falseGestures = starts.filter { !allowed($0) }.map(className).filter { !also.contains($0) }
        var why = ""
        var decisionShare: Double?
        switch label.label {
        case "tap":
            let taps = starts.filter { $0.kind == .tap && touchesMatch($0) }.reduce(0) { $0 + ($1.taps ?? 0) }
            if let r = label.repetitions, taps != r { why = "\(taps) taps, \(r) expected" }
            if label.repetitions == nil && taps == 0 { why = "no tap" }
        case "multi-tap":
            if !starts.contains(where: { $0.kind == .tap && ($0.taps ?? 0) >= 2 }) { why = "no multi-tap" }
        case "long-press":
            if !starts.contains(where: { $0.kind == .longPress }) { why = "no long press" }
        case "pan":
            // The direction is the first pan of the labelled fingers' (a pan of other fingers
            // before it is a false gesture already).
            if let pan = starts.first(where: { $0.kind == .pan && touchesMatch($0) }) ?? starts.first(where: { $0.kind == .pan }) {
                let end = gestures.last { $0.kind == .pan && $0.startTime == pan.startTime }
                if let direction = label.direction, let end {
                    // A pointer's swipe goes one of its ways, as a swipe is judged (its four
                    // directions): along one of them at least as far as across it.
                    let ways = swipeOfPointer ? direction.split(separator: "-").map(String.init) : [direction]
                    if let t = end.translation, !ways.contains(where: { matches(t, direction: $0) }) {
                        why = "panned \(formatDecimal(t.x, places: 1)), \(formatDecimal(t.y, places: 1)) mm: not \(direction)"
                    } else if end.translation == nil {
                        why = "the pan's movement is not known: not \(direction)"
                    }
                }
            } else {
                why = "no pan"
            }
        case "swipe":
            let swipes = starts.compactMap { g in g.direction.map { (gesture: g, direction: $0) } }
                .filter { $0.gesture.kind == .swipe && touchesMatch($0.gesture) }
            let wanted = label.direction.map { Set($0.split(separator: "-").map(String.init)) }
            if let swipe = swipes.first(where: {
                wanted == nil || $0.direction.rawValue == label.direction || wanted!.contains($0.direction.rawValue)
            }) {
                if let stroke, stroke.upperBound > stroke.lowerBound {
                    decisionShare = (swipe.gesture.time - stroke.lowerBound) / (stroke.upperBound - stroke.lowerBound)
                }
            } else {
                why = swipes.isEmpty ? "no swipe" : "swiped \(swipes[0].direction.rawValue), not \(label.direction ?? "")"
            }
        case "pinch-in", "pinch-out":
            if let pinch = starts.first(where: { $0.kind == .pinch }) {
                // Its last event (the one it began with, at least).
                let last = gestures.last { $0.kind == .pinch && $0.startTime == pinch.startTime } ?? pinch
                if let scale = last.scale {
                    if (label.label == "pinch-in") != (scale < 1) { why = "scale \(formatDecimal(scale, places: 2))" }
                } else {
                    why = "the pinch's scale is not known"
                }
            } else {
                why = "no pinch"
            }
        default:
            break
        }
        if !falseGestures.isEmpty {
            let list = falseGestures.count > 3 ? falseGestures[..<3].joined(separator: ", ") + ", …" : falseGestures.joined(separator: ", ")
            why += (why.isEmpty ? "" : "; ") + "\(falseGestures.count) false: \(list)"
        }
        return Judgement(right: why.isEmpty, recognized: recognized, falseGestures: falseGestures, why: why,
                         decisionShare: decisionShare)
    }

    /// True when the gesture begun at `gestures[start]` ended `cancelled`: the next event of its
    /// recognizer in the same sequence says so.
    static func endsCancelled(_ gestures: [JudgedGesture], from start: Int) -> Bool {
        let began = gestures[start]
        let next = gestures[(start + 1)...].first {
            $0.recognizer == began.recognizer && $0.region == began.region && $0.startTime == began.startTime
                && $0.state != .changed
        }
        return next?.state == .cancelled
    }

    /// The confusion-matrix column of a replay's started gestures (``recognized``).
    static func column(of starts: [JudgedGesture]) -> String {
        guard let first = starts.first else { return "none" }
        if first.kind == .pan, starts.count > 1, starts[1].kind == .swipe, starts[1].touches == first.touches {
            return className(starts[1])
        }
        return className(first)
    }

    /// `pan/2`, `tap/1`, `multi-tap/1` (a tap of two taps or more).
    static func className(_ g: JudgedGesture) -> String {
        let kind = g.kind == .tap && (g.taps ?? 0) >= 2 ? "multi-tap" : g.kind.rawValue
        return "\(kind)/\(g.touches)"
    }

    /// Whether `translation` (y down) goes `direction`: for one direction, along it and mostly so
    /// (at least as far as across it); for a diagonal (`up-right`), both ways, each at least a
    /// third of the distance.
    public static func matches(_ translation: Point, direction: String) -> Bool {
        let parts = direction.split(separator: "-").map(String.init)
        let length = translation.length
        guard length > 0 else { return false }
        func along(_ part: String) -> Double {
            switch part {
            case "left": -translation.x
            case "right": translation.x
            case "up": -translation.y
            case "down": translation.y
            default: -.infinity
            }
        }
        if parts.count == 1 {
            let across = parts[0] == "left" || parts[0] == "right" ? abs(translation.y) : abs(translation.x)
            return along(parts[0]) > 0 && along(parts[0]) >= across
        }
        return parts.allSatisfy { along($0) >= length / 3 }
    }
}
