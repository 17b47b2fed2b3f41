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
        var specs: [ObjectIdentifier: GestureSpec] = [:]
        func build(_ spec: RegionSpec, isRoot: Bool, passThrough inherited: Bool?) -> Region {
            let passThrough = spec.passThrough ?? inherited
            let frame = spec.frame ?? Rect(x: 0, y: 0, width: rootSize.width, height: rootSize.height)
            let region = Region(id: spec.id, frame: frame, hitInsets: spec.hitInsets)
            region.isHidden = spec.hidden
            region.isEnabled = spec.enabled
            for g in spec.gestures {
                let r = g.makeRecognizer()
                r.ownsTouches = g.ownsTouches(inheritedPassThrough: passThrough)
                region.add(r)
                if let a = g.action { actions[ObjectIdentifier(r)] = a }
                if let w = g.when { conditions[ObjectIdentifier(r)] = w }
                specs[ObjectIdentifier(r)] = g
            }
            for c in spec.children { region.addChild(build(c, isRoot: false, passThrough: passThrough)) }
            return region
        }
        return BuiltLayout(layout: Layout(root: build(spec ?? layout, isRoot: true, passThrough: nil)), actions: actions,
                           conditions: conditions, gestures: specs)
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
        let placed = place(rule, surface: surface, kind: kind, deviceCalibration: deviceCalibration)
        return (placed.mapping, placed.rootSize)
    }

    /// Where a device under `rule` is on the screen `screen` says (``placement(for:kind:screen:)``):
    /// the layout it drives, that layout's root size, and how its surface maps onto it.
    ///
    /// A device whose screen turns drives, while the screen is taller than wide, the rule's
    /// portrait layout if it names one; else its layout, re-derived: the frames stretched
    /// from the size they were drawn for (the root's frame; without one, the screen unturned,
    /// or turned to the layout's orientation when the rule names a portrait layout) to the
    /// screen as the user sees it.
    public func place(_ rule: DeviceRule, surface: SurfaceSize, kind: DeviceKind, deviceCalibration: [Double]? = nil,
                      screen: ScreenState = ScreenState()) -> (mapping: SurfaceMapping, rootSize: SurfaceSize, layout: RegionSpec) {
        func size(_ r: Rect) -> SurfaceSize { SurfaceSize(width: r.width, height: r.height) }
        let placement = placement(for: rule, kind: kind, screen: screen)
        var spec = layout(for: rule)
        var rootFrame = spec.frame.map(size)
        var output = placement.output ?? (kind == .touchscreen ? rootFrame : nil) ?? surface
        if rule.turns(kind: kind) {
            // The screen as the user sees it: the compositor's or the rule's output, else the
            // root (or the surface's millimetres) turned.
            let seen = placement.output ?? placement.transform.seen(rootFrame ?? surface)
            let portrait = seen.height > seen.width
            let pair = rule.portraitLayout.flatMap { id in layouts.first { $0.id == id } }
            if portrait, let pair { spec = pair }
            let unturned = placement.transform.seen(seen)
            func oriented(_ s: SurfaceSize, portrait: Bool) -> SurfaceSize {
                (s.height > s.width) == portrait ? s : SurfaceSize(width: s.height, height: s.width)
            }
            let drawnFor = spec.frame.map(size) ?? (pair == nil ? unturned : oriented(unturned, portrait: portrait))
            if abs(drawnFor.width - seen.width) > 1e-9 || abs(drawnFor.height - seen.height) > 1e-9 {
                spec = spec.stretched(x: seen.width / drawnFor.width, y: seen.height / drawnFor.height)
            }
            rootFrame = spec.frame.map(size)
            output = seen
        }
        let mapping = SurfaceMapping(surface: surface, output: output, transform: placement.transform, swapAxes: rule.swapAxes,
                                     flipX: rule.flipX, flipY: rule.flipY,
                                     calibration: rule.calibration ?? deviceCalibration)
        return (mapping, rootFrame ?? output, spec)
    }

    /// A short account: regions and gestures, per layout, and which devices drive which.
    public var summary: String {
        let regions = layouts.flatMap(\.all)
        let gestures = self.gestures.count
        let actions = self.gestures.filter { $0.action != nil }.count
        var s = "\(path): OK — \(layouts.count > 1 ? "\(layouts.count) layouts, " : "")"
        s += "\(regions.count) region\(regions.count == 1 ? "" : "s"), \(gestures) gesture\(gestures == 1 ? "" : "s")"
        s += " (\(actions) with actions), \(devices.isEmpty ? "every touch device" : "\(devices.count) device rule\(devices.count == 1 ? "" : "s")")\n"
        // Which devices are owned, and (marked *) which gestures then take their touches.
        let owned = devices.filter(\.own)
        for rule in owned {
            let holdBack = rule.holdBack > .zero && rule.kind != .touchpad
                ? ", new touches held back \(formatDecimal(Double(rule.holdBack.inMicroseconds) / 1000, places: 1)) ms" : ""
            let ending: String = switch rule.ending {
            case _ where rule.kind == .touchpad: ""
            case .automatic: ", touches taken end as the running compositor needs"
            case .cancel: ", touches taken end with libinput's cancel"
            case .lift: ", touches taken end with a lift"
            }
            s += "  owns \(rule.matchDescription) (line \(rule.line))\(holdBack)\(ending): its gestures marked * take their touches from the apps\n"
        }
        // Which devices turn with their screen, and who says how it stands.
        for rule in devices where rule.turns(kind: .touchscreen) && rule.kind != .touchpad {
            let output = rule.outputName.map { "output \($0)" } ?? "its screen"
            let source = rule.followsRotation
                ? "the compositor (else the accelerometer) says how it stands"
                : "on its size, turned \(rule.rotation.rawValue)° for good"
            s += "  \(rule.matchDescription) (line \(rule.line)) maps onto \(output): \(source)\n"
        }
        // A layout's gestures take touches only where an owned device drives it.
        var ownedLayout = false
        func walk(_ r: RegionSpec, _ depth: Int, passThrough inherited: Bool? = nil) {
            let passThrough = r.passThrough ?? inherited
            let kinds = r.gestures.map { g in
                let owns = ownedLayout && g.ownsTouches(inheritedPassThrough: passThrough)
                return g.makeRecognizer().name + (owns ? "*" : "") + (g.when.map { " (when app: \($0.apps.joined(separator: ", ")))" } ?? "")
            }
            s += String(repeating: "  ", count: depth + 1) + r.id + (kinds.isEmpty ? "" : ": " + kinds.joined(separator: ", ")) + "\n"
            for c in r.children { walk(c, depth + 1, passThrough: passThrough) }
        }
        if layouts.count == 1 {
            ownedLayout = !owned.isEmpty
            walk(layout, 0)
            return s
        }
        for (i, l) in layouts.enumerated() {
            ownedLayout = owned.contains { drives($0, layout: l.id) }
            let users = devices.filter { drives($0, layout: l.id) }.map { $0.matchDescription + ($0.portraitLayout == l.id ? " (portrait)" : "") }
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
    public func makeRecognizer() -> GestureRecognizer { recognizer.makeRecognizer() }
}

/// A configuration's layout made real: the regions and recognizers, and what the service needs
/// of each recognizer.
public struct BuiltLayout {
    public var layout: Layout
    /// The actions, by recognizer.
    public var actions: [ObjectIdentifier: ActionSpec]
    /// The `when` conditions, by recognizer.
    public var conditions: [ObjectIdentifier: GestureCondition]
    /// Each recognizer's gesture as the file says it.
    public var gestures: [ObjectIdentifier: GestureSpec] = [:]
}

/// A configuration's device rules that tell `built` of each layout they build, with its actions
/// and conditions (for whoever runs them: the service, the touch bench).
public struct ReportingRules: DeviceRules {
    public let configuration: Configuration
    /// The screens as the service knows them now.
    public let screen: ScreenState
    public let built: (BuiltLayout) -> Void

    public init(configuration: Configuration, screen: ScreenState = ScreenState(), built: @escaping (BuiltLayout) -> Void) {
        self.configuration = configuration
        self.screen = screen
        self.built = built
    }

    public var origin: String? { configuration.origin }

    public func setup(for device: DeviceDescription, node: String?) -> DeviceSetup? {
        configuration.setup(for: device, node: node, screen: screen, built: built)
    }
}

extension Configuration: DeviceRules {
    /// The configuration file's path.
    public var origin: String? { path }

    /// The device's rule (the first that matches; nil: no rule, the device is not used): its
    /// size, and its surface mapped onto its layout (``mapping(for:surface:kind:deviceCalibration:)``),
    /// built afresh for each session.
    public func setup(for device: DeviceDescription, node: String?) -> DeviceSetup? {
        setup(for: device, node: node, built: nil)
    }

    /// As ``setup(for:node:)``, and `built` is told of each layout built for the device, with
    /// its actions and `when` conditions by recognizer (for whoever runs them: the service).
    public func setup(for device: DeviceDescription, node: String?, built: ((BuiltLayout) -> Void)?) -> DeviceSetup? {
        setup(for: device, node: node, screen: ScreenState(), built: built)
    }

    /// As ``setup(for:node:built:)``, with the device placed on the screen as `screen` says.
    public func setup(for device: DeviceDescription, node: String?, screen: ScreenState, built: ((BuiltLayout) -> Void)?) -> DeviceSetup? {
        guard let rule = rule(for: device, node: node) else { return nil }
        let stated = rule.output != nil || (rule.turns(kind: device.kind) && !screen.outputs.isEmpty)
        return DeviceSetup(size: rule.size, placementStated: stated, ownership: rule.ownership) { surface in
            let placed = place(rule, surface: surface.size, kind: device.kind, deviceCalibration: device.calibrationMatrix, screen: screen)
            let layout = buildLayout(placed.layout, rootSize: placed.rootSize)
            built?(layout)
            return (layout.layout, placed.mapping)
        }
    }
}
