import Gestures
import TouchEvents

extension Configuration {
    /// A layout of the configuration (the first by default) built, with a recognizer for every
    /// gesture, and its actions by recognizer. `rootSize` gives the root its frame when the
    /// configuration leaves it out (the output or surface). ``buildLayout(_:rootSize:)`` also
    /// gives the `when` conditions.
    public func makeLayout(_ spec: RegionSpec? = nil, rootSize: SurfaceSize) -> (layout: Layout, actions: [ObjectIdentifier: ActionSpec]) {
        let built = buildLayout(spec, rootSize: rootSize)
        return (built.layout, built.actions)
    }

    /// A layout built, with the actions and the `when` conditions by recognizer, for whoever
    /// runs them.
    public func buildLayout(_ spec: RegionSpec? = nil, rootSize: SurfaceSize) -> BuiltLayout {
        var actions: [ObjectIdentifier: ActionSpec] = [:]
        var conditions: [ObjectIdentifier: GestureCondition] = [:]
        func build(_ spec: RegionSpec, isRoot: Bool) -> Region {
            let frame = spec.frame ?? Rect(x: 0, y: 0, width: rootSize.width, height: rootSize.height)
            let region = Region(id: spec.id, frame: frame, hitInsets: spec.hitInsets)
            region.isHidden = spec.hidden
            region.isEnabled = spec.enabled
            for g in spec.gestures {
                let r = g.makeRecognizer()
                region.add(r)
                if let a = g.action { actions[ObjectIdentifier(r)] = a }
                if let w = g.when { conditions[ObjectIdentifier(r)] = w }
            }
            for c in spec.children { region.addChild(build(c, isRoot: false)) }
            return region
        }
        return BuiltLayout(layout: Layout(root: build(spec ?? layout, isRoot: true)), actions: actions, conditions: conditions)
    }

    /// The first device rule for this device, if any. Without a `devices` section every
    /// device is used with the defaults (an empty rule).
    public func rule(for device: DeviceDescription, node: String?) -> DeviceRule? {
        if devices.isEmpty { return DeviceRule() }
        return devices.first { $0.matches(name: device.name, kind: device.kind, node: node) }
    }

    /// How `surface` maps onto the layout under `rule`: onto `output` if given; else a
    /// touchscreen onto the root's frame (or its own millimetres if the root has none), a
    /// touchpad onto its own millimetres. The rule's calibration, else `deviceCalibration`
    /// (udev's matrix for the device), else none.
    public func mapping(for rule: DeviceRule, surface: SurfaceSize, kind: DeviceKind,
                        deviceCalibration: [Double]? = nil) -> (mapping: SurfaceMapping, rootSize: SurfaceSize) {
        let rootFrame = layout(for: rule).frame.map { SurfaceSize(width: $0.width, height: $0.height) }
        let output = rule.output ?? (kind == .touchscreen ? rootFrame : nil) ?? surface
        let mapping = SurfaceMapping(surface: surface, output: output, rotation: rule.rotation,
                                     flipX: rule.flipX, flipY: rule.flipY,
                                     calibration: rule.calibration ?? deviceCalibration ?? [1, 0, 0, 0, 1, 0])
        return (mapping, rootFrame ?? output)
    }

    /// A short account: regions and gestures, per layout, and which devices drive which.
    public var summary: String {
        let regions = layouts.flatMap(\.all)
        let gestures = self.gestures.count
        let actions = self.gestures.filter { $0.action != nil }.count
        var s = "\(path): OK — \(layouts.count > 1 ? "\(layouts.count) layouts, " : "")"
        s += "\(regions.count) region\(regions.count == 1 ? "" : "s"), \(gestures) gesture\(gestures == 1 ? "" : "s")"
        s += " (\(actions) with actions), \(devices.isEmpty ? "every touch device" : "\(devices.count) device rule\(devices.count == 1 ? "" : "s")")\n"
        func walk(_ r: RegionSpec, _ depth: Int) {
            let kinds = r.gestures.map { g in
                g.makeRecognizer().name + (g.when.map { " (when app: \($0.apps.joined(separator: ", ")))" } ?? "")
            }
            s += String(repeating: "  ", count: depth + 1) + r.id + (kinds.isEmpty ? "" : ": " + kinds.joined(separator: ", ")) + "\n"
            for c in r.children { walk(c, depth + 1) }
        }
        if layouts.count == 1 {
            walk(layout, 0)
            return s
        }
        for (i, l) in layouts.enumerated() {
            let users = devices.filter { layout(for: $0).id == l.id }.map(\.matchDescription)
            let by = devices.isEmpty ? (i == 0 ? "every touch device" : "no device") : (users.isEmpty ? "no device" : users.joined(separator: "; "))
            s += "  layout \(l.id) (\(by)):\n"
            walk(l, 1)
        }
        return s
    }
}

