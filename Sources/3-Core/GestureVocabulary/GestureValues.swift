import TouchEvents

/// What a gesture of each kind carries: one struct per kind (``Tap``, ``Pan``, …), made once by
/// its recognizer, in layout units (millimetres on the surface unless the device is mapped onto
/// a screen), and mapped onto the layout once (`mapped(by:)`, in Gestures). Handlers of one kind get the
/// struct typed (`TypedGesture`: `tap.taps`, `pinch.scale`); code that handles every kind
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

    /// A pan's, swipe's or edge pan's movement, in layout units; nil for another kind.
    public var translation: Point? {
        switch self {
        case .pan(let v): v.translation
        case .swipe(let v): v.translation
        case .edgePan(let v): v.translation
        case .tap, .longPress, .pinch, .rotate, .custom: nil
        }
    }

    /// A pan's, swipe's or edge pan's velocity, in layout units per second; nil for another kind.
    public var velocity: Point? {
        switch self {
        case .pan(let v): v.velocity
        case .swipe(let v): v.velocity
        case .edgePan(let v): v.velocity
        case .tap, .longPress, .pinch, .rotate, .custom: nil
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
}

/// The values of one kind of gesture (``GestureValues/Tap``, ``GestureValues/Pan``, …): what a
/// `TypedGesture` of that kind carries.
public protocol KindValues: Sendable {}
