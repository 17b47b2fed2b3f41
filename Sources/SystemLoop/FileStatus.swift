#if canImport(Glibc)
import Glibc
#endif

/// Who owns a file and who may write it: what the service checks of a configuration that
/// runs commands.
public struct FileStatus: Sendable, Equatable {
    public var ownerID: UInt32
    /// The permission bits (`0o644`), with setuid, setgid and sticky (`0o1000`).
    public var mode: UInt32

    /// The status of `path`, following links.
    public init(path: String) throws(SystemError) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw SystemError(path: path, message: String(cString: strerror(errno)), code: errno)
        }
        ownerID = st.st_uid
        mode = st.st_mode & 0o7777
    }

    /// The user this process runs as (its effective user id).
    public static var effectiveUserID: UInt32 { geteuid() }
}
