#if canImport(Glibc)
import Glibc
#endif

/// The process environment.
public enum ProcessEnvironment {
    /// Every variable, by name.
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { result[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return result
    }
}
