#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension QuirksDatabase {
    /// Where libinput's own quirks files are installed (Debian's libinput-bin).
    public static let systemDirectory = "/usr/share/libinput"
    /// The one file of local quirks libinput reads after its own.
    public static let localOverrides = "/etc/libinput/local-overrides.quirks"

    /// Every `*.quirks` file of `directory` in version order (`10-…` before `30-…`, as
    /// libinput's scandir with versionsort), then `overrides` when it exists: later ones win.
    /// A missing directory gives no sections (nothing matches: libinput's defaults); a file
    /// that cannot be read is a ``problems`` entry.
    public static func load(directory: String = systemDirectory, overrides: String? = localOverrides) -> QuirksDatabase {
        var database = QuirksDatabase()
        var names: [String] = []
        if let dir = opendir(directory) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name.hasSuffix(".quirks"), !name.hasPrefix(".") { names.append(name) }
            }
            closedir(dir)
        }
        names.sort { versionOrder($0, $1) }
        var paths = names.map { directory + "/" + $0 }
        if let overrides, access(overrides, F_OK) == 0 { paths.append(overrides) }
        for path in paths {
            switch readText(path) {
            case .success(let text): database.add(text: text, file: path)
            case .failure(let error): database.problems.append(QuirksProblem(file: path, line: 0, message: error.message))
            }
        }
        return database
    }

    /// The system's DMI modalias (`/sys/class/dmi/id/modalias`), nil where there is none
    /// (most ARM boards, containers).
    public static func systemDMI(path: String = "/sys/class/dmi/id/modalias") -> String? {
        guard case .success(let text) = readText(path) else { return nil }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.hasPrefix("dmi:") ? line : nil
    }

    /// The first `compatible` string of the device tree, nil where there is none (x86 PCs).
    public static func systemDeviceTree(path: String = "/sys/firmware/devicetree/base/compatible") -> String? {
        guard case .success(let text) = readText(path) else { return nil }
        let first = text.split(separator: "\0").first.map(String.init) ?? ""
        return first.isEmpty ? nil : first
    }

    /// Orders file names as glibc's versionsort does for the names libinput ships: runs of
    /// digits compare as numbers, the rest byte by byte.
    static func versionOrder(_ a: String, _ b: String) -> Bool {
        var i = Array(a.utf8)[...], j = Array(b.utf8)[...]
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        while let x = i.first, let y = j.first {
            if isDigit(x), isDigit(y) {
                let n = i.prefix(while: isDigit), m = j.prefix(while: isDigit)
                let nv = n.drop(while: { $0 == 48 }), mv = m.drop(while: { $0 == 48 })
                if nv.count != mv.count { return nv.count < mv.count }
                if !nv.elementsEqual(mv) { return nv.lexicographicallyPrecedes(mv) }
                i = i.dropFirst(n.count)
                j = j.dropFirst(m.count)
            } else {
                if x != y { return x < y }
                i = i.dropFirst()
                j = j.dropFirst()
            }
        }
        return i.isEmpty && !j.isEmpty
    }

    private static func readText(_ path: String) -> Result<String, QuirksLineError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(QuirksLineError("cannot open: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(QuirksLineError("cannot read: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }
}
