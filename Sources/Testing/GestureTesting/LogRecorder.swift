import Logging
import TouchEvents

/// A swift-log handler that keeps every message, for assertions on what was logged
/// (a throwing handler, a failed reload…).
///
///     let log = LogRecorder()
///     let logger = Logger(label: "test") { _ in log }
public struct LogRecorder: LogHandler {
    final class Storage: Sendable {
        let lines = Lock<[String]>([])
    }

    private let storage = Storage()
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info

    public init(level: Logger.Level = .info) {
        logLevel = level
    }

    /// Everything logged so far: `level message key=value …` (metadata sorted by key).
    public var lines: [String] { storage.lines.withLock { $0 } }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        var line = "\(event.level) \(event.message)"
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        storage.lines.withLock { $0.append(line) }
    }
}
