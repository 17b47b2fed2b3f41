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
            if let d = spec.recognizer.directions { out += "      directions: [\(SwipeDirection.allCases.filter(d.contains).map(\.rawValue).joined(separator: ", "))]\n" }
            if let e = spec.recognizer.edges { out += "      edges: [\(Edge.allCases.filter(e.contains).map(\.rawValue).joined(separator: ", "))]\n" }
            if !spec.recognizer.simultaneousWith.isEmpty {
                out += "      simultaneous-with: [\(GestureKind.allCases.filter(spec.recognizer.simultaneousWith.contains).map(\.rawValue).joined(separator: ", "))]\n"
            }
        }
        return out
    }

}

extension GestureSpec {
    /// The spec that makes a recognizer like `r` (its parameters, not its actions).
    public init(recognizer r: GestureRecognizer) {
        self.init(kind: r.kind)
        recognizer = RecognizerSpec(describing: r)
    }

    /// The parameters in the order the reference lists them.
    var orderedNumbers: [(String, Double)] {
        GestureParameterName.allCases.compactMap { name in recognizer.numbers[name].map { (name.rawValue, $0) } }
    }
}
