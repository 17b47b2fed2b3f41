#if canImport(Glibc)
import Glibc
#endif

/// Who owns a file and who may write it: what the service checks of a configuration that
/// runs commands.
public struct FileStatus: Sendable, Equatable {
    public var ownerID: UInt32
    /// The permission bits (`0o644`), with setuid, setgid and sticky (`0o1000`).
    public var mode: UInt32
    public var isDirectory: Bool

    /// The status of `path`, following links.
    public init(path: String) throws(SystemError) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw SystemError(path: path, message: String(cString: strerror(errno)), code: errno)
        }
        ownerID = st.st_uid
        mode = st.st_mode & 0o7777
        isDirectory = st.st_mode & S_IFMT == S_IFDIR
    }

    /// The folder `path` is in: `.` for a bare name, `/` for a file at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Why a file could not be made at `path` (its folder is not writable, in the system's
    /// words), or nil when it could: checked before work whose result goes there.
    public static func cannotCreate(at path: String) -> String? {
        access(folder(of: path), W_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// The user this process runs as (its effective user id).
    public static var effectiveUserID: UInt32 { geteuid() }
}
