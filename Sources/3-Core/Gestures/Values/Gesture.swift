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

/// What a gesture of each kind carries: one struct per kind (``Tap``, ``Pan``, …), made once by
/// its recognizer, in layout units (millimetres on the surface unless the device is mapped onto
/// a screen), and mapped onto the layout once (``mapped(by:)``). Handlers of one kind get the
/// struct typed (``TypedGesture``: `tap.taps`, `pinch.scale`); code that handles every kind
/// alike switches on it. Each value has one meaning and one unit: a pan's `velocity` is units per
/// second, a pinch's rate is ``Pinch/scalePerSecond``, a rotation's ``Rotate/degreesPerSecond``.
public enum GestureValues: Sendable, Equatable {
    case tap(Tap)
    case longPress(LongPress)
    case pan(Pan)
    case swipe(Swipe)
    case pinch(Pinch)
    case rotate(Rotate)
    case edgePan(EdgePan)
    /// A recognizer of your own: its events carry no values of a built-in kind.
    case custom

    /// A tap's values.
    public struct Tap: KindValues, Equatable {
        /// How many taps (2 for a double tap).
        public var taps: Int

        public init(taps: Int) { self.taps = taps }
    }

    /// A long press's values.
    public struct LongPress: KindValues, Equatable {
        /// How long the fingers have been down.
        public var duration: Duration

        public init(duration: Duration) { self.duration = duration }
    }

    /// A pan's values.
    public struct Pan: KindValues, Equatable {
        /// The centroid's movement since the pan began, in layout units (mm without a mapping).
        public var translation: Point
        /// Layout units per second (mm/s without a mapping).
        public var velocity: Point

        public init(translation: Point, velocity: Point) {
            (self.translation, self.velocity) = (translation, velocity)
        }
    }

    /// A swipe's values.
    public struct Swipe: KindValues, Equatable {
        public var direction: SwipeDirection
        /// The movement when it was recognized, in layout units, and its velocity (units per
        /// second).
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

    /// A pinch's values.
    public struct Pinch: KindValues, Equatable {
        /// The spread relative to when the pinch began (2: twice as far apart).
        public var scale: Double
        /// The fingers' mean distance from their centroid now, in millimetres on the surface.
        public var spanMillimetres: Double
        /// How fast the scale changes, per second (positive: spreading).
        public var scalePerSecond: Double

        public init(scale: Double, spanMillimetres: Double, scalePerSecond: Double) {
            (self.scale, self.spanMillimetres, self.scalePerSecond) = (scale, spanMillimetres, scalePerSecond)
        }
    }

    /// A rotation's values: clockwise is positive, in y-down coordinates as on the screen.
    public struct Rotate: KindValues, Equatable {
        /// The angle turned since the rotation began, in degrees.
        public var degrees: Double
        /// Degrees per second.
        public var degreesPerSecond: Double
        /// ``degrees`` in radians.
        public var radians: Double { degrees * .pi / 180 }

        public init(degrees: Double, degreesPerSecond: Double) {
            (self.degrees, self.degreesPerSecond) = (degrees, degreesPerSecond)
        }
    }

    /// An edge pan's values.
    public struct EdgePan: KindValues, Equatable {
        /// The edge it began at.
        public var edge: Edge
        /// The movement since it began, in layout units, and its velocity (units per second).
        public var translation: Point
        public var velocity: Point

        public init(edge: Edge, translation: Point, velocity: Point) {
            (self.edge, self.translation, self.velocity) = (edge, translation, velocity)
        }
    }

    /// The kind's values, whatever the kind (nil for a recognizer of your own).
    public var payload: (any KindValues)? {
        switch self {
        case .tap(let v): v
        case .longPress(let v): v
        case .pan(let v): v
        case .swipe(let v): v
        case .pinch(let v): v
        case .rotate(let v): v
        case .edgePan(let v): v
        case .custom: nil
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
        case .pan(var p):
            p.translation = mapping.vector(p.translation)
            p.velocity = mapping.vector(p.velocity)
            return .pan(p)
        case .swipe(var s):
            s.translation = mapping.vector(s.translation)
            s.velocity = mapping.vector(s.velocity)
            return .swipe(s)
        case .edgePan(var e):
            e.translation = mapping.vector(e.translation)
            e.velocity = mapping.vector(e.velocity)
            return .edgePan(e)
        case .rotate(var r):
            guard mapping.mirrors else { return self }
            r.degrees = -r.degrees
            r.degreesPerSecond = -r.degreesPerSecond
            return .rotate(r)
        case .tap, .longPress, .pinch, .custom:
            return self
        }
    }
}

/// One gesture event, as handlers, commands and socket clients receive it.
///
/// Positions are millimetres on the touch surface (x right, y down) until a layout maps
/// the device onto a screen. Times are instants on the frames' clock. What the kind carries is
/// in ``values``, one struct per kind; a handler of one kind gets it typed (``TypedGesture``).
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
    /// The namespace of that region (``Region/namespace``: the service's socket client's); nil
    /// for the layout's own.
    package var namespace: Int?
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
    /// recognizers and the handler itself alive for ever. Read it, and let go of the region
    /// it gives, where the pipeline runs (in a handler, or on the runtime's thread).
    public var target: Region? { targetReference?.region }
    var targetReference: RegionReference?
    /// The recognizer's name, for logs (`tap(2 taps, 1 touch)`).
    public var recognizer: String

    public var description: String {
        "\(kind) \(state) in \(region) with \(touches) touch\(touches == 1 ? "" : "es") at \(time)"
    }
}

// The public initializer is in an extension so that the struct keeps its memberwise
// initializer, which it and `made` below call.
extension Gesture {
    public init(values: GestureValues, state: GestureState, time: Instant, startTime: Instant, device: String? = nil,
                region: String, touches: Int, location: Point, recognizer: String) {
        self.init(values: values, state: state, time: time, startTime: startTime, device: device, region: region,
                  namespace: nil, touches: touches, currentTouches: nil, location: location, localLocation: location,
                  targetReference: nil, recognizer: recognizer)
    }

    /// Every field at once: a recognizer's event is made by this one call
    /// (``GestureRecognizer/event(_:time:_:)``), and stored where the caller receives it.
    /// - Made field by field (in an initializer of its own, or made with the public one and then
    ///   changed), the value was put together in a local variable and then copied out, a reference
    ///   count for each of its strings and references and their release (about 285 instructions
    ///   an event). The memberwise initializer, called with what this function owns
    ///   (`consuming`), stores into the result directly.
    /// - Not inlined: inlined into the caller, the same copy came back.
    @inline(never)
    static func made(values: GestureValues, state: GestureState, time: Instant, startTime: Instant,
                     device: consuming String?, region: consuming String, namespace: Int?, touches: Int,
                     currentTouches: Int?, location: Point, localLocation: Point,
                     targetReference: consuming RegionReference?, recognizer: consuming String) -> Gesture {
        Gesture(values: values, state: state, time: time, startTime: startTime, device: device, region: region,
                namespace: namespace, touches: touches, currentTouches: currentTouches, location: location,
                localLocation: localLocation, targetReference: targetReference, recognizer: recognizer)
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
