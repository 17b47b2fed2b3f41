import TouchEvents

/// The kinds of gesture.
public enum GestureKind: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case tap
    case longPress = "long-press"
    case pan
    case swipe
    case pinch
    case rotate
    case edgePan = "edge-pan"
    /// A recognizer of your own (a subclass of ``GestureRecognizer``); its ``Gesture/recognizer``
    /// says which. Configurations cannot name it.
    case custom

    /// The kinds a configuration file or a socket client may name: all but ``custom``.
    public static let named: [GestureKind] = allCases.filter { $0 != .custom }

    /// Discrete gestures happen once (`recognized`); continuous ones go began → changed → ended.
    public var isDiscrete: Bool { self == .tap || self == .swipe }
    public var description: String { rawValue }
}

/// UIKit's recognizer states. Discrete recognizers go possible → recognized or failed;
/// continuous ones possible → began → changed… → ended, cancelled or failed.
public enum GestureState: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case possible, began, changed, ended, cancelled, failed, recognized
    public var description: String { rawValue }
}

/// Directions of a swipe: four straight ones, and four diagonals for a swipe recognizer that
/// asks for one (``SwipeRecognizer/directions``).
public enum SwipeDirection: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case left, right, up, down
    case upLeft = "up-left"
    case upRight = "up-right"
    case downLeft = "down-left"
    case downRight = "down-right"

    /// Left, right, up and down: the directions a swipe has unless it is given diagonals.
    public static let straight: Set<SwipeDirection> = [.left, .right, .up, .down]
    /// True for the four diagonals.
    public var isDiagonal: Bool { !Self.straight.contains(self) }
    public var description: String { rawValue }
}

/// Edges of a region or surface.
public enum Edge: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case left, right, top, bottom
    public var description: String { rawValue }
}

/// What a gesture of each kind carries: one payload per kind, made once by its recognizer, in
/// layout units (millimetres on the surface unless the device is mapped onto a screen) — never
/// reshaped on its way to handlers, commands and clients.
public enum GestureValues: Sendable, Equatable {
    /// How many taps (2 for a double tap).
    case tap(taps: Int)
    /// How long the fingers have been down.
    case longPress(duration: Duration)
    /// The centroid's movement since the pan began, and its velocity (units per second).
    case pan(translation: Point, velocity: Point)
    case swipe(Swipe)
    /// The spread relative to when the pinch began (2: twice as far apart), the fingers' mean
    /// distance from their centroid now (mm on the surface), and the scale's rate per second.
    case pinch(scale: Double, spanMillimetres: Double, velocity: Double)
    /// The angle turned since the rotation began (clockwise positive, y down) and its rate.
    case rotate(degrees: Double, degreesPerSecond: Double)
    /// The edge it began at, the movement since, and its velocity (units per second).
    case edgePan(edge: Edge, translation: Point, velocity: Point)
    /// A recognizer of your own: its events carry no values of a built-in kind.
    case custom

    /// A swipe's values.
    public struct Swipe: Sendable, Equatable {
        public var direction: SwipeDirection
        /// The movement when it was recognized, and its velocity (units per second).
        public var translation: Point
        public var velocity: Point
        /// How far (mm on the surface) and how long the fingers had moved when the direction
        /// was decided.
        public var decidedAfterMillimetres: Double
        public var decidedAfter: Duration

        public init(direction: SwipeDirection, translation: Point, velocity: Point, decidedAfterMillimetres: Double,
                    decidedAfter: Duration) {
            self.direction = direction
            self.translation = translation
            self.velocity = velocity
            self.decidedAfterMillimetres = decidedAfterMillimetres
            self.decidedAfter = decidedAfter
        }
    }

    /// The kind these values belong to.
    public var kind: GestureKind {
        switch self {
        case .tap: .tap
        case .longPress: .longPress
        case .pan: .pan
        case .swipe: .swipe
        case .pinch: .pinch
        case .rotate: .rotate
        case .edgePan: .edgePan
        case .custom: .custom
        }
    }

    /// The values as the layout has them, for values measured on the surface: positions and
    /// movements through `mapping`; a mirroring mapping turns clockwise into anticlockwise.
    /// Distances judged in millimetres (a pinch's span, a swipe's decision) stay as they are.
    public func mapped(by mapping: SurfaceMapping) -> GestureValues {
        switch self {
        case .pan(let t, let v):
            return .pan(translation: mapping.vector(t), velocity: mapping.vector(v))
        case .swipe(var s):
            s.translation = mapping.vector(s.translation)
            s.velocity = mapping.vector(s.velocity)
            return .swipe(s)
        case .edgePan(let edge, let t, let v):
            return .edgePan(edge: edge, translation: mapping.vector(t), velocity: mapping.vector(v))
        case .rotate(let degrees, let rate):
            return mapping.mirrors ? .rotate(degrees: -degrees, degreesPerSecond: -rate) : self
        case .tap, .longPress, .pinch, .custom:
            return self
        }
    }
}