extension DeviceRule {
    /// What the rule matches, for messages: `kind touchpad`, `name "Atmel*"`, `every device`.
    public var matchDescription: String {
        var parts: [String] = []
        if let kind { parts.append("kind \(kind)") }
        if let name { parts.append("name \"\(name)\"") }
        if let node { parts.append("node \(node)") }
        return parts.isEmpty ? "every device" : parts.joined(separator: ", ")
    }
}

extension GestureSpec {
    /// The recognizer with this gesture's parameters (defaults where none is given).
    public func makeRecognizer() -> GestureRecognizer {
        func n(_ key: String) -> Double? { numbers[key] }
        func i(_ key: String) -> Int? { numbers[key].map { Int($0) } }
        let r: GestureRecognizer
        switch kind {
        case .tap:
            let t = TapRecognizer(taps: i("taps") ?? 1, touches: i("touches") ?? 1)
            if let v = n("max-movement") { t.maximumMovement = v }
            if let v = n("max-duration") { t.maximumPressDuration = .milliseconds(v) }
            if let v = n("max-interval") { t.maximumInterval = .milliseconds(v) }
            if let v = n("max-distance") { t.maximumDistance = v }
            r = t
        case .longPress:
            let l = LongPressRecognizer(touches: i("touches") ?? 1)
            if let v = n("min-duration") { l.minimumDuration = .milliseconds(v) }
            if let v = n("max-movement") { l.allowedMovement = v }
            r = l
        case .pan:
            let p = PanRecognizer(minimumTouches: i("min-touches") ?? 1, maximumTouches: i("max-touches") ?? max(5, i("min-touches") ?? 1))
            if let v = n("min-distance") { p.minimumDistance = v }
            r = p
        case .swipe:
            let s = SwipeRecognizer(directions: directions ?? SwipeDirection.straight, touches: i("touches") ?? 1)
            if let v = n("min-distance") { s.minimumDistance = v }
            if let v = n("min-velocity") { s.minimumVelocity = v }
            if let v = n("max-duration") { s.maximumDuration = .milliseconds(v) }
            if let v = n("angle-tolerance") { s.angleTolerance = v }
            r = s
        case .pinch:
            let p = PinchRecognizer(minimumTouches: i("min-touches") ?? 2)
            if let v = n("min-spread-change") { p.minimumSpreadChange = v }
            r = p
        case .rotate:
            let p = RotateRecognizer(minimumTouches: i("min-touches") ?? 2)
            if let v = n("min-angle") { p.minimumAngle = v }
            r = p
        case .edgePan:
            let e = EdgePanRecognizer(edges: edges ?? Set(Edge.allCases), touches: i("touches") ?? 1)
            if let v = n("band-width") { e.bandWidth = v }
            if let v = n("min-distance") { e.minimumDistance = v }
            r = e
        case .custom:
            // A configuration cannot describe a recognizer of your own (the parser refuses
            // `kind: custom`): a spec made in code gets one that recognises nothing.
            r = GestureRecognizer(kind: .custom)
        }
        r.simultaneousKinds = simultaneousWith
        return r
    }
}

/// A configuration's layout made real: the regions and recognizers, and what the service needs
/// of each recognizer.
public struct BuiltLayout {
    public var layout: Layout
    /// The actions, by recognizer.
    public var actions: [ObjectIdentifier: ActionSpec]
    /// The `when` conditions, by recognizer.
    public var conditions: [ObjectIdentifier: GestureCondition]
}
