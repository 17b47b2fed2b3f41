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

/// One gesture event, as handlers, commands and socket clients receive it.
///
/// Positions are millimetres on the touch surface (x right, y down) until a layout maps
/// the device onto a screen. Times are instants on the frames' clock.
public struct Gesture: Sendable, Equatable, CustomStringConvertible {
    public var kind: GestureKind
    public var state: GestureState
    /// When this event happened: the frame or deadline that caused it.
    public var time: Instant
    /// When the touch sequence that led to it started.
    public var startTime: Instant
    /// The device the touches came from (its name), when known.
    public var device: String?
    /// The region the gesture belongs to.
    public var region: String
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
    /// Taps (tap).
    public var taps: Int?
    /// Translation since the gesture started (pan, edge pan, swipe).
    public var translation: Point?
    /// Velocity in millimetres per second (pan, edge pan, swipe); scale per second (pinch);
    /// degrees per second (rotate, in `velocity.x`).
    public var velocity: Point?
    /// Scale relative to the start (pinch).
    public var scale: Double?
    /// The fingers' mean distance from their centroid, in millimetres on the surface (pinch).
    public var span: Double?
    /// Rotation in degrees since the start, clockwise positive in y-down coordinates (rotate).
    public var rotation: Double?
    public var direction: SwipeDirection?
    /// Swipe: how far the fingers had moved (mm on the surface) and for how long when its
    /// direction was decided.
    public var decidedAfterDistance: Double?
    public var decidedAfterTime: Duration?
    public var edge: Edge?
    /// The recognizer's name, for logs (`tap(2 taps, 1 touch)`).
    public var recognizer: String

    public init(kind: GestureKind, state: GestureState, time: Instant, startTime: Instant, device: String? = nil, region: String,
                touches: Int, location: Point, recognizer: String) {
        self.kind = kind
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
