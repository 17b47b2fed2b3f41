import TouchEvents

extension GestureValues {
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
public struct Gesture: GestureRecord, Sendable, Equatable, CustomStringConvertible {
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
