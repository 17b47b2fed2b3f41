import TouchEvents

/// A gesture event as the handler of one kind receives it: that kind's values typed and never
/// optional (`pinch.scale`, not `pinch.scale!`), each with its unit — and through dynamic member
/// lookup everything of the underlying ``Gesture`` (`state`, `location`, `localLocation`,
/// `target`, `time`, `touches`, …).
@dynamicMemberLookup
public protocol KindOfGesture: Sendable {
    /// The event as every observer sees it (the `--json` lines, the socket, `addHandler`).
    var gesture: Gesture { get }
}

extension KindOfGesture {
    /// Everything of the underlying ``Gesture``.
    public subscript<T>(dynamicMember path: KeyPath<Gesture, T>) -> T { gesture[keyPath: path] }
}

/// A tap (`recognized` once, at the last lift).
public struct TapGesture: KindOfGesture {
    public let gesture: Gesture
    /// How many taps (2 for a double tap).
    public let taps: Int

    /// `gesture` as a tap; nil when it is another kind.
    public init?(_ gesture: Gesture) {
        guard case .tap(let taps) = gesture.values else { return nil }
        self.gesture = gesture
        self.taps = taps
    }
}

/// A long press: `began` once held long enough, `changed` as it moves (touchscreens), `ended`.
public struct LongPressGesture: KindOfGesture {
    public let gesture: Gesture
    /// How long the fingers have been down.
    public let duration: Duration

    /// `gesture` as a long press; nil when it is another kind.
    public init?(_ gesture: Gesture) {
        guard case .longPress(let duration) = gesture.values else { return nil }
        self.gesture = gesture
        self.duration = duration
    }
}

/// A pan: `began` once the fingers moved far enough, `changed` as they move, `ended`.
public struct PanGesture: KindOfGesture {
    public let gesture: Gesture
    /// The centroid's movement since the pan began, in layout units (mm without a mapping).
    public let translation: Point
    /// Layout units per second (mm/s without a mapping).
    public let velocity: Point

    /// `gesture` as a pan; nil when it is another kind.
    public init?(_ gesture: Gesture) {
        guard case .pan(let translation, let velocity) = gesture.values else { return nil }
        self.gesture = gesture
        self.translation = translation
        self.velocity = velocity
    }
}

/// A swipe (`recognized` once its direction is decisive, usually before the fingers lift).
public struct SwipeGesture: KindOfGesture {
    public let gesture: Gesture
    public let direction: SwipeDirection
    /// The movement when it was recognized, in layout units.
    public let translation: Point
    /// Layout units per second (mm/s without a mapping).
    public let velocity: Point
    /// How far (mm on the surface) and how long the fingers had moved when the direction was
    /// decided.
    public let decidedAfterMillimetres: Double
    public let decidedAfter: Duration

    /// `gesture` as a swipe; nil when it is another kind.
    public init?(_ gesture: Gesture) {
        guard case .swipe(let s) = gesture.values else { return nil }
        self.gesture = gesture
        direction = s.direction
        translation = s.translation
        velocity = s.velocity
        decidedAfterMillimetres = s.decidedAfterMillimetres
        decidedAfter = s.decidedAfter
    }
}

/// A pinch: `began` once the fingers' spread changed enough, `changed`, `ended`.
public struct PinchGesture: KindOfGesture {
    public let gesture: Gesture
    /// The spread relative to when the pinch began (2: twice as far apart).
    public let scale: Double
    /// The fingers' mean distance from their centroid now, in millimetres on the surface.
    public let spanMillimetres: Double
    /// Scale per second (positive: spreading).
    public let velocity: Double

    /// `gesture` as a pinch; nil when it is another kind.
    public init?(_ gesture: Gesture) {
        guard case .pinch(let scale, let span, let velocity) = gesture.values else { return nil }
        self.gesture = gesture
        self.scale = scale
        spanMillimetres = span
        self.velocity = velocity
    }
}

/// A rotation: `began` once the fingers turned enough, `changed`, `ended`. Clockwise is
/// positive, in y-down coordinates as on the screen.
public struct RotateGesture: KindOfGesture {
    public let gesture: Gesture
    /// The angle turned since the rotation began, in degrees.
    public let degrees: Double
    /// The same angle in radians.
    public var radians: Double { degrees * .pi / 180 }
    /// Degrees per second.
    public let degreesPerSecond: Double

    /// `gesture` as a rotation; nil when it is another kind.
    public init?(_ gesture: Gesture) {
        guard case .rotate(let degrees, let rate) = gesture.values else { return nil }
        self.gesture = gesture
        self.degrees = degrees
        degreesPerSecond = rate
    }
}

/// A pan that began at an edge, moving inward: `began`, `changed`, `ended`.
public struct EdgePanGesture: KindOfGesture {
    public let gesture: Gesture
    public let edge: Edge
    /// The movement since it began, in layout units.
    public let translation: Point
    /// Layout units per second.
    public let velocity: Point

    /// `gesture` as an edge pan; nil when it is another kind.
    public init?(_ gesture: Gesture) {
        guard case .edgePan(let edge, let translation, let velocity) = gesture.values else { return nil }
        self.gesture = gesture
        self.edge = edge
        self.translation = translation
        self.velocity = velocity
    }
}
