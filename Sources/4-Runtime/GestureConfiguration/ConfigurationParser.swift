import Foundation
import Gestures
import TouchEvents
import Yams

/// A mistake in a configuration file, with where it is: `FILE:LINE:COLUMN: message`.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String {
        line > 0 ? "\(path):\(line):\(column): \(message)" : "\(path): \(message)"
    }
}

extension Configuration {
    /// Reads and checks a configuration file.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = (error as NSError).localizedDescription
            throw ConfigurationError(path: path, line: 0, column: 0, message: "cannot read the configuration: \(reason)")
        }
        return try parse(yaml: text, path: path)
    }

    /// Checks configuration text; `path` names it in messages.
    public static func parse(yaml: String, path: String) throws(ConfigurationError) -> Configuration {
        try ConfigurationParser(path: path).parse(yaml)
    }
}

struct ConfigurationParser {
    let path: String

    private func fail(_ node: Node?, _ message: String) -> ConfigurationError {
        ConfigurationError(path: path, line: node?.mark?.line ?? 1, column: node?.mark?.column ?? 1, message: message)
    }

    func parse(_ yaml: String) throws(ConfigurationError) -> Configuration {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                throw ConfigurationError(path: path, line: 1, column: 1, message: "the configuration is empty: it needs a layout")
            }
            root = node
        } catch let error as ConfigurationError {
            throw error
        } catch let error as YamlError {
            switch error {
            case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
                 .composer(let context, let problem, let mark, _):
                let detail = context.map { "\($0.text) " } ?? ""
                throw ConfigurationError(path: path, line: mark.line, column: mark.column, message: "invalid YAML: \(detail)\(problem)")
            default:
                throw ConfigurationError(path: path, line: 1, column: 1, message: "invalid YAML: \(error)")
            }
        } catch {
            throw ConfigurationError(path: path, line: 1, column: 1, message: "invalid YAML: \(error)")
        }
        let top = try mapping(root, "the configuration", known: ["devices", "layout", "layouts", "service"])
        var devices: [DeviceRule] = []
        var layoutNames: [(id: String, node: Node)] = []
        if let list = top["devices"] {
            for node in try sequence(list, "devices") {
                let (rule, named) = try device(node)
                devices.append(rule)
                layoutNames += named
            }
        }
        var layouts: [RegionSpec] = []
        switch (top["layout"], top["layouts"]) {
        case (let one?, nil):
            layouts = [try region(one, isRoot: true)]
        case (nil, let many?):
            let list = try sequence(many, "layouts")
            guard !list.isEmpty else { throw fail(many, "layouts must list at least one layout (a root region with an id)") }
            for node in list {
                let layout = try region(node, isRoot: true)
                if let first = layouts.first(where: { $0.id == layout.id }) {
                    throw ConfigurationError(path: path, line: layout.line, column: layout.column,
                                             message: "duplicate layout id \"\(layout.id)\" (first at line \(first.line))")
                }
                layouts.append(layout)
            }
        case (_?, let many?):
            throw fail(many, "give either layout (one) or layouts (several, each with an id), not both")
        case (nil, nil):
            throw fail(root, "missing \"layout\": the region tree (a root region with an id), or \"layouts\": several")
        }
        for layout in layouts {
            var seen: [String: Int] = [:]
            for r in layout.all {
                if let first = seen[r.id] {
                    throw ConfigurationError(path: path, line: r.line, column: r.column, message: "duplicate region id \"\(r.id)\" (first at line \(first))")
                }
                seen[r.id] = r.line
            }
        }
        for (id, node) in layoutNames where !layouts.contains(where: { $0.id == id }) {
            throw fail(node, "no layout \"\(id)\" (layouts: \(layouts.map(\.id).joined(separator: ", ")))")
        }
        var configuration = Configuration(devices: devices, layouts: layouts, path: path)
        if let s = top["service"] { configuration.service = try service(s) }
        return configuration
    }

    private func service(_ node: Node) throws(ConfigurationError) -> ServiceSettings {
        let m = try mapping(node, "service", known: ["seat", "socket", "socket-group", "action-timeout", "max-actions", "actions-as-root", "rotation-lock"])
        var s = ServiceSettings()
        if let v = m["seat"] { s.seat = try string(v, "seat") }
        if let v = m["socket"] {
            let path = try string(v, "socket")
            guard path.hasPrefix("/") else { throw fail(v, "socket must be an absolute path, not \"\(path)\"") }
            s.socket = path
        }
        if let v = m["socket-group"] { s.socketGroup = try string(v, "socket-group") }
        if let v = m["action-timeout"] { s.actionTimeout = .milliseconds(try parameter(v, "action-timeout", .milliseconds)) }
        if let v = m["max-actions"] { s.maxActions = Int(try parameter(v, "max-actions", .count(1...64))) }
        if let v = m["actions-as-root"] { s.actionsAsRoot = try bool(v, "actions-as-root") }
        if let v = m["rotation-lock"] {
            let path = try string(v, "rotation-lock")
            guard path.hasPrefix("/") else {
                throw fail(v, "rotation-lock is the absolute path of a file that holds the screen's rotation while it exists, not \"\(path)\"")
            }
            s.rotationLock = path
        }
        return s
    }

    // MARK: - Shapes

    /// A mapping with only `known` keys, as [key: value node].
    private func mapping(_ node: Node, _ what: String, known: [String]) throws(ConfigurationError) -> [String: Node] {
        guard let m = node.mapping else { throw fail(node, "\(what) must be a mapping (key: value lines)") }
        var result: [String: Node] = [:]
        for (k, v) in m {
            guard let key = k.string, k.scalar != nil else { throw fail(k, "keys must be text") }
            guard known.contains(key) else {
                throw fail(k, "unknown key \"\(key)\" in \(what) (known: \(known.joined(separator: ", ")))")
            }
            if result[key] != nil { throw fail(k, "\"\(key)\" appears twice in \(what)") }
            result[key] = v
        }
        return result
    }

    private func sequence(_ node: Node, _ what: String) throws(ConfigurationError) -> [Node] {
        guard let s = node.sequence else { throw fail(node, "\(what) must be a list") }
        return Array(s)
    }

    private func string(_ node: Node, _ what: String) throws(ConfigurationError) -> String {
        guard node.scalar != nil, let s = node.string, !s.isEmpty else { throw fail(node, "\(what) must be non-empty text") }
        return s
    }

    private func number(_ node: Node, _ what: String) throws(ConfigurationError) -> Double {
        guard node.scalar != nil, let v = node.float, v.isFinite else { throw fail(node, "\(what) must be a number, not \(describe(node))") }
        return v
    }

    private func bool(_ node: Node, _ what: String) throws(ConfigurationError) -> Bool {
        guard node.scalar != nil, let v = node.bool else {
            // A quoted "true" is a string to YAML: say so, rather than "not "true"".
            if let s = node.scalar, s.style != .plain, ["true", "false"].contains(s.string.lowercased()) {
                throw fail(node, "\(what) must be true or false without quotes: \(describe(node)) in quotes is a string")
            }
            throw fail(node, "\(what) must be true or false, not \(describe(node))")
        }
        return v
    }

    private func numbers(_ node: Node, _ what: String, count: Int) throws(ConfigurationError) -> [Double] {
        guard let s = node.sequence, s.count == count else { throw fail(node, "\(what) must be a list of \(count) numbers") }
        var out: [Double] = []
        for n in s { out.append(try number(n, what)) }
        return out
    }

    private func describe(_ node: Node) -> String {
        if let s = node.scalar?.string { return "\"\(s)\"" }
        return node.sequence != nil ? "a list" : "a mapping"
    }

    // MARK: - Devices

    /// A device rule, and the layouts it names with their nodes (checked once the layouts are read).
    private func device(_ node: Node) throws(ConfigurationError) -> (DeviceRule, [(id: String, node: Node)]) {
        let m = try mapping(node, "a device", known: ["match", "layout", "size", "output", "output-name", "rotation",
                                                     "swap-axes", "flip", "calibration", "own", "hold-back", "end-owned-touches"])
        var rule = DeviceRule()
        rule.line = node.mark?.line ?? 0
        if let match = m["match"] {
            let mm = try mapping(match, "match", known: ["name", "kind", "node"])
            if let n = mm["name"] { rule.name = try string(n, "name") }
            if let n = mm["node"] { rule.node = try string(n, "node") }
            if let k = mm["kind"] {
                switch try string(k, "kind") {
                case "touchscreen": rule.kind = .touchscreen
                case "touchpad": rule.kind = .touchpad
                case let other: throw fail(k, "unknown device kind \"\(other)\" (known: touchscreen, touchpad)")
                }
            }
        }
        if let s = m["size"] { rule.size = try size(s, "size") }
        if let s = m["output"] { rule.output = try size(s, "output") }
        if let o = m["output-name"] {
            rule.outputName = try string(o, "output-name")
            // An output's transform is followed unless a rotation is given.
            if m["rotation"] == nil { rule.followsRotation = true }
        }
        if let r = m["rotation"], r.scalar?.string == "auto" {
            rule.followsRotation = true
        } else if let r = m["rotation"] {
            guard r.scalar.flatMap({ Double($0.string) }) != nil else {
                throw fail(r, "rotation must be 0, 90, 180, 270 or auto, not \(describe(r))")
            }
            let v = try number(r, "rotation")
            // Whole degrees within a turn before any conversion: 1e300 would trap Int(_:).
            guard v.isFinite, abs(v) <= 360, let rotation = Rotation(rawValue: Int(v)), Double(rotation.rawValue) == v else {
                throw fail(r, "rotation must be 0, 90, 180, 270 or auto, not \(describe(r))")
            }
            rule.rotation = rotation
        }
        if let a = m["swap-axes"] { rule.swapAxes = try bool(a, "swap-axes") }
        if let f = m["flip"] {
            for axis in try sequence(f, "flip") {
                switch try string(axis, "flip") {
                case "x": rule.flipX = true
                case "y": rule.flipY = true
                case let other: throw fail(axis, "flip takes x and y, not \"\(other)\"")
                }
            }
        }
        if let c = m["calibration"] { rule.calibration = try numbers(c, "calibration (libinput's matrix: a b c d e f)", count: 6) }
        var layoutNodes: [(id: String, node: Node)] = []
        if let l = m["layout"], l.mapping != nil {
            let pair = try mapping(l, "layout (a layout per orientation)", known: ["landscape", "portrait"])
            guard let landscape = pair["landscape"], let portrait = pair["portrait"] else {
                throw fail(l, "layout per orientation names two layouts: {landscape: ID, portrait: ID}")
            }
            rule.layout = try string(landscape, "landscape")
            rule.portraitLayout = try string(portrait, "portrait")
            layoutNodes = [(rule.layout!, landscape), (rule.portraitLayout!, portrait)]
            guard rule.followsRotation || rule.outputName != nil else {
                throw fail(l, "a layout per orientation needs a screen that turns: add rotation: auto (or output-name) to this device rule")
            }
        } else if let l = m["layout"] {
            rule.layout = try string(l, "layout")
            layoutNodes = [(rule.layout!, l)]
        }
        if let o = m["own"] { rule.own = try bool(o, "own") }
        if let h = m["hold-back"] {
            rule.holdBack = try milliseconds(h, "hold-back", max: 1000)
            guard rule.own else {
                throw fail(h, "hold-back keeps new touches from the apps of an owned device: add own: true to this device rule")
            }
        }
        if let e = m["end-owned-touches"] {
            let value = try string(e, "end-owned-touches")
            guard let ending = OwnedTouchEnding(rawValue: value) else {
                throw fail(e, "end-owned-touches is auto, cancel or lift, not \"\(value)\"")
            }
            rule.ending = ending
            guard rule.own else {
                throw fail(e, "end-owned-touches says how an owned device's touches end for the apps: add own: true to this device rule")
            }
        }
        return (rule, layoutNodes)
    }

    /// A time in milliseconds, written `60ms` or `60`: 0 to `max`.
    private func milliseconds(_ node: Node, _ what: String, max: Double) throws(ConfigurationError) -> Duration {
        var v: Double?
        if let s = node.scalar?.string {
            let t = s.trimmingCharacters(in: .whitespaces)
            v = t.hasSuffix("ms") ? Double(t.dropLast(2).trimmingCharacters(in: .whitespaces)) : Double(t)
        }
        guard let v, v.isFinite, v >= 0, v <= max else {
            throw fail(node, "\(what) is a time in milliseconds from 0 to \(Int(max)) (60ms, or 60), not \(describe(node))")
        }
        return .microseconds(Int64((v * 1000).rounded()))
    }

    private func size(_ node: Node, _ what: String) throws(ConfigurationError) -> SurfaceSize {
        let v = try numbers(node, "\(what) ([width, height])", count: 2)
        guard v[0] > 0, v[1] > 0 else { throw fail(node, "\(what) must be positive, not \(v[0]) x \(v[1])") }
        return SurfaceSize(width: v[0], height: v[1])
    }

    // MARK: - Regions

    private func region(_ node: Node, isRoot: Bool) throws(ConfigurationError) -> RegionSpec {
        let what = isRoot ? "the layout" : "a region"
        let m = try mapping(node, what, known: ["id", "frame", "hit-insets", "hidden", "enabled", "pass-through", "gestures", "children"])
        guard let idNode = m["id"] else { throw fail(node, "\(what) needs an id") }
        var r = RegionSpec(id: try string(idNode, "id"))
        guard !r.id.hasPrefix("@") else {
            throw fail(idNode, "region ids starting with @ are kept for the regions socket clients register: rename \"\(r.id)\"")
        }
        r.line = idNode.mark?.line ?? 0
        r.column = idNode.mark?.column ?? 0
        if let f = m["frame"] {
            let v = try numbers(f, "frame ([x, y, width, height])", count: 4)
            guard v[2] >= 0, v[3] >= 0 else {
                throw fail(f, "region \"\(r.id)\" has a negative size (\(v[2]) x \(v[3])): width and height must be 0 or more")
            }
            r.frame = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        } else if !isRoot {
            throw fail(node, "region \"\(r.id)\" needs a frame ([x, y, width, height] in its parent's coordinates)")
        }
        if let i = m["hit-insets"] { r.hitInsets = try insets(i) }
        if let h = m["hidden"] { r.hidden = try bool(h, "hidden") }
        if let e = m["enabled"] { r.enabled = try bool(e, "enabled") }
        if let p = m["pass-through"] { r.passThrough = try bool(p, "pass-through") }
        if let g = m["gestures"] {
            for n in try sequence(g, "gestures") { r.gestures.append(try gesture(n)) }
        }
        if let c = m["children"] {
            for n in try sequence(c, "children") { r.children.append(try region(n, isRoot: false)) }
        }
        return r
    }

    private func insets(_ node: Node) throws(ConfigurationError) -> EdgeInsets {
        if node.scalar != nil { return EdgeInsets(all: try number(node, "hit-insets")) }
        if node.sequence != nil {
            let v = try numbers(node, "hit-insets ([top, left, bottom, right], or one number for all)", count: 4)
            return EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
        }
        let m = try mapping(node, "hit-insets", known: ["top", "left", "bottom", "right"])
        var i = EdgeInsets.zero
        if let v = m["top"] { i.top = try number(v, "top") }
        if let v = m["left"] { i.left = try number(v, "left") }
        if let v = m["bottom"] { i.bottom = try number(v, "bottom") }
        if let v = m["right"] { i.right = try number(v, "right") }
        return i
    }

    // MARK: - Gestures

    private func gesture(_ node: Node) throws(ConfigurationError) -> GestureSpec {
        guard let raw = node.mapping else { throw fail(node, "a gesture must be a mapping with a kind") }
        guard let kindNode = raw["kind"] else { throw fail(node, "a gesture needs a kind (\(kindList))") }
        let kindName = try string(kindNode, "kind")
        guard let kind = GestureKind(rawValue: kindName), kind != .custom else {
            throw fail(kindNode, "unknown gesture kind \"\(kindName)\" (known: \(kindList))")
        }
        let rules = GestureParameter.byKind[kind] ?? [:]
        var known = RecognizerSpec.keys(of: kind)
        known.insert(contentsOf: ["action", "when", "pass-through"], at: 1)  // a file's gesture also says what it does, when, and whether apps keep its touches
        let m = try mapping(node, "a \(kind) gesture", known: known)
        var g = GestureSpec(kind: kind)
        g.line = kindNode.mark?.line ?? 0
        for name in GestureParameter.names(of: kind) {
            guard let v = m[name.rawValue] else { continue }
            g.recognizer.numbers[name] = try parameter(v, name.rawValue, rules[name]!)
        }
        if let (lo, hi) = g.recognizer.invertedTouches {
            throw fail(m["max-touches"], "max-touches \(Int(hi)) is less than min-touches \(Int(lo))")
        }
        if let d = m["directions"] { g.recognizer.directions = Set(try names(d, "directions", SwipeDirection.self)) }
        if let e = m["edges"] { g.recognizer.edges = Set(try names(e, "edges", Edge.self)) }
        if let s = m["simultaneous-with"] { g.recognizer.simultaneousWith = Set(try names(s, "simultaneous-with", GestureKind.self)) }
        if let a = m["action"] { g.action = try action(a, kind: kind) }
        if let w = m["when"] { g.when = try condition(w) }
        if let p = m["pass-through"] { g.passThrough = try bool(p, "pass-through") }
        return g
    }

    /// `when: {app: "firefox"}` or `when: {app: ["firefox", "org.mozilla.firefox"]}`.
    private func condition(_ node: Node) throws(ConfigurationError) -> GestureCondition {
        let m = try mapping(node, "when", known: ["app"])
        guard let appNode = m["app"] else { throw fail(node, "when needs app: the app (or a list of apps) that must have the focus") }
        if appNode.scalar != nil { return GestureCondition(apps: [try string(appNode, "app")]) }
        let list = try sequence(appNode, "app")
        guard !list.isEmpty else { throw fail(appNode, "app must name at least one app") }
        var apps: [String] = []
        for n in list { apps.append(try string(n, "app")) }
        return GestureCondition(apps: apps)
    }

    private var kindList: String { GestureKind.named.map(\.rawValue).joined(separator: ", ") }

    private func parameter(_ node: Node, _ key: String, _ rule: GestureParameter) throws(ConfigurationError) -> Double {
        let v = try number(node, key)
        if let problem = rule.problem(with: v, key: key, written: describe(node)) { throw fail(node, problem) }
        return v
    }

    /// The names in a list, each one of `T`'s (but those in `excluding`: `custom`, which only
    /// code can make).
    private func names<T: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, _: T.Type,
                                                           excluding: [String] = ["custom"]) throws(ConfigurationError) -> [T]
    where T.RawValue == String {
        let list = try sequence(node, what)
        guard !list.isEmpty else { throw fail(node, "\(what) must not be empty") }
        var out: [T] = []
        for n in list {
            let s = try string(n, what)
            guard let v = T(rawValue: s), !excluding.contains(s) else {
                let known = T.allCases.map(\.rawValue).filter { !excluding.contains($0) }.joined(separator: ", ")
                throw fail(n, "unknown \(what == "simultaneous-with" ? "gesture kind" : String(what.dropLast())) \"\(s)\" in \(what) (known: \(known))")
            }
            out.append(v)
        }
        return out
    }

    private func action(_ node: Node, kind: GestureKind) throws(ConfigurationError) -> ActionSpec {
        let m = try mapping(node, "an action", known: ["exec", "emit", "key", "hold", "button", "scroll", "pointer", "touchpad", "on"])
        var a = ActionSpec()
        if let e = m["exec"] {
            let list = try sequence(e, "exec")
            guard !list.isEmpty else { throw fail(e, "exec must list the program and its arguments, e.g. [\"/usr/bin/playerctl\", \"play-pause\"]") }
            var argv: [String] = []
            for n in list {
                guard n.scalar != nil, let s = n.string else { throw fail(n, "exec arguments must be text") }
                argv.append(s)
            }
            guard argv[0].hasPrefix("/") else {
                throw fail(list[0], "exec runs a program without a shell: give its absolute path, not \"\(argv[0])\"")
            }
            a.exec = argv
        }
        if let e = m["emit"] { a.emit = try bool(e, "emit") }
        if let k = m["key"] { a.key = try chord(k, "key") }
        if let h = m["hold"] {
            guard !kind.isDiscrete else { throw fail(h, "hold keeps keys down while a gesture lasts; a \(kind) happens at once: use key") }
            a.hold = try chord(h, "hold")
        }
        if let b = m["button"] {
            let name = try string(b, "button")
            guard let button = PointerButton(rawValue: name) else {
                throw fail(b, "unknown button \"\(name)\" (known: \(PointerButton.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            a.button = button
        }
        for key in ["scroll", "pointer"] {
            guard let v = m[key] else { continue }
            guard kind == .pan || kind == .edgePan else {
                throw fail(v, "\(key) follows a pan's movement: it goes on a pan or edge-pan, not a \(kind)")
            }
            let name = try string(v, key)
            if key == "scroll" {
                guard let axes = ScrollAxes(rawValue: name) else {
                    throw fail(v, "unknown scroll \"\(name)\" (known: \(ScrollAxes.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                a.scroll = axes
            } else {
                guard name == "move" else { throw fail(v, "pointer takes move (relative motion from the pan), not \"\(name)\"") }
                a.pointer = true
            }
        }
        if let t = m["touchpad"] { a.touchpad = try touchpad(t, kind: kind) }
        if let on = m["on"] {
            guard !kind.isDiscrete else { throw fail(on, "\"on\" applies to continuous gestures; a \(kind) happens once") }
            var states: Set<GestureState> = []
            for n in try sequence(on, "on") {
                let s = try string(n, "on")
                guard let state = GestureState(rawValue: s), [.began, .changed, .ended].contains(state) else {
                    throw fail(n, "unknown state \"\(s)\" in on (known: began, changed, ended)")
                }
                states.insert(state)
            }
            guard !states.isEmpty else { throw fail(on, "on must not be empty") }
            if a.hold != nil && states != [.began, .ended] {
                throw fail(on, "hold presses at began and releases at ended (or cancelled): on must be [began, ended] or left out")
            }
            if a.scroll != nil || a.pointer {
                throw fail(on, "\(a.scroll != nil ? "scroll" : "pointer") follows every change of the pan: leave out on")
            }
            a.on = states
        }
        guard a.exec != nil || a.emit || a.usesKeyboard || a.usesPointer || a.usesTouchpad else {
            throw fail(node, "an action needs one of exec (a program to run), emit: true (send to socket clients), key, hold, button, scroll, pointer or touchpad")
        }
        return a
    }

    /// `touchpad: {swipe: 3}` on a pan, `touchpad: {pinch: 2}` on a pinch, with `stroke: [w, h]` mm.
    private func touchpad(_ node: Node, kind: GestureKind) throws(ConfigurationError) -> TouchpadAction {
        let m = try mapping(node, "touchpad", known: ["swipe", "pinch", "stroke"])
        let action: TouchpadAction
        switch (m["swipe"], m["pinch"]) {
        case (let swipe?, nil):
            guard kind == .pan else {
                throw fail(node, kind == .swipe
                    ? "a swipe is recognized once, at its end: drive the touchpad swipe from a pan (kind: pan, min-touches and max-touches), which follows the fingers"
                    : "touchpad: {swipe: N} follows a pan's movement: it goes on a pan, not a \(kind)")
            }
            let fingers = try number(swipe, "swipe")
            guard fingers == 3 || fingers == 4 else {
                throw fail(swipe, "a touchpad swipe has 3 or 4 fingers (libinput scrolls with two), not \(describe(swipe))")
            }
            action = TouchpadAction(kind: .swipe(fingers: Int(fingers)))
        case (nil, let pinch?):
            guard kind == .pinch else { throw fail(node, "touchpad: {pinch: 2} follows a pinch's spread: it goes on a pinch, not a \(kind)") }
            guard try number(pinch, "pinch") == 2 else {
                throw fail(pinch, "a touchpad pinch has 2 fingers (the virtual touchpad has two slots: more fingers are a swipe), not \(describe(pinch))")
            }
            action = TouchpadAction(kind: .pinch)
        case (_?, _?):
            throw fail(node, "touchpad is a swipe or a pinch, not both")
        case (nil, nil):
            throw fail(node, "touchpad needs swipe (3 or 4 fingers, on a pan) or pinch (2, on a pinch)")
        }
        var result = action
        if let s = m["stroke"] {
            let v = try numbers(s, "stroke ([across, down] in mm)", count: 2)
            guard v.allSatisfy({ $0 != 0 && abs($0) <= 1000 }) else {
                throw fail(s, "stroke is the mm the touchpad's fingers move for a stroke across the whole screen, not 0 and at most 1000 either way (negative runs it the other way), not \(v[0]) x \(v[1])")
            }
            result.stroke = SurfaceSize(width: v[0], height: v[1])
        }
        return result
    }

    /// `leftmeta+right`: kernel key names (KEY_LEFTMETA → leftmeta) joined by `+`.
    private func chord(_ node: Node, _ what: String) throws(ConfigurationError) -> KeyChord {
        let text = try string(node, what)
        var codes: [UInt16] = []
        for part in text.split(separator: "+", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw fail(node, "\(what) \"\(text)\" has an empty key name: write keys joined by +, e.g. \"leftctrl+c\"")
            }
            guard let code = KeyNames.code(name) else {
                let hint = KeyNames.suggestion(for: name).map { " (did you mean \($0)?)" } ?? ""
                throw fail(node, "unknown key \"\(name)\" in \(what)\(hint): keys are the kernel's names in lower case, KEY_LEFTMETA → leftmeta")
            }
            guard !codes.contains(code) else { throw fail(node, "\(what) \"\(text)\" names \(name) twice") }
            codes.append(code)
        }
        return KeyChord(codes: codes)
    }
}
