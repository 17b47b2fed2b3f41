import GestureVocabulary

/// What the service sends: one JSON object per line with a `type`. The greeting comes first,
/// on every connection; then replies (each with its request's id), errors and gestures, in
/// the order they happen. A client ignores types it does not know (later versions may add
/// some).
public enum ServiceMessage: Equatable, Sendable {
    case greeting(Greeting)
    /// A request was carried out; `ignored` names the request's fields this version does not
    /// know (a misspelt one shows here).
    case reply(id: JSONValue?, request: String, ignored: [String] = [])
    case error(ProtocolError)
    case pong(id: JSONValue?)
    /// A gesture on the service's layout (as the subscription filters them) or on one of the
    /// client's own regions (`region` is then the client's id for it).
    case gesture(GestureEvent)
    /// A type this version does not know.
    case other(String)

    /// The message as one line of JSON, with its newline.
    public var jsonLine: String {
        switch self {
        case .greeting(let g):
            return JSONValue.object(g.json).text + "\n"
        case .reply(let id, let request, let ignored):
            var o: JSONObject = ["type": "reply", "id": id ?? .null, "request": .string(request), "ok": .bool(true)]
            if !ignored.isEmpty { o["ignored"] = .array(ignored.map { .string($0) }) }
            return JSONValue.object(o).text + "\n"
        case .error(let e):
            var o: JSONObject = ["type": "error", "id": e.id ?? .null, "code": .string(e.code.rawValue)]
            if let field = e.field { o["field"] = .string(field) }
            o["message"] = .string(e.message)
            return JSONValue.object(o).text + "\n"
        case .pong(let id):
            return JSONValue.object(["type": "pong", "id": id ?? .null]).text + "\n"
        case .gesture(let event):
            return event.jsonLine(prefix: "\"type\": \"gesture\"")
        case .other(let type):
            return JSONValue.object(["type": .string(type)]).text + "\n"
        }
    }

    /// Reads one line (without its newline) from the service.
    public static func parse(_ line: some Collection<UInt8>) throws(ProtocolError) -> ServiceMessage {
        let o = try JSONObject.line(line, mustBe: "a message must be a JSON object")
        let r = FieldReader(o, path: "")
        if o["protocol"] != nil { return .greeting(try Greeting(o)) }
        let type = try r.string("type")
        switch type {
        case "reply": return .reply(id: o["id"] == .null ? nil : o["id"], request: try r.optionalString("request") ?? "", ignored: try r.strings("ignored") ?? [])
        case "error":
            let code = ProtocolError.Code(rawValue: try r.string("code")) ?? .invalidField
            return .error(ProtocolError(code, field: try r.optionalString("field"), try r.string("message"), id: o["id"] == .null ? nil : o["id"]))
        case "pong": return .pong(id: o["id"] == .null ? nil : o["id"])
        case "gesture": return .gesture(try GestureEvent(json: o))
        default: return .other(type)
        }
    }
}

/// The service's first line to every client: who it is, the protocol version, what it has.
public struct Greeting: Equatable, Sendable {
    public struct Device: Equatable, Sendable {
        public var name: String
        /// `touchscreen` or `touchpad`.
        public var kind: String
        public var node: String?

        public init(name: String, kind: String, node: String?) {
            self.name = name
            self.kind = kind
            self.node = node
        }
    }

    public var version: Int
    /// The minor version: what the service adds to ``version`` (0 from a service that does not
    /// say: version 1.0).
    public var minor: Int
    /// The service's own version.
    public var service: String
    public var devices: [Device]
    /// The ids of the service's layouts' root regions.
    public var layouts: [String]
    public var kinds: [GestureKind]

    public init(version: Int = ProtocolLimits.version, minor: Int = ProtocolLimits.minorVersion, service: String,
                devices: [Device], layouts: [String], kinds: [GestureKind] = GestureKind.named) {
        self.version = version
        self.minor = minor
        self.service = service
        self.devices = devices
        self.layouts = layouts
        self.kinds = kinds
    }

    init(_ o: JSONObject) throws(ProtocolError) {
        let r = FieldReader(o, path: "")
        guard try r.string("protocol") == "gestured" else { throw r.invalid("protocol", "is not \"gestured\"") }
        version = try r.integer("version")
        minor = r.object["minor"] == nil || r.object["minor"] == .null ? 0 : try r.integer("minor")
        service = try r.optionalString("service") ?? ""
        devices = []
        for (i, d) in (try r.list("devices") ?? []).enumerated() {
            guard let o = d.objectValue else { throw r.invalid("devices[\(i)]", "must be an object") }
            let dr = FieldReader(o, path: "devices[\(i)]")
            devices.append(Device(name: try dr.string("name"), kind: try dr.string("kind"), node: try dr.optionalString("node")))
        }
        layouts = try r.strings("layouts") ?? []
        // Kinds a later service knows and this client does not are left out.
        kinds = (try r.strings("kinds") ?? []).compactMap(GestureKind.init(rawValue:))
    }

    var json: JSONObject {
        [
            "protocol": "gestured", "version": .number(Double(version)), "type": "greeting", "minor": .number(Double(minor)),
            "service": .string(service),
            "devices": .array(devices.map { d in
                var o: JSONObject = ["name": .string(d.name), "kind": .string(d.kind)]
                if let node = d.node { o["node"] = .string(node) }
                return .object(o)
            }),
            "layouts": .array(layouts.map { .string($0) }),
            "kinds": .array(kinds.map { .string($0.rawValue) }),
            "limits": ProtocolLimits.json,
        ]
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}
