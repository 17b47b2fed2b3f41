import GestureVocabulary

/// A region a client registers: where it is (layout units, in its parent's coordinates — the
/// layout's when it has no parent), how far its hit area reaches, and its gestures with their
/// parameters under the configuration file's names.
public struct RegionRequest: Equatable, Sendable {
    public var id: String
    public var frame: Rect
    public var hitInsets = EdgeInsets()
    /// Another region of the same client's, to be drawn inside.
    public var parent: String?
    public var hidden = false
    public var enabled = true
    /// An exclusion region (protocol 1.1): touches that begin in it are left to the client —
    /// the service's own gestures do not take them, and on a device the service owns they
    /// reach the app (`Region.isGestureExclusion`).
    public var exclusion = false
    public var gestures: [GestureRequest] = []

    public init(id: String, frame: Rect, hitInsets: EdgeInsets = EdgeInsets(), parent: String? = nil, exclusion: Bool = false,
                gestures: [GestureRequest]) {
        self.id = id
        self.frame = frame
        self.hitInsets = hitInsets
        self.parent = parent
        self.exclusion = exclusion
        self.gestures = gestures
    }

    init(_ o: JSONObject, path: String) throws(ProtocolError) {
        self.init(id: "", frame: Rect(x: 0, y: 0, width: 0, height: 0), gestures: [])
        try Self.read(o, path: path, into: &self)
    }

    /// The ids of `id` and of every region under it among `regions` (a client's): what an
    /// `unregister` of `id` removes.
    public static func subtree(of id: String, in regions: [RegionRequest]) -> Set<String> {
        var ids: Set<String> = [id]
        var changed = true
        while changed {
            changed = false
            for r in regions where !ids.contains(r.id) && r.parent.map(ids.contains) == true {
                ids.insert(r.id)
                changed = true
            }
        }
        return ids
    }

    static func regionID(_ r: FieldReader, _ key: String) throws(ProtocolError) -> String {
        let id = try r.string(key)
        guard !id.isEmpty, id.utf8.count <= ProtocolLimits.maximumRegionIDBytes else {
            throw r.invalid(key, "must be 1 to \(ProtocolLimits.maximumRegionIDBytes) bytes of text")
        }
        guard !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw r.invalid(key, "must not contain control characters")
        }
        return id
    }

    static func frame(_ r: FieldReader) throws(ProtocolError) -> Rect? {
        guard let list = try r.list("frame") else { return nil }
        guard list.count == 4 else { throw r.invalid("frame", "must be [x, y, width, height], not a list of \(list.count)") }
        var v: [Double] = []
        for (i, item) in list.enumerated() {
            guard let n = item.numberValue else { throw r.invalid("frame[\(i)]", "must be a number, not \(item.kindName)") }
            guard abs(n) <= ProtocolLimits.maximumCoordinate else {
                throw r.invalid("frame[\(i)]", "is \(JSONValue.numberText(n)); coordinates go up to \(JSONValue.numberText(ProtocolLimits.maximumCoordinate))")
            }
            v.append(n)
        }
        for i in 2...3 where v[i] < 0 {
            throw r.invalid("frame[\(i)]", "is \(JSONValue.numberText(v[i])): the \(i == 2 ? "width" : "height") must be 0 or more")
        }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    static func json(_ frame: Rect) -> JSONValue {
        .array([frame.x, frame.y, frame.width, frame.height].map { .number($0) })
    }

    /// A number for all four sides, or [top, left, bottom, right]; negative extends.
    static func insets(_ r: FieldReader) throws(ProtocolError) -> EdgeInsets? {
        guard let v = r.object["hit-insets"], v != .null else { return nil }
        func check(_ n: Double, _ key: String) throws(ProtocolError) -> Double {
            guard abs(n) <= ProtocolLimits.maximumInset else {
                throw r.invalid(key, "is \(JSONValue.numberText(n)); insets go up to \(JSONValue.numberText(ProtocolLimits.maximumInset)) either way")
            }
            return n
        }
        if let n = v.numberValue {
            let all = try check(n, "hit-insets")
            return EdgeInsets(top: all, left: all, bottom: all, right: all)
        }
        guard let list = v.arrayValue, list.count == 4 else {
            throw r.invalid("hit-insets", "must be a number or [top, left, bottom, right], not \(v.kindName)")
        }
        var s: [Double] = []
        for (i, item) in list.enumerated() {
            guard let n = item.numberValue else { throw r.invalid("hit-insets[\(i)]", "must be a number, not \(item.kindName)") }
            s.append(try check(n, "hit-insets[\(i)]"))
        }
        return EdgeInsets(top: s[0], left: s[1], bottom: s[2], right: s[3])
    }

    static func json(_ i: EdgeInsets) -> JSONValue {
        .array([i.top, i.left, i.bottom, i.right].map { .number($0) })
    }
}

