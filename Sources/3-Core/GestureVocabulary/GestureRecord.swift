import TouchEvents

/// What every gesture event says, whoever made it: its kind's values, its state, when and where
/// it happened and with how many fingers. The core's `Gesture` is one (the recognizers make it);
/// the protocol's `GestureEvent` is made from any (`GestureEvent(_:origin:)`), so the socket's
/// side needs only this vocabulary, not the recognizers.
public protocol GestureRecord {
    /// What the gesture carries, by kind.
    var values: GestureValues { get }
    var state: GestureState { get }
    /// When this event happened.
    var time: Instant { get }
    /// The device the touches came from (its name), when known.
    var device: String? { get }
    /// The region the gesture belongs to.
    var region: String { get }
    /// The most fingers the gesture has had down at once.
    var touches: Int { get }
    /// Fingers down at this event, when that differs from `touches`.
    var currentTouches: Int? { get }
    /// The tap point, or the centroid of the touches, in layout units.
    var location: Point { get }
    /// `location` in the region's own coordinates (from its frame's top-left corner).
    var localLocation: Point { get }
}
