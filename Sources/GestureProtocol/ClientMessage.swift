import Gestures

/// A request from a client: one JSON object on one line with a `type` and, to be answered by
/// name, an `id` (a number or text, echoed in the reply). Unknown fields are ignored, unknown
/// types refused.
public struct ClientMessage: Equatable, Sendable {
    public var id: JSONValue?
    public var request: ClientRequest
    /// The fields of the request this version does not know, as paths (`region.colour`): they
    /// were ignored, and the reply names them, so that a misspelt field is noticed.
    public var ignored: [String] = []

    public init(id: JSONValue? = nil, _ request: ClientRequest) {
        self.id = id
        self.request = request
    }

    /// Reads one line (without its newline). Every error names the field at fault and carries
    /// the request's id when it could be read.
    public static func parse(_ line: some Collection<UInt8>) throws(ProtocolError) -> ClientMessage {
        let o = try JSONObject.line(line, mustBe: "a request must be a JSON object with a type")
        let id = o["id"]
        if let id, id.numberValue == nil, id.stringValue == nil, id != .null {
            throw ProtocolError(.invalidField, field: "id", "id must be a number or text, not \(id.kindName)")
        }
        // A number id must come back exactly as sent: a whole number below 2^53, which a double
        // holds exactly. (2^53 itself is refused: 2^53 + 1, sent, reads as 2^53.)
        if let n = id?.numberValue, n != n.rounded() || abs(n) >= 9_007_199_254_740_992 {
            throw ProtocolError(.invalidField, field: "id", "id must be text or a whole number below 2^53 (at most 9007199254740991), not \(JSONValue.numberText(n))")
        }
        do throws(ProtocolError) {
            var message = ClientMessage(id: id == .null ? nil : id, try ClientRequest(o))
            message.ignored = ClientRequest.unknownFields(o)
            return message
        } catch {
            var e = error
            e.id = id == .null ? nil : id
            throw e
        }
    }

    /// The request as one line of JSON, with its newline.
    public var jsonLine: String {
        var o = JSONObject([("type", .string(request.type))])
        if let id { o["id"] = id }
        for (k, v) in request.fields { o[k] = v }
        return JSONValue.object(o).text + "\n"
    }
}

/// What a client can ask.
public enum ClientRequest: Equatable, Sendable {
    /// Which of the service's own gestures to send (the client's regions' gestures always come).
    case subscribe(EventFilter)
    /// None of the service's own gestures.
    case unsubscribe
    /// A region of the client's, with its gestures; the service hit-tests it above its own.
    case register(RegionRequest)
    /// Moves, resizes, hides, shows, enables or disables one of the client's regions.
    case update(RegionUpdate)
    /// Removes one of the client's regions (and its children).
    case unregister(String)
    /// What the client says about where it runs (`app`: the app that has focus), for rules.
    case context([String: String])
    /// Answered with `pong`: the service is alive and reading.
    case ping

    public static let types = ["subscribe", "unsubscribe", "register", "update", "unregister", "context", "ping"]

    public var type: String {
        switch self {
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .register: "register"
        case .update: "update"
        case .unregister: "unregister"
        case .context: "context"
        case .ping: "ping"
        }
    }

    init(_ o: JSONObject) throws(ProtocolError) {
        let r = FieldReader(o, path: "")
        let type = try r.string("type")
        switch type {
        case "subscribe":
            self = .subscribe(try r.object("filter").map { f throws(ProtocolError) in try EventFilter(f, path: "filter") } ?? EventFilter())
        case "unsubscribe":
            self = .unsubscribe
        case "register":
            guard let region = try r.object("region") else { throw r.missing("region", "an object: the region to register") }
            self = .register(try RegionRequest(region, path: "region"))
        case "update":
            guard let region = try r.object("region") else { throw r.missing("region", "an object: the region's id and what changes") }
            self = .update(try RegionUpdate(region, path: "region"))
        case "unregister":
            self = .unregister(try r.string("region"))
        case "context":
            guard let c = try r.object("context") else { throw r.missing("context", "an object of text values, e.g. {\"app\": \"org.mozilla.firefox\"}") }
            guard c.pairs.count <= ProtocolLimits.maximumContextEntries else {
                throw r.invalid("context", "has \(c.pairs.count) entries; at most \(ProtocolLimits.maximumContextEntries)")
            }
            var context: [String: String] = [:]
            for (k, v) in c.pairs {
                // A null is left out, as for every optional field: `{"app": null}` says no app.
                if v == .null { continue }
                guard let s = v.stringValue else { throw r.invalid("context.\(k)", "must be text, not \(v.kindName)") }
                guard k.utf8.count <= ProtocolLimits.maximumContextBytes, s.utf8.count <= ProtocolLimits.maximumContextBytes else {
                    throw r.invalid("context.\(k)", "is longer than \(ProtocolLimits.maximumContextBytes) bytes")
                }
                context[k] = s
            }
            self = .context(context)
        case "ping":
            self = .ping
        default:
            throw ProtocolError(.unknownType, field: "type",
                                "unknown request type \"\(type)\" (protocol \(ProtocolLimits.version) knows: \(Self.types.joined(separator: ", ")))")
        }
    }

