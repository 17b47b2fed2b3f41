import Gestures
import TouchEvents

/// Collects every gesture a pipeline emits, in order, and renders them as lines that a test
/// can compare whole:
///
///     "380.0ms tap recognized root touches=1 taps=2 at 20.0,30.0"
public final class GestureRecorder {
    public private(set) var gestures: [Gesture] = []

    /// Starts recording everything `pipeline` emits (replacing its observer). The pipeline
    /// does not keep the recorder alive: once it is dropped, nothing is recorded.
    public init(_ pipeline: GesturePipeline) {
        pipeline.observer = { [weak self] in self?.gestures.append($0) }
    }

    public init() {}

    public func record(_ g: Gesture) { gestures.append(g) }

    /// One line per gesture.
    public var lines: [String] { gestures.map(Self.line) }

    public static func line(_ g: Gesture) -> String {
        var s = "\(format(Double(g.time.microseconds) / 1000))ms \(g.kind) \(g.state) \(g.region) touches=\(g.touches)"
        var moved: Point?
        switch g.values {
        case .tap(let tap): s += " taps=\(tap.taps)"
        case .swipe(let swipe):
            s += " \(swipe.direction)"
            moved = swipe.translation
        case .edgePan(let edgePan):
            s += " edge=\(edgePan.edge)"
            moved = edgePan.translation
        case .pan(let pan): moved = pan.translation
        case .longPress, .pinch, .rotate, .custom: break
        }
        s += " at \(format(g.location.x)),\(format(g.location.y))"
        if let moved { s += " d=\(format(moved.x)),\(format(moved.y))" }
        if case .pinch(let pinch) = g.values { s += " scale=\(format(pinch.scale, places: 2))" }
        if case .rotate(let rotate) = g.values { s += " rotation=\(format(rotate.degrees))" }
        return s
    }

    private static func format(_ v: Double, places: Int = 1) -> String {
        formatDecimal(v, places: places, trailingZeros: .keep)
    }
}