/// A change to one of the client's regions: what is given changes, the rest stays.
public struct RegionUpdate: Equatable, Sendable {
    public var id: String
    public var frame: Rect?
    public var hitInsets: EdgeInsets?
    public var hidden: Bool?
    public var enabled: Bool?
    /// Protocol 1.1: whether it is an exclusion region (``RegionRequest/exclusion``).
    public var exclusion: Bool?

    public init(id: String, frame: Rect? = nil, hitInsets: EdgeInsets? = nil, hidden: Bool? = nil, enabled: Bool? = nil,
                exclusion: Bool? = nil) {
        self.id = id
        self.frame = frame
        self.hitInsets = hitInsets
        self.hidden = hidden
        self.enabled = enabled
        self.exclusion = exclusion
    }

    init(_ o: JSONObject, path: String) throws(ProtocolError) {
        self.init(id: "")
        try Self.read(o, path: path, into: &self)
    }
}

extension RegionRequest: MessageSchema {
    static let fields: [MessageField<RegionRequest>] = [
        MessageField("id", read: { m, r throws(ProtocolError) in m.id = try regionID(r, "id") }, write: { .string($0.id) }),
        MessageField("frame", read: { m, r throws(ProtocolError) in
            guard let frame = try frame(r) else { throw r.missing("frame", "[x, y, width, height] in layout units") }
            m.frame = frame
        }, write: { json($0.frame) }),
        MessageField("hit-insets", read: { m, r throws(ProtocolError) in m.hitInsets = try insets(r) ?? EdgeInsets() },
                     write: { $0.hitInsets == EdgeInsets() ? nil : json($0.hitInsets) }),
        MessageField("parent", read: { m, r throws(ProtocolError) in
            if let p = r.object["parent"], p != .null { m.parent = try regionID(r, "parent") }
        }, write: { $0.parent.map { .string($0) } }),
        MessageField("hidden", read: { m, r throws(ProtocolError) in m.hidden = try r.bool("hidden") ?? false },
                     write: { $0.hidden ? .bool(true) : nil }),
        MessageField("enabled", read: { m, r throws(ProtocolError) in m.enabled = try r.bool("enabled") ?? true },
                     write: { $0.enabled ? nil : .bool(false) }),
        MessageField("exclusion", read: { m, r throws(ProtocolError) in m.exclusion = try r.bool("exclusion") ?? false },
                     write: { $0.exclusion ? .bool(true) : nil }),
        MessageField("gestures", read: { m, r throws(ProtocolError) in
            guard let list = try r.list("gestures") else { throw r.missing("gestures", "a list of gestures, e.g. [{\"kind\": \"tap\"}]") }
            guard list.count <= ProtocolLimits.maximumGesturesPerRegion else {
                throw r.invalid("gestures", "has \(list.count) gestures; a region may have at most \(ProtocolLimits.maximumGesturesPerRegion)")
            }
            m.gestures = []
            for (i, g) in list.enumerated() {
                let name = "gestures[\(i)]"
                guard let go = g.objectValue else { throw r.invalid(name, "must be an object with a kind, not \(g.kindName)") }
                m.gestures.append(try GestureRequest(go, path: r.name(name)))
            }
        }, write: { .array($0.gestures.map(\.json)) }, unknownInside: { v, path in
            // A gesture's keys are its kind's (one of unknown kind was refused).
            var out: [String] = []
            for (i, g) in (v.arrayValue ?? []).enumerated() {
                guard let go = g.objectValue, let kind = go["kind"]?.stringValue.flatMap(GestureKind.init(rawValue:)) else { continue }
                out += GestureProtocol.unknownKeys(in: go, path: "\(path)[\(i)]", fields: [MessageField<Void>](), besides: RecognizerSpec.keys(of: kind))
            }
            return out
        }),
    ]
}

