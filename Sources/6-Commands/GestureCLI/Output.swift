import TouchEvents
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GestureConfiguration

/// Where a command writes. The executable uses stdout and stderr; tests use strings.
public protocol CommandOutput {
    /// Normal output (frames, gestures, summaries).
    mutating func write(_ text: String)
    /// Warnings and errors.
    mutating func warn(_ text: String)
}

/// Collects output in memory (tests, and `--help` examples).
public struct CapturedOutput: CommandOutput, Sendable {
    public var standardOutput = ""
    public var standardError = ""
    public init() {}
    public mutating func write(_ text: String) { standardOutput += text }
    public mutating func warn(_ text: String) { standardError += text }
}

/// The process's stdout (buffered) and stderr.
public struct ProcessOutput: CommandOutput {
    private var buffer: [UInt8] = []

    public init() {
        buffer.reserveCapacity(1 << 16)
    }

    public mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public mutating func warn(_ text: String) {
        flush()
        writeAll(2, Array(text.utf8))
    }

    public mutating func flush() {
        writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }  // stdout closed (e.g. `| head`): nothing more to do
            offset += n
        }
    }
}

/// The `--config` file of replay and render: nil when none was given; a failure (already
/// reported on `output` as `FILE:LINE:COLUMN: …`) when it does not load.
func loadConfiguration(_ path: String?, output: inout some CommandOutput) -> Result<Configuration?, ConfigurationError> {
    guard let path else { return .success(nil) }
    do throws(ConfigurationError) {
        return .success(try Configuration.load(path: path))
    } catch {
        output.warn("\(error)\n")
        return .failure(error)
    }
}

/// Exit status of the commands: 0 success, 2 bad input (with a `FILE:LINE: message`).
public enum CommandStatus {
    public static let success: Int32 = 0
    public static let badInput: Int32 = 2
}

/// `1 finger`, `3 fingers`.
func fingerCount(_ n: Int) -> String {
    n == 1 ? "1 finger" : "\(n) fingers"
}

/// A time column of readable output: seconds with six decimals, right-aligned (`  0.095572s`,
/// `  0.500000s`), so that lines line up and read alike.
func readableSeconds(_ duration: Duration) -> String {
    formatDecimal(scaled: duration.inMicroseconds, places: 6, trailingZeros: .keep).leftPadded(to: 10) + "s"
}

/// ``readableSeconds(_:)`` of seconds given as a number.
func readableSeconds(_ seconds: Double) -> String {
    formatDecimal(seconds, places: 6, trailingZeros: .keep).leftPadded(to: 10) + "s"
}
