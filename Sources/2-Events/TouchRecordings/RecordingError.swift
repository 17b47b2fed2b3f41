/// Bad input in a file, with where it is: prints as `FILE:LINE: message` or
/// `FILE:LINE:COLUMN: message`, the form editors and compilers use.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// 1-based line; 0 when the problem is the file as a whole (cannot be read).
    public var line: Int
    /// 1-based column, when known.
    public var column: Int?
    public var message: String

    public init(path: String, line: Int, column: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = path
        if line > 0 { location += ":\(line)" }
        if let column, line > 0 { location += ":\(column)" }
        return "\(location): \(message)"
    }
}

/// The largest timestamp a recording may hold, in seconds: event times are microseconds in an
/// Int64, so about 292,000 years is the limit; real ones are seconds since boot or since 1970.
let maximumTimestampSeconds: Int64 = 9_000_000_000_000