    /// The fields of request `o` (already read as a request) that version 1 does not know.
    static func unknownFields(_ o: JSONObject) -> [String] {
        func unknown(_ o: JSONObject, _ known: [String], _ path: String) -> [String] {
            o.keys.filter { !known.contains($0) }.map { path.isEmpty ? $0 : "\(path).\($0)" }
        }
        let type = o["type"]?.stringValue ?? ""
        var out: [String] = []
        switch type {
        case "subscribe":
            out = unknown(o, ["type", "id", "filter"], "")
            if let f = o["filter"]?.objectValue { out += unknown(f, ["regions", "kinds", "states", "devices"], "filter") }
        case "register", "update":
            out = unknown(o, ["type", "id", "region"], "")
            guard let r = o["region"]?.objectValue else { break }
            let known = type == "register" ? ["id", "frame", "hit-insets", "parent", "hidden", "enabled", "gestures"]
                : ["id", "frame", "hit-insets", "hidden", "enabled"]
            out += unknown(r, known, "region")
            for (i, g) in (r["gestures"]?.arrayValue ?? []).enumerated() {
                guard type == "register", let go = g.objectValue, let kind = go["kind"]?.stringValue.flatMap(GestureKind.init(rawValue:)) else { continue }
                out += unknown(go, RecognizerSpec.keys(of: kind), "region.gestures[\(i)]")
            }
        case "unregister": out = unknown(o, ["type", "id", "region"], "")
        case "context": out = unknown(o, ["type", "id", "context"], "")
        default: out = unknown(o, ["type", "id"], "")
        }
        return out
    }

    var fields: [(String, JSONValue)] {
        switch self {
        case .subscribe(let f): f == EventFilter() ? [] : [("filter", f.json)]
        case .unsubscribe, .ping: []
        case .register(let r): [("region", r.json)]
        case .update(let u): [("region", u.json)]
        case .unregister(let id): [("region", .string(id))]
        case .context(let c): [("context", .object(JSONObject(c.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))]
        }
    }
}

/// Which gestures a client wants. Each list given must contain the event's value; a list left
/// out matches everything, an empty list nothing.
public struct EventFilter: Equatable, Sendable {
    public var regions: [String]?
    public var kinds: [GestureKind]?
    public var states: [GestureState]?
    /// Device names, exactly as the greeting lists them.
    public var devices: [String]?

    public init(regions: [String]? = nil, kinds: [GestureKind]? = nil, states: [GestureState]? = nil, devices: [String]? = nil) {
        self.regions = regions
        self.kinds = kinds
        self.states = states
        self.devices = devices
    }

    init(_ o: JSONObject, path: String) throws(ProtocolError) {
        let r = FieldReader(o, path: path)
        regions = try r.strings("regions")
        kinds = try r.names("kinds", excluding: ["custom"])
        states = try r.names("states", excluding: ["possible", "failed"])
        devices = try r.strings("devices")
    }

    public func matches(_ e: GestureEvent) -> Bool {
        if let regions, !regions.contains(e.region) { return false }
        if let kinds, !kinds.contains(e.kind) { return false }
        if let states, !states.contains(e.state) { return false }
        if let devices, !devices.contains(e.device ?? "") { return false }
        return true
    }

    var json: JSONValue {
        var o = JSONObject()
        if let regions { o["regions"] = .array(regions.map { .string($0) }) }
        if let kinds { o["kinds"] = .array(kinds.map { .string($0.rawValue) }) }
        if let states { o["states"] = .array(states.map { .string($0.rawValue) }) }
        if let devices { o["devices"] = .array(devices.map { .string($0) }) }
        return .object(o)
    }
}
