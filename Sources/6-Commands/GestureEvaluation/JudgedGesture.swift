import Gestures
import TouchEvents

/// A gesture event as the evaluator judges it (and draws it): a replay's gesture, with every
/// value of its kind, or a gesture log's line, read with partial values
/// (`GestureEvent(json:partialValues:)`: another recognizer's log may carry a kind's own value
/// and none of the others, which then read as 0). The judgement reads only a kind's own value (a
/// tap's taps, a pan's movement, a swipe's direction, a pinch's scale), and the log reader
/// refuses a line without one the judgement reads (``requiredValues(kind:state:)``): nothing it
/// reads is made up.
public struct JudgedGesture: Sendable, Equatable {
    public var kind: GestureKind
    public var state: GestureState
    public var time: Instant
    /// When its touch sequence began (a log's: when the gesture of that kind last began).
    public var startTime: Instant
    public var touches: Int
    public var region: String
    /// The recognizer's label (`tap(1 tap, 1 touch)`; `log` for a log's line).
    public var recognizer: String
    public var location: Point
    /// The kind's values, typed: every one for a replay's gesture; for a log's line, nil without
    /// its kind's own value (a pan's `began`).
    public var values: GestureValues?

    public init(kind: GestureKind, state: GestureState, time: Instant, startTime: Instant, touches: Int, region: String,
                recognizer: String, location: Point, values: GestureValues? = nil) {
        self.kind = kind
        self.state = state
        self.time = time
        self.startTime = startTime
        self.touches = touches
        self.region = region
        self.recognizer = recognizer
        self.location = location
        self.values = values
    }

    /// A replay's gesture, with every value of its kind.
    public init(_ g: Gesture) {
        self.init(kind: g.kind, state: g.state, time: g.time, startTime: g.startTime, touches: g.touches, region: g.region,
                  recognizer: g.recognizer, location: g.location, values: g.values)
    }

    /// A tap's taps.
    public var taps: Int? { if case .tap(let v)? = values { v.taps } else { nil } }
    /// A swipe's direction.
    public var direction: SwipeDirection? { if case .swipe(let v)? = values { v.direction } else { nil } }
    /// An edge pan's edge.
    public var edge: Edge? { if case .edgePan(let v)? = values { v.edge } else { nil } }
    /// A pinch's scale.
    public var scale: Double? { if case .pinch(let v)? = values { v.scale } else { nil } }
    /// A rotation's angle, in degrees.
    public var degrees: Double? { if case .rotate(let v)? = values { v.degrees } else { nil } }
    /// A pan's, swipe's or edge pan's movement.
    public var translation: Point? { values?.translation }

    /// The values an event of `kind` in `state` must carry to be judged (their keys in a
    /// gesture log): a tap its `taps`; a swipe its `direction`; an edge pan its `edge`; once
    /// begun, a pan its movement (`dx`, `dy`) and a pinch its `scale`. A long press, a rotation
    /// and a start of a pan or pinch need none.
    public static func requiredValues(kind: GestureKind, state: GestureState) -> [String] {
        let begun = state != .began && state != .possible
        return switch kind {
        case .tap: ["taps"]
        case .swipe: ["direction"]
        case .edgePan: ["edge"]
        case .pan: begun ? ["dx", "dy"] : []
        case .pinch: begun ? ["scale"] : []
        case .rotate, .longPress, .custom: []
        }
    }
}
