import Gestures
import SystemLoop
import TouchEvents

#if canImport(Glibc)
import Glibc
#endif

/// The Wayland compositor running on this machine, as far as its process says, and how a
/// touch an owning gesture takes must end on an owned touchscreen's twin for its apps
/// (`TouchOwnership.ending` `automatic`; docs/ownership.md, "Compositors").
///
/// A compositor is to pass libinput's `TOUCH_CANCEL` on to the app as `wl_touch.cancel`.
/// Read in their sources (2026): mutter, KWin, niri and sway 1.9 and later do; cage (every
/// version), sway before 1.9 (Debian 12 ships 1.7), Hyprland, labwc and weston drop it, and a
/// cancelled touch stays down in the app for good; wayfire 0.8 and later turn it into a lift
/// (before 0.8 it drops it). Where it is dropped, or may be, the touch ends with a plain lift.
public struct RunningCompositor: Sendable, Equatable, CustomStringConvertible {
    /// Its process name (`/proc/PID/comm`): `cage`, `sway`, `gnome-shell`…
    public var name: String
    public var pid: Int32
    /// Its version (major, minor) where it told (sway's IPC), else nil.
    public var version: Version?

    public struct Version: Sendable, Equatable, Comparable {
        public var major: Int
        public var minor: Int
        public init(_ major: Int, _ minor: Int) {
            self.major = major
            self.minor = minor
        }
        public static func < (a: Version, b: Version) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
    }

    public init(name: String, pid: Int32, version: Version? = nil) {
        self.name = name
        self.pid = pid
        self.version = version
    }

    /// The process names of the compositors the table knows.
    public static let knownNames: Set<String> = [
        "cage", "sway", "Hyprland", "labwc", "weston", "wayfire", "gnome-shell", "kwin_wayland", "niri",
    ]

    /// How an owned touch ends for the apps of this compositor, and why.
    public var ending: (ending: OwnedTouchEnding, why: String) {
        Self.ending(name: name, version: version)
    }

    /// How an owned touch ends for the apps of the compositor `name` at `version` (nil: not
    /// known), and why: a lift wherever the compositor drops libinput's cancel or may.
    public static func ending(name: String?, version: Version?) -> (ending: OwnedTouchEnding, why: String) {
        guard let name else { return (.cancel, "no compositor gestured knows is running: libinput's cancel") }
        switch name {
        case "cage", "Hyprland", "labwc", "weston":
            return (.lift, "\(name) drops libinput's touch cancel")
        case "wayfire":
            return (.lift, "wayfire before 0.8 drops libinput's touch cancel, and later ones turn it into a lift")
        case "sway":
            guard let version else { return (.lift, "sway's version is not known (its IPC did not answer): before 1.9 it drops libinput's touch cancel") }
            return version >= Version(1, 9)
                ? (.cancel, "sway \(version.major).\(version.minor) passes libinput's touch cancel on")
                : (.lift, "sway \(version.major).\(version.minor) drops libinput's touch cancel (1.9 and later pass it on)")
        case "gnome-shell", "kwin_wayland", "niri":
            return (.cancel, "\(name) passes libinput's touch cancel on")
        default:
            return (.cancel, "\(name) is not a compositor gestured knows: libinput's cancel")
        }
    }

    /// The desktop whose shell animates gestures of its own, 1:1 under the fingers: `GNOME`
    /// (gnome-shell), `KDE Plasma` (kwin_wayland); nil for any other compositor.
    public var desktop: String? {
        switch name {
        case "gnome-shell": "GNOME"
        case "kwin_wayland": "KDE Plasma"
        default: nil
        }
    }

    /// The finger counts of the swipes the desktop animates itself on a device of `kind`, read
    /// in their sources (2026): GNOME's `js/ui/swipeTracker.js` (`GESTURE_FINGER_COUNT = 3` on
    /// touchscreens; three and four on touchpads, for the workspaces and the overview) and KWin
    /// (`registerTouchscreenSwipeShortcut` with three fingers for the virtual desktops and the
    /// overview; three and four on touchpads). Empty for any other compositor.
    public func animatedSwipeFingers(on kind: DeviceKind) -> Set<Int> {
        guard desktop != nil else { return [] }
        return kind == .touchscreen ? [3] : [3, 4]
    }

    public var description: String {
        version.map { "\(name) \($0.major).\($0.minor) (pid \(pid))" } ?? "\(name) (pid \(pid))"
    }

