import Gestures
import TouchEvents

extension Configuration {
    /// The built-in layout written out as a configuration, every parameter at its default
    /// (but pan's `min-distance`, whose default is the device kind's): a starting point
    /// (`gestured check-config --print-default`).
    public static func defaultYAML() -> String {
        let layout = Layout.standard(size: (100, 100), touchscreen: true)
        var out = """
            # gestured configuration: the built-in layout, written out as a starting point.
            # Distances are millimetres on the touch surface, times milliseconds, angles degrees.
            #
            # Without a "devices" section every touchscreen and touchpad is used: a touchscreen
            # maps onto the layout's root, a touchpad keeps its own millimetres. See the configuration
            # reference (docs/configuration.md) for "devices", frames, hit-insets and actions.
            layout:
              id: root
              # No frame: the root covers the whole surface (or the device's output).
              gestures:

            """
        for r in layout.root.recognizers {
            let spec = GestureSpec(recognizer: r)
            out += "    - kind: \(spec.kind.rawValue)"
            if spec.kind == .edgePan { out += "  # touchscreens only: remove it for a touchpad" }
            out += "\n"
            for (key, value) in spec.orderedNumbers { out += "      \(key): \(formatDecimal(value, places: 6, trailingZeros: .trimAll))\n" }
            if let d = spec.directions { out += "      directions: [\(SwipeDirection.allCases.filter(d.contains).map(\.rawValue).joined(separator: ", "))]\n" }
            if let e = spec.edges { out += "      edges: [\(Edge.allCases.filter(e.contains).map(\.rawValue).joined(separator: ", "))]\n" }
            if !spec.simultaneousWith.isEmpty {
                out += "      simultaneous-with: [\(GestureKind.allCases.filter(spec.simultaneousWith.contains).map(\.rawValue).joined(separator: ", "))]\n"
            }
        }
        return out
    }

}

extension GestureSpec {
    /// The spec that makes a recognizer like `r` (its parameters, not its actions).
    public init(recognizer r: GestureRecognizer) {
        self.init(kind: r.kind)
        switch r {
        case let t as TapRecognizer:
            numbers = ["taps": Double(t.taps), "touches": Double(t.touches), "max-movement": t.maximumMovement,
                       "max-duration": t.maximumPressDuration.inMilliseconds, "max-interval": t.maximumInterval.inMilliseconds, "max-distance": t.maximumDistance]
        case let l as LongPressRecognizer:
            numbers = ["touches": Double(l.touches), "min-duration": l.minimumDuration.inMilliseconds, "max-movement": l.allowedMovement]
        case let p as PanRecognizer:
            numbers = ["min-touches": Double(p.minimumTouches), "max-touches": Double(p.maximumTouches)]
            if let distance = p.minimumDistance { numbers["min-distance"] = distance }
        case let s as SwipeRecognizer:
            numbers = ["touches": Double(s.touches), "min-distance": s.minimumDistance, "min-velocity": s.minimumVelocity,
                       "max-duration": s.maximumDuration.inMilliseconds, "angle-tolerance": s.angleTolerance]
            directions = s.directions
        case let p as PinchRecognizer:
            numbers = ["min-touches": Double(p.minimumTouches), "min-spread-change": p.minimumSpreadChange]
        case let p as RotateRecognizer:
            numbers = ["min-touches": Double(p.minimumTouches), "min-angle": p.minimumAngle]
        case let e as EdgePanRecognizer:
            numbers = ["touches": Double(e.touches), "band-width": e.bandWidth, "min-distance": e.minimumDistance]
            edges = e.edges
        default:
            break
        }
        simultaneousWith = r.simultaneousKinds
    }

    /// The parameters in the order the reference lists them.
    var orderedNumbers: [(String, Double)] {
        let order = ["taps", "touches", "min-touches", "max-touches", "max-movement", "max-duration", "min-duration",
                     "max-interval", "max-distance", "min-distance", "min-velocity", "angle-tolerance", "min-spread-change",
                     "min-angle", "band-width"]
        return order.compactMap { key in numbers[key].map { (key, $0) } }
    }
}
