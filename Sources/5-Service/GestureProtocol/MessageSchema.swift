/// One key of a request's JSON object: its name, how the reader fills it in, and how the writer
/// writes it (nil: left out).
///
/// A message's list of these is its schema, the one place its keys are spelt: the reader walks
/// it in order (so of several faults the first field's is reported), the writer walks it in the
/// same order, a key not in it is an ignored field the reply names, and a test holds
/// docs/protocol.md's tables to it. (The gesture message, written on every frame without
/// allocating, has its own list: ``GestureEvent``.)
struct MessageField<Message>: Sendable {
    let name: String
    let read: @Sendable (inout Message, FieldReader) throws(ProtocolError) -> Void
    let write: @Sendable (Message) -> JSONValue?
    /// The paths of the keys not known inside this field's value (an object with a schema of
    /// its own), under `path`, the field's own path.
    let unknownInside: (@Sendable (JSONValue, _ path: String) -> [String])?

    init(_ name: String,
         read: @escaping @Sendable (inout Message, FieldReader) throws(ProtocolError) -> Void,
         write: @escaping @Sendable (Message) -> JSONValue?,
         unknownInside: (@Sendable (JSONValue, _ path: String) -> [String])? = nil) {
        self.name = name
        self.read = read
        self.write = write
        self.unknownInside = unknownInside
    }
}

/// A message whose keys are one list of ``MessageField``s.
protocol MessageSchema: SendableMetatype {
    static var fields: [MessageField<Self>] { get }
}

extension MessageSchema {
    /// The message's keys, in the order they are read and written.
    static var keys: [String] { fields.map(\.name) }

    /// Fills `message` from `o`, field by field.
    static func read(_ o: JSONObject, path: String, into message: inout Self) throws(ProtocolError) {
        let r = FieldReader(o, path: path)
        for field in fields { try field.read(&message, r) }
    }

    /// The message as a JSON object.
    var json: JSONValue {
        var o = JSONObject()
        for field in Self.fields { if let v = field.write(self) { o[field.name] = v } }
        return .object(o)
    }

    /// The paths of the keys of `value` (a message of this kind at `path`) that the schema does
    /// not know, its fields' own unknown keys after its.
    static func unknownKeys(in value: JSONValue, path: String) -> [String] {
        guard let o = value.objectValue else { return [] }
        return unknownKeys(in: o, path: path, besides: [])
    }

    /// The same, for an object that may also hold the keys `besides` (a request's `type` and `id`).
    static func unknownKeys(in o: JSONObject, path: String, besides: [String]) -> [String] {
        GestureProtocol.unknownKeys(in: o, path: path, fields: fields, besides: besides)
    }
}

/// The paths of the keys of `o` (at `path`) that are neither among `fields` nor `besides`, then
/// those inside the fields' values.
func unknownKeys<Message>(in o: JSONObject, path: String, fields: [MessageField<Message>], besides: [String]) -> [String] {
    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    var out = o.keys.filter { key in !besides.contains(key) && !fields.contains { $0.name == key } }.map(name)
    for field in fields {
        if let inside = field.unknownInside, let v = o[field.name] { out += inside(v, name(field.name)) }
    }
    return out
}

extension MessageField {
    /// A field whose value is a message with a schema of its own: its unknown keys are looked
    /// for too.
    init<Inner: MessageSchema>(_ name: String, holding _: Inner.Type,
                               read: @escaping @Sendable (inout Message, FieldReader) throws(ProtocolError) -> Void,
                               write: @escaping @Sendable (Message) -> JSONValue?) {
        self.init(name, read: read, write: write, unknownInside: { v, path in Inner.unknownKeys(in: v, path: path) })
    }
}
