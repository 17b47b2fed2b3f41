import SystemLoop

/// Refuses a configuration that others could change: it runs commands. Like sshd's
/// StrictModes, the file must belong to root or to the service's own user and be writable by
/// neither its group nor others, and its directory must not be writable by others unless it
/// is sticky.
public enum ConfigurationGuard {
    public static func check(_ path: String) throws(ServiceError) {
        let file: FileStatus
        do throws(SystemError) {
            file = try FileStatus(path: path)
        } catch {
            throw .configurationUnreadable(path: path, reason: error.message)
        }
        if file.ownerID != 0 && file.ownerID != FileStatus.effectiveUserID {
            throw .configurationNotTrusted(path: path, reason: "owned by uid \(file.ownerID) (it runs commands): it must belong to root or to the service's user")
        }
        if file.mode & 0o022 != 0 {
            throw .configurationNotTrusted(path: path, reason: "writable by \(file.mode & 0o002 != 0 ? "everyone" : "its group") (mode \(String(file.mode, radix: 8))); it runs commands: chmod go-w \(path)")
        }
        let directory = FileStatus.folder(of: path)
        if let folder = try? FileStatus(path: directory),
           folder.mode & 0o002 != 0 && folder.mode & 0o1000 == 0 {
            throw .configurationNotTrusted(path: path, reason: "in a directory anyone may write to (\(directory), mode \(String(folder.mode, radix: 8)))")
        }
    }
}
