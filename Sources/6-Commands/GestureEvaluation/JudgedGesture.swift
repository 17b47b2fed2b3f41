import Gestures
import TouchEvents

/// A gesture event as the evaluator judges it (and draws it): a replay's gesture, with every
/// value of its kind, or a gesture log's line, with the values the line carries (nil: not in
/// it). Nothing is made up for a value a log leaves out: the log reader refuses a line without
/// a value the judgement reads (``requiredValues(kind:state:)``).
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
    /// A tap's taps.
    public var taps: Int?
    /// A pan's, swipe's or edge pan's movement.
    public var translation: Point?
    public var direction: SwipeDirection?
    public var edge: Edge?
    /// A pinch's scale.
    public var scale: Double?
    /// A rotation's angle, in degrees.
    public var degrees: Double?

    public init(kind: GestureKind, state: GestureState, time: Instant, startTime: Instant, touches: Int, region: String,
                recognizer: String, location: Point, taps: Int? = nil, translation: Point? = nil,
                direction: SwipeDirection? = nil, edge: Edge? = nil, scale: Double? = nil, degrees: Double? = nil) {
        self.kind = kind
        self.state = state
        self.time = time
        self.startTime = startTime
        self.touches = touches
        self.region = region
        self.recognizer = recognizer
        self.location = location
        self.taps = taps
        self.translation = translation
        self.direction = direction
        self.edge = edge
        self.scale = scale
        self.degrees = degrees
    }

    /// A replay's gesture, with every value of its kind.
    public init(_ g: Gesture) {
        self.init(kind: g.kind, state: g.state, time: g.time, startTime: g.startTime, touches: g.touches, region: g.region,
                  recognizer: g.recognizer, location: g.location)
        switch g.values {
        case .tap(let v): taps = v.taps
        case .pan(let v): translation = v.translation
        case .swipe(let v): (translation, direction) = (v.translation, v.direction)
        case .edgePan(let v): (translation, edge) = (v.translation, v.edge)
        case .pinch(let v): scale = v.scale
        case .rotate(let v): degrees = v.degrees
        case .longPress, .custom: break
        }
    }

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