/// One gesture event, as handlers, commands and socket clients receive it.
///
/// Positions are millimetres on the touch surface (x right, y down) until a layout maps
/// the device onto a screen. Times are instants on the frames' clock. What the kind carries is
/// in ``values``; the optional accessors (``taps``, ``translation``, …) read it for code that
/// handles every kind alike.
public struct Gesture: Sendable, Equatable, CustomStringConvertible {
    /// What the gesture carries, by kind.
    public var values: GestureValues
    public var kind: GestureKind { values.kind }
    public var state: GestureState
    /// When this event happened: the frame or deadline that caused it.
    public var time: Instant
    /// When the touch sequence that led to it started.
    public var startTime: Instant
    /// The device the touches came from (its name), when known.
    public var device: String?
    /// The region the gesture belongs to.
    public var region: String
    /// The socket client whose region that is (``Region/client``); nil for the layout's own.
    package var client: Int?
    /// The gesture's fingers: the most it has had down at once since it began (a tap's or
    /// swipe's: the fingers it needs), on every one of its events — a two-finger long press
    /// ends as one, even when one finger lifts a moment before the other.
    public var touches: Int
    /// Fingers down at this event (after the lift: the fingers it ended with), when the
    /// gesture's own count differs; nil when they are the same.
    public var currentTouches: Int?
    /// Location: the tap point, or the centroid of the touches.
    public var location: Point
    /// ``location`` in the region's own coordinates (from its frame's top-left corner, in
    /// layout units): where on a slider or a button the gesture is.
    public var localLocation: Point
    /// The region the gesture belongs to, while it exists (UIKit's `view`). A handler reads
    /// the region through this instead of capturing it, which would keep the region, its
    /// recognizers and the handler itself alive for ever. Read it where the pipeline runs.
    public var target: Region? { targetReference?.region }
    var targetReference: RegionReference?
    /// The recognizer's name, for logs (`tap(2 taps, 1 touch)`).
    public var recognizer: String

    public init(values: GestureValues, state: GestureState, time: Instant, startTime: Instant, device: String? = nil,
                region: String, touches: Int, location: Point, recognizer: String) {
        self.values = values
        self.state = state
        self.time = time
        self.startTime = startTime
        self.device = device
        self.region = region
        self.touches = touches
        self.location = location
        localLocation = location
        self.recognizer = recognizer
    }

    /// Taps (tap).
    public var taps: Int? {
        if case .tap(let taps) = values { taps } else { nil }
    }

    /// Translation since the gesture started (pan, edge pan, swipe).
    public var translation: Point? {
        switch values {
        case .pan(let t, _), .edgePan(_, let t, _): t
        case .swipe(let s): s.translation
        default: nil
        }
    }

    /// Velocity in layout units per second (pan, edge pan, swipe); scale per second (pinch);
    /// degrees per second (rotate), in `x`.
    public var velocity: Point? {
        switch values {
        case .pan(_, let v), .edgePan(_, _, let v): v
        case .swipe(let s): s.velocity
        case .pinch(_, _, let rate): Point(x: rate, y: 0)
        case .rotate(_, let rate): Point(x: rate, y: 0)
        default: nil
        }
    }

    /// Scale relative to the start (pinch).
    public var scale: Double? {
        if case .pinch(let scale, _, _) = values { scale } else { nil }
    }

    /// The fingers' mean distance from their centroid, in millimetres on the surface (pinch).
    public var span: Double? {
        if case .pinch(_, let span, _) = values { span } else { nil }
    }

    /// Rotation in degrees since the start, clockwise positive in y-down coordinates (rotate).
    public var rotation: Double? {
        if case .rotate(let degrees, _) = values { degrees } else { nil }
    }

    public var direction: SwipeDirection? {
        if case .swipe(let s) = values { s.direction } else { nil }
    }

    /// Swipe: how far the fingers had moved (mm on the surface) and for how long when its
    /// direction was decided.
    public var decidedAfterDistance: Double? {
        if case .swipe(let s) = values { s.decidedAfterMillimetres } else { nil }
    }

    public var decidedAfterTime: Duration? {
        if case .swipe(let s) = values { s.decidedAfter } else { nil }
    }

    public var edge: Edge? {
        if case .edgePan(let edge, _, _) = values { edge } else { nil }
    }

    public var description: String {
        "\(kind) \(state) in \(region) with \(touches) touch\(touches == 1 ? "" : "es") at \(time)"
    }
}

/// A weak reference to a region that a gesture value carries (``Gesture/target``). Gestures
/// cross threads (an `AsyncSequence`, the service's clients), the region does not: it is read
/// only where the pipeline runs, as the documentation says.
final class RegionReference: @unchecked Sendable, Equatable {
    weak var region: Region?

    init(_ region: Region) {
        self.region = region
    }

    static func == (a: RegionReference, b: RegionReference) -> Bool { a === b }
}
