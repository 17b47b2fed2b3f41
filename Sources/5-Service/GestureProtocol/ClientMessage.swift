import GestureVocabulary

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

    /// The request types of this version, in the documented order.
    public static let types = kinds.map(\.type)

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

    /// A request type: its name, the request before its fields are read, and its fields
    /// besides `type` and `id` (its schema).
    struct Kind: Sendable {
        let type: String
        let empty: ClientRequest
        let fields: [MessageField<ClientRequest>]
    }

    /// The keys every request may have.
    static let envelope = ["type", "id"]

    static let kinds: [Kind] = [
        Kind(type: "subscribe", empty: .subscribe(EventFilter()), fields: [
            MessageField("filter", holding: EventFilter.self, read: { m, r throws(ProtocolError) in
                if let f = try r.object("filter") { m = .subscribe(try EventFilter(f, path: "filter")) }
            }, write: { m in
                guard case .subscribe(let f) = m, f != EventFilter() else { return nil }
                return f.json
            }),
        ]),
        Kind(type: "unsubscribe", empty: .unsubscribe, fields: []),
        Kind(type: "register", empty: .unsubscribe, fields: [
            MessageField("region", holding: RegionRequest.self, read: { m, r throws(ProtocolError) in
                guard let region = try r.object("region") else { throw r.missing("region", "an object: the region to register") }
                m = .register(try RegionRequest(region, path: "region"))
            }, write: { m in
                guard case .register(let region) = m else { return nil }
                return region.json
            }),
        ]),
        Kind(type: "update", empty: .unsubscribe, fields: [
            MessageField("region", holding: RegionUpdate.self, read: { m, r throws(ProtocolError) in
                guard let region = try r.object("region") else { throw r.missing("region", "an object: the region's id and what changes") }
                m = .update(try RegionUpdate(region, path: "region"))
            }, write: { m in
                guard case .update(let update) = m else { return nil }
                return update.json
            }),
        ]),
        Kind(type: "unregister", empty: .unsubscribe, fields: [
            MessageField("region", read: { m, r throws(ProtocolError) in m = .unregister(try r.string("region")) }, write: { m in
                guard case .unregister(let id) = m else { return nil }
                return .string(id)
            }),
        ]),
        Kind(type: "context", empty: .context([:]), fields: [
            MessageField("context", read: { m, r throws(ProtocolError) in m = .context(try readContext(r)) }, write: { m in
                guard case .context(let c) = m else { return nil }
                return .object(JSONObject(c.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            }),
        ]),
        Kind(type: "ping", empty: .ping, fields: []),
    ]

    init(_ o: JSONObject) throws(ProtocolError) {
        let r = FieldReader(o, path: "")
        let type = try r.string("type")
        guard let kind = Self.kinds.first(where: { $0.type == type }) else {
            throw ProtocolError(.unknownType, field: "type",
                                "unknown request type \"\(type)\" (protocol \(ProtocolLimits.version) knows: \(Self.types.joined(separator: ", ")))")
        }
        self = kind.empty
        for field in kind.fields { try field.read(&self, r) }
    }

    private static func readContext(_ r: FieldReader) throws(ProtocolError) -> [String: String] {
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
        return context
    }

    /// The fields of request `o` (already read as a request) that version 1 does not know.
    static func unknownFields(_ o: JSONObject) -> [String] {
        let kind = kinds.first { $0.type == o["type"]?.stringValue }
        return unknownKeys(in: o, path: "", fields: kind?.fields ?? [], besides: envelope)
    }

    var fields: [(String, JSONValue)] {
        let kind = Self.kinds.first { $0.type == type }!
        return kind.fields.compactMap { f in f.write(self).map { (f.name, $0) } }
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
        try Self.read(o, path: path, into: &self)
    }

    public func matches(_ e: GestureEvent) -> Bool {
        if let regions, !regions.contains(e.region) { return false }
        if let kinds, !kinds.contains(e.kind) { return false }
        if let states, !states.contains(e.state) { return false }
        if let devices, !devices.contains(e.device ?? "") { return false }
        return true
    }
}

extension EventFilter: MessageSchema {
    static let fields: [MessageField<EventFilter>] = [
        MessageField("regions", read: { m, r throws(ProtocolError) in m.regions = try r.strings("regions") },
                     write: { $0.regions.map { .array($0.map { .string($0) }) } }),
        MessageField("kinds", read: { m, r throws(ProtocolError) in m.kinds = try r.names("kinds", excluding: ["custom"]) },
                     write: { $0.kinds.map { .array($0.map { .string($0.rawValue) }) } }),
        MessageField("states", read: { m, r throws(ProtocolError) in m.states = try r.names("states", excluding: ["possible", "failed"]) },
                     write: { $0.states.map { .array($0.map { .string($0.rawValue) }) } }),
        MessageField("devices", read: { m, r throws(ProtocolError) in m.devices = try r.strings("devices") },
                     write: { $0.devices.map { .array($0.map { .string($0) }) } }),
    ]
}