extension RegionUpdate: MessageSchema {
    static let fields: [MessageField<RegionUpdate>] = [
        MessageField("id", read: { m, r throws(ProtocolError) in m.id = try RegionRequest.regionID(r, "id") }, write: { .string($0.id) }),
        MessageField("frame", read: { m, r throws(ProtocolError) in m.frame = try RegionRequest.frame(r) },
                     write: { $0.frame.map(RegionRequest.json) }),
        MessageField("hit-insets", read: { m, r throws(ProtocolError) in m.hitInsets = try RegionRequest.insets(r) },
                     write: { $0.hitInsets.map(RegionRequest.json) }),
        MessageField("hidden", read: { m, r throws(ProtocolError) in m.hidden = try r.bool("hidden") }, write: { $0.hidden.map { .bool($0) } }),
        MessageField("enabled", read: { m, r throws(ProtocolError) in m.enabled = try r.bool("enabled") }, write: { $0.enabled.map { .bool($0) } }),
        MessageField("exclusion", read: { m, r throws(ProtocolError) in m.exclusion = try r.bool("exclusion") },
                     write: { $0.exclusion.map { .bool($0) } }),
    ]
}

/// A gesture of a region a client registers: the same checked description of a built-in
/// recognizer as a configuration file's gesture.
public typealias GestureRequest = RecognizerSpec

extension RecognizerSpec {
    init(_ o: JSONObject, path: String) throws(ProtocolError) {
        let r = FieldReader(o, path: path)
        self.init(kind: try r.enumeration("kind", excluding: ["custom"]))
        let rules = GestureParameter.byKind[kind] ?? [:]
        for name in GestureParameter.names(of: kind) {
            let key = name.rawValue
            guard let v = o[key], v != .null else { continue }
            let n = try r.number(key)
            if let problem = rules[name]!.problem(with: n, key: r.name(key), written: v.text) {
                throw ProtocolError(.invalidField, field: r.name(key), problem)
            }
            numbers[name] = n
        }
        if invertedTouches != nil {
            throw r.invalid("max-touches", "is less than min-touches")
        }
        if kind == .swipe, let d: [SwipeDirection] = try r.names("directions") {
            guard !d.isEmpty else { throw r.invalid("directions", "must not be empty") }
            directions = Set(d)
        }
        if kind == .edgePan, let e: [Edge] = try r.names("edges") {
            guard !e.isEmpty else { throw r.invalid("edges", "must not be empty") }
            edges = Set(e)
        }
        if let s: [GestureKind] = try r.names("simultaneous-with", excluding: ["custom"]) { simultaneousWith = Set(s) }
    }

    var json: JSONValue {
        var o: JSONObject = ["kind": .string(kind.rawValue)]
        for name in numbers.keys.sorted(by: { $0.rawValue < $1.rawValue }) { o[name.rawValue] = .number(numbers[name]!) }
        if let directions { o["directions"] = .array(SwipeDirection.allCases.filter(directions.contains).map { .string($0.rawValue) }) }
        if let edges { o["edges"] = .array(Edge.allCases.filter(edges.contains).map { .string($0.rawValue) }) }
        if !simultaneousWith.isEmpty {
            o["simultaneous-with"] = .array(GestureKind.allCases.filter(simultaneousWith.contains).map { .string($0.rawValue) })
        }
        return .object(o)
    }
}
