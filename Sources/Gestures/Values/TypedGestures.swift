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
    public var taps: Int { gesture.taps ?? 1 }

    public init(_ gesture: Gesture) { self.gesture = gesture }
}

/// A long press: `began` once held long enough, `changed` as it moves (touchscreens), `ended`.
public struct LongPressGesture: KindOfGesture {
    public let gesture: Gesture
    /// How long the fingers have been down.
    public var duration: Duration { gesture.time - gesture.startTime }

    public init(_ gesture: Gesture) { self.gesture = gesture }
}

/// A pan: `began` once the fingers moved far enough, `changed` as they move, `ended`.
public struct PanGesture: KindOfGesture {
    public let gesture: Gesture
    /// The centroid's movement since the pan began, in layout units (mm without a mapping).
    public var translation: Point { gesture.translation ?? .zero }
    /// Layout units per second (mm/s without a mapping).
    public var velocity: Point { gesture.velocity ?? .zero }

    public init(_ gesture: Gesture) { self.gesture = gesture }
}

/// A swipe (`recognized` once its direction is decisive, usually before the fingers lift).
public struct SwipeGesture: KindOfGesture {
    public let gesture: Gesture
    public var direction: SwipeDirection { gesture.direction ?? .right }
    /// The movement when it was recognized, in layout units.
    public var translation: Point { gesture.translation ?? .zero }
    /// Layout units per second (mm/s without a mapping).
    public var velocity: Point { gesture.velocity ?? .zero }
    /// How far (mm on the surface) and how long the fingers had moved when the direction was decided.
    public var decidedAfterMillimetres: Double { gesture.decidedAfterDistance ?? 0 }
    public var decidedAfter: Duration { gesture.decidedAfterTime ?? .zero }

    public init(_ gesture: Gesture) { self.gesture = gesture }
}

/// A pinch: `began` once the fingers' spread changed enough, `changed`, `ended`.
public struct PinchGesture: KindOfGesture {
    public let gesture: Gesture
    /// The spread relative to when the pinch began (2: twice as far apart).
    public var scale: Double { gesture.scale ?? 1 }
    /// The fingers' mean distance from their centroid now, in millimetres on the surface.
    public var spanMillimetres: Double { gesture.span ?? 0 }
    /// Scale per second (positive: spreading).
    public var velocity: Double { gesture.velocity?.x ?? 0 }

    public init(_ gesture: Gesture) { self.gesture = gesture }
}

/// A rotation: `began` once the fingers turned enough, `changed`, `ended`. Clockwise is
/// positive, in y-down coordinates as on the screen.
public struct RotateGesture: KindOfGesture {
    public let gesture: Gesture
    /// The angle turned since the rotation began, in degrees.
    public var degrees: Double { gesture.rotation ?? 0 }
    /// The same angle in radians.
    public var radians: Double { degrees * .pi / 180 }
    /// Degrees per second.
    public var degreesPerSecond: Double { gesture.velocity?.x ?? 0 }

    public init(_ gesture: Gesture) { self.gesture = gesture }
}

/// A pan that began at an edge, moving inward: `began`, `changed`, `ended`.
public struct EdgePanGesture: KindOfGesture {
    public let gesture: Gesture
    public var edge: Edge { gesture.edge ?? .left }
    /// The movement since it began, in layout units.
    public var translation: Point { gesture.translation ?? .zero }
    /// Layout units per second.
    public var velocity: Point { gesture.velocity ?? .zero }

    public init(_ gesture: Gesture) { self.gesture = gesture }
}
