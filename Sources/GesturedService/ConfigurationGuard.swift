#if canImport(Glibc)
import Glibc
#endif

/// Refuses a configuration that others could change: it runs commands. Like sshd's
/// StrictModes, the file must belong to root or to the service's own user and be writable by
/// neither its group nor others, and its directory must not be writable by others unless it
/// is sticky.
enum ConfigurationGuard {
    static func check(_ path: String) throws(ServiceError) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw ServiceError("\(path): cannot read the configuration: \(String(cString: strerror(errno)))")
        }
        let mode = st.st_mode & 0o7777
        if st.st_uid != 0 && st.st_uid != geteuid() {
            throw ServiceError("\(path): refusing a configuration owned by uid \(st.st_uid) (it runs commands): it must belong to root or to the service's user")
        }
        if mode & 0o022 != 0 {
            throw ServiceError("\(path): refusing a configuration writable by \(mode & 0o002 != 0 ? "everyone" : "its group") (mode \(String(mode, radix: 8))); it runs commands: chmod go-w \(path)")
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var dst = stat()
        if stat(directory.isEmpty ? "/" : directory, &dst) == 0 {
            let dmode = dst.st_mode & 0o7777
            if dmode & 0o002 != 0 && dmode & 0o1000 == 0 {
                throw ServiceError("\(path): refusing a configuration in a directory anyone may write to (\(directory), mode \(String(dmode, radix: 8)))")
            }
        }
    }
}
