#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file into memory; errors name the file and the system's reason.
func readFileBytes(_ path: String) throws(RecordingError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
        throw RecordingError(path: path, line: 0, message: "cannot open: \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw RecordingError(path: path, line: 0, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
}

/// True if a file exists at `path` (and is not a directory).
func fileExists(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR
}

/// Refuses what cannot be a recording: empty files and binary data (NUL bytes).
/// Text is checked for UTF-8 where it becomes a string (names, the YAML header).
func checkText(_ bytes: [UInt8], path: String) throws(RecordingError) {
    let isBlank = bytes.allSatisfy {
        $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r")
    }
    if isBlank { throw RecordingError(path: path, line: 1, message: "the file is empty") }
    let nul: Int? = bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress, let hit = memchr(base, 0, buffer.count) else { return nil }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }
    if let nul {
        let line = 1 + bytes[..<nul].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        throw RecordingError(path: path, line: line, message: "binary data (a NUL byte): not a recording")
    }
}

/// Writes `text` to `path` through a temporary file beside it and a rename, so a failed
/// write never leaves half a file.
public func writeFileAtomically(_ text: String, to path: String) throws(RecordingError) {
    let temporary = path + ".tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
        throw RecordingError(path: path, line: 0, message: "cannot write: \(String(cString: strerror(errno)))")
    }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(temporary)
            throw RecordingError(path: path, line: 0, message: "cannot write: \(reason)")
        }
        offset += n
    }
    close(fd)
    guard rename(temporary, path) == 0 else {
        let reason = String(cString: strerror(errno))
        unlink(temporary)
        throw RecordingError(path: path, line: 0, message: "cannot write: \(reason)")
    }
}