    /// A finder for ``GestureRuntime/findCompositor``: ``find(proc:askVersion:)``, asking sway
    /// its version once per process (a compositor that keeps running keeps its version).
    public static func finder(proc: String = "/proc") -> () -> RunningCompositor? {
        final class Asked { var versions: [Int32: Version?] = [:] }
        let asked = Asked()
        return {
            guard var found = find(proc: proc, askVersion: false) else { return nil }
            if found.name == "sway" {
                if let known = asked.versions[found.pid] {
                    found.version = known
                } else {
                    found.version = swayVersion(proc: proc, pid: found.pid)
                    asked.versions = [found.pid: found.version]
                }
            }
            return found
        }
    }

    /// The compositor running on this machine: the first process (lowest pid) under `proc`
    /// whose name the table knows, with sway's version asked of its IPC socket (unless not
    /// `askVersion`). nil: none. It reads `comm` of every process (a few milliseconds), and
    /// never runs a program.
    public static func find(proc: String = "/proc", askVersion: Bool = true) -> RunningCompositor? {
        guard let dir = opendir(proc) else { return nil }
        defer { closedir(dir) }
        var found: RunningCompositor?
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = Int32(name), pid > 0, pid < found?.pid ?? .max else { continue }
            guard let comm = readSmallFile("\(proc)/\(name)/comm")?.split(separator: "\n").first.map(String.init),
                  knownNames.contains(comm) else { continue }
            found = RunningCompositor(name: comm, pid: pid)
        }
        if askVersion, var sway = found, sway.name == "sway" {
            sway.version = swayVersion(proc: proc, pid: sway.pid)
            found = sway
        }
        return found
    }

    /// sway's version, asked of its IPC socket (`GET_VERSION`): `$XDG_RUNTIME_DIR` of its
    /// environment (else `/run/user/UID`), `sway-ipc.UID.PID.sock`. The path must be a socket
    /// (not a link) of sway's user, and the process at the other end sway itself: the service
    /// may run as root, and another user may name a process `sway`. nil when it is not, or
    /// does not answer within 100 ms in all.
    static func swayVersion(proc: String, pid: Int32) -> Version? {
        guard let status = readSmallFile("\(proc)/\(pid)/status"),
              let uidLine = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }),
              let uid = uidLine.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        var runtimeDirectory = "/run/user/\(uid)"
        if let environ = readSmallFile("\(proc)/\(pid)/environ", limit: 1 << 16) {
            for variable in environ.split(separator: "\0") where variable.hasPrefix("XDG_RUNTIME_DIR=") {
                runtimeDirectory = String(variable.dropFirst("XDG_RUNTIME_DIR=".count))
            }
        }
        let path = "\(runtimeDirectory)/sway-ipc.\(uid).\(pid).sock"
        var socketStatus = stat()
        guard lstat(path, &socketStatus) == 0, socketStatus.st_mode & S_IFMT == S_IFSOCK, Int(socketStatus.st_uid) == uid else { return nil }
        guard let fd = try? UnixSocket.connect(to: path) else { return nil }
        defer { UnixSocket.close(fd) }
        guard UnixSocket.peerProcess(fd) == pid else { return nil }
        UnixSocket.setNonBlocking(fd)
        let deadline = MonotonicClock().now + .milliseconds(100)
        var request = Array("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(0)) { request += $0 }
        withUnsafeBytes(of: UInt32(7)) { request += $0 }  // GET_VERSION
        guard request.withUnsafeBytes({ UnixSocket.send(fd, $0) }) == request.count else { return nil }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while reply.count < 1 << 16 {
            let left = (deadline - MonotonicClock().now).inMilliseconds
            guard left > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left.rounded(.up))) == 1 else { return nil }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            reply += buffer[0..<n]
            if let version = parseVersion(reply) { return version }
        }
        return parseVersion(reply)
    }

    /// `"major": 1, "minor": 7` of a `GET_VERSION` reply (its header included), once whole.
    static func parseVersion(_ reply: [UInt8]) -> Version? {
        guard reply.count >= 14 else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { raw in for k in 0..<4 { raw[k] = reply[6 + k] } }
        guard reply.count >= 14 + Int(length) else { return nil }
        let text = String(decoding: reply[14..<(14 + Int(length))], as: UTF8.self)
        func number(_ key: String) -> Int? {
            guard let range = text.range(of: "\"\(key)\"") else { return nil }
            let rest = text[range.upperBound...].drop { $0 == ":" || $0 == " " }
            return Int(rest.prefix { $0.isNumber })
        }
        guard let major = number("major"), let minor = number("minor") else { return nil }
        return Version(major, minor)
    }

    private static func readSmallFile(_ path: String, limit: Int = 4096) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: bytes[0..<n], as: UTF8.self)
    }
}
