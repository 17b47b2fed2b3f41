import TouchEvents

/// A gesture event as the handler of one kind receives it: that kind's values typed and never
/// optional (`pinch.scale`, not `pinch.scale!`), each with its unit, and everything of the
/// underlying ``Gesture`` (`state`, `location`, `localLocation`, `target`, `time`, `touches`, …),
/// both through dynamic member lookup.
@dynamicMemberLookup
public struct TypedGesture<Values: KindValues>: Sendable {
    /// The event as every observer sees it (the `--json` lines, the socket, `addHandler`).
    public let gesture: Gesture
    /// Its kind's values: the very struct ``Gesture/values`` holds.
    public let values: Values

    /// `gesture` as one of this kind; nil when it is another kind.
    public init?(_ gesture: Gesture) {
        guard let values = gesture.values.payload as? Values else { return nil }
        self.gesture = gesture
        self.values = values
    }

    /// The kind's values (`tap.taps`, `pan.translation`).
    public subscript<T>(dynamicMember path: KeyPath<Values, T>) -> T { values[keyPath: path] }
    /// Everything of the underlying ``Gesture`` (`tap.state`, `pan.location`).
    public subscript<T>(dynamicMember path: KeyPath<Gesture, T>) -> T { gesture[keyPath: path] }
}

/// A tap (`recognized` once, at the last lift).
public typealias TapGesture = TypedGesture<GestureValues.Tap>
/// A long press: `began` once held long enough, `changed` as it moves (touchscreens), `ended`.
public typealias LongPressGesture = TypedGesture<GestureValues.LongPress>
/// A pan: `began` once the fingers moved far enough, `changed` as they move, `ended`.
public typealias PanGesture = TypedGesture<GestureValues.Pan>
/// A swipe (`recognized` once its direction is decisive, usually before the fingers lift).
public typealias SwipeGesture = TypedGesture<GestureValues.Swipe>
/// A pinch: `began` once the fingers' spread changed enough, `changed`, `ended`.
public typealias PinchGesture = TypedGesture<GestureValues.Pinch>
/// A rotation: `began` once the fingers turned enough, `changed`, `ended`.
public typealias RotateGesture = TypedGesture<GestureValues.Rotate>
/// A pan that began at an edge, moving inward: `began`, `changed`, `ended`.
public typealias EdgePanGesture = TypedGesture<GestureValues.EdgePan>
