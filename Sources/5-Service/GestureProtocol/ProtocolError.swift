/// What the service answers to a request it cannot carry out: a code for programs, the field
/// at fault (`region.frame`) and a message for people. The connection goes on.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        /// The line is not JSON.
        case malformed
        /// The line is JSON but not an object.
        case notAnObject = "not-an-object"
        /// A field the request needs is not there.
        case missingField = "missing-field"
        /// A field has the wrong type or a value out of range.
        case invalidField = "invalid-field"
        /// The request's `type` is not one this version knows.
        case unknownType = "unknown-type"
        /// The region named is not one of this client's.
        case unknownRegion = "unknown-region"
        /// This client already has a region with that id.
        case duplicateID = "duplicate-id"
        /// This client has as many regions as it may.
        case tooManyRegions = "too-many-regions"
        /// The line is longer than the service reads (it was skipped up to its newline).
        case tooLarge = "too-large"
        /// The client sent more requests than it may in a second; this one was not carried out.
        case rateLimited = "rate-limited"
        /// All clients together hold as much as the service keeps (connections, regions,
        /// unfinished input, unsent output), and this client's process holds the most: the
        /// request is refused, or the connection is closed after this message.
        case serviceFull = "service-full"
    }

    public var code: Code
    /// The field at fault, as a path (`region.gestures[1].kind`); nil when the whole line is.
    public var field: String?
    public var message: String
    /// The request's id, when it got that far.
    public var id: JSONValue?

    public init(_ code: Code, field: String? = nil, _ message: String, id: JSONValue? = nil) {
        self.code = code
        self.field = field
        self.message = message
        self.id = id
    }

    /// The message (it names the field itself).
    public var description: String { message }
}

extension JSONObject {
    /// One line of the protocol (or of `--json` output), which must be a JSON object:
    /// `not JSON: …` when it is not JSON, `<mustBe>, not <what it is>` when it is not an object.
    public static func line(_ bytes: some Collection<UInt8>, mustBe: String) throws(ProtocolError) -> JSONObject {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue.parse(bytes)
        } catch {
            throw ProtocolError(.malformed, "not JSON: \(error.description)")
        }
        guard let object = value.objectValue else { throw ProtocolError(.notAnObject, "\(mustBe), not \(value.kindName)") }
        return object
    }
}

/// Reads typed fields out of an object, naming the field (with its path) in every error.
struct FieldReader {
    let object: JSONObject
    let path: String

    init(_ object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func missing(_ key: String, _ what: String) -> ProtocolError {
        ProtocolError(.missingField, field: name(key), "\(name(key)) is missing: it must be \(what)")
    }

    func invalid(_ key: String, _ message: String) -> ProtocolError {
        ProtocolError(.invalidField, field: name(key), "\(name(key)) \(message)")
    }

    func value(_ key: String, _ what: String) throws(ProtocolError) -> JSONValue {
        guard let v = object[key] else { throw missing(key, what) }
        guard v != .null else { throw invalid(key, "is null: it must be \(what)") }
        return v
    }

    func string(_ key: String) throws(ProtocolError) -> String {
        let v = try value(key, "text")
        guard let s = v.stringValue else { throw invalid(key, "must be text, not \(v.kindName)") }
        return s
    }

    func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let v = object[key], v != .null else { return nil }
        return try string(key)
    }

    /// A finite number within ±`limit`.
    func number(_ key: String, limit: Double = 1e9) throws(ProtocolError) -> Double {
        let v = try value(key, "a number")
        guard let n = v.numberValue else { throw invalid(key, "must be a number, not \(v.kindName)") }
        guard abs(n) <= limit else { throw invalid(key, "must be between \(-limit) and \(limit), not \(JSONValue.numberText(n))") }
        return n
    }

    func optionalNumber(_ key: String) throws(ProtocolError) -> Double? {
        guard let v = object[key], v != .null else { return nil }
        return try number(key)
    }

    func integer(_ key: String) throws(ProtocolError) -> Int {
        let n = try number(key)
        guard n == n.rounded() else { throw invalid(key, "must be a whole number, not \(JSONValue.numberText(n))") }
        return Int(n)
    }

    func optionalInteger(_ key: String) throws(ProtocolError) -> Int? {
        guard let v = object[key], v != .null else { return nil }
        return try integer(key)
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let v = object[key], v != .null else { return nil }
        guard let b = v.boolValue else { throw invalid(key, "must be true or false, not \(v.kindName)") }
        return b
    }

    func enumeration<T: RawRepresentable & CaseIterable>(_ key: String, excluding: [String] = []) throws(ProtocolError) -> T
    where T.RawValue == String {
        let s = try string(key)
        guard let v = T(rawValue: s), !excluding.contains(s) else {
            let known = T.allCases.map(\.rawValue).filter { !excluding.contains($0) }.joined(separator: ", ")
            throw invalid(key, "is \"\(s)\", which is not one of: \(known)")
        }
        return v
    }

    func optionalEnumeration<T: RawRepresentable & CaseIterable>(_ key: String) throws(ProtocolError) -> T? where T.RawValue == String {
        guard let v = object[key], v != .null else { return nil }
        return try enumeration(key) as T
    }

    func list(_ key: String) throws(ProtocolError) -> [JSONValue]? {
        guard let v = object[key], v != .null else { return nil }
        guard let a = v.arrayValue else { throw invalid(key, "must be a list, not \(v.kindName)") }
        return a
    }

    /// A list of names, each one of `T`'s.
    func names<T: RawRepresentable & CaseIterable>(_ key: String, excluding: [String] = []) throws(ProtocolError) -> [T]?
    where T.RawValue == String {
        guard let items = try list(key) else { return nil }
        var out: [T] = []
        for (i, item) in items.enumerated() {
            let o = JSONObject([("\(key)[\(i)]", item)])
            out.append(try FieldReader(o, path: path).enumeration("\(key)[\(i)]", excluding: excluding))
        }
        return out
    }

    /// A list of text.
    func strings(_ key: String) throws(ProtocolError) -> [String]? {
        guard let items = try list(key) else { return nil }
        var out: [String] = []
        for (i, item) in items.enumerated() {
            guard let s = item.stringValue else { throw invalid("\(key)[\(i)]", "must be text, not \(item.kindName)") }
            out.append(s)
        }
        return out
    }

    func object(_ key: String) throws(ProtocolError) -> JSONObject? {
        guard let v = object[key], v != .null else { return nil }
        guard let o = v.objectValue else { throw invalid(key, "must be an object, not \(v.kindName)") }
        return o
    }
}
