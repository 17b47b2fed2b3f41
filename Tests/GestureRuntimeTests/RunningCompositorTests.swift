import Foundation
import GestureRuntime
import Gestures
import SystemLoop
import Testing

/// Which compositor runs, and how an owned touch must end for its apps (issue 64): the table
/// read from the compositors' sources, and the look at `/proc` (a made-up one here).
@Suite("The running compositor")
struct RunningCompositorTests {
    @Test(arguments: [
        ("cage", nil, OwnedTouchEnding.lift),
        ("sway", RunningCompositor.Version(1, 7), .lift),
        ("sway", RunningCompositor.Version(1, 8), .lift),
        ("sway", RunningCompositor.Version(1, 9), .cancel),
        ("sway", RunningCompositor.Version(1, 10), .cancel),
        ("sway", nil, .lift),               // its IPC did not answer: a lift is safe on every version
        ("Hyprland", nil, .lift),
        ("labwc", nil, .lift),
        ("weston", nil, .lift),
        ("wayfire", nil, .lift),
        ("gnome-shell", nil, .cancel),
        ("kwin_wayland", nil, .cancel),
        ("niri", nil, .cancel),
        ("some-new-compositor", nil, .cancel),
    ] as [(String, RunningCompositor.Version?, OwnedTouchEnding)])
    func eachCompositorGetsTheEndingItNeeds(name: String, version: RunningCompositor.Version?, ending: OwnedTouchEnding) {
        #expect(RunningCompositor.ending(name: name, version: version).ending == ending)
    }

    @Test func noCompositorKeepsLibinputsCancel() {
        #expect(RunningCompositor.ending(name: nil, version: nil) == (.cancel, "no compositor gestured knows is running: libinput's cancel"))
    }

    @Test func theFirstKnownCompositorUnderProcIsFound() throws {
        let proc = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-proc-\(getpid())")
        defer { try? FileManager.default.removeItem(at: proc) }
        for (pid, comm) in [(1, "systemd"), (420, "cage"), (77, "seatd"), (512, "sway"), (9, "kworker/0:1")] {
            let dir = proc.appendingPathComponent("\(pid)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try "\(comm)\n".write(to: dir.appendingPathComponent("comm"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: proc.appendingPathComponent("self"), withIntermediateDirectories: true)
        #expect(RunningCompositor.find(proc: proc.path) == RunningCompositor(name: "cage", pid: 420))
        try FileManager.default.removeItem(at: proc.appendingPathComponent("420"))
        // sway without an IPC socket that answers: its version is not known.
        #expect(RunningCompositor.find(proc: proc.path) == RunningCompositor(name: "sway", pid: 512))
        try FileManager.default.removeItem(at: proc.appendingPathComponent("512"))
        #expect(RunningCompositor.find(proc: proc.path) == nil)
    }

    /// sway's version, asked of its IPC socket — a sway played here by this process: its
    /// `/proc` entry (made up), its runtime directory and socket, and a thread answering
    /// `GET_VERSION` as sway does.
    @Test func swaysVersionComesFromItsSocketAndOnlyFromItsOwn() throws {
        let pid = getpid(), uid = getuid()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-sway-\(pid)")
        defer { try? FileManager.default.removeItem(at: root) }
        let proc = root.appendingPathComponent("proc/\(pid)"), run = root.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: proc, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        try "sway\n".write(to: proc.appendingPathComponent("comm"), atomically: true, encoding: .utf8)
        try "Name:\tsway\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n".write(to: proc.appendingPathComponent("status"), atomically: true, encoding: .utf8)
        try "HOME=/nonexistent\0XDG_RUNTIME_DIR=\(run.path)\0".write(to: proc.appendingPathComponent("environ"), atomically: true, encoding: .utf8)
        let socketPath = run.appendingPathComponent("sway-ipc.\(uid).\(pid).sock").path
        let answered = try Self.answerAsSway(at: socketPath)
        let found = RunningCompositor.find(proc: root.appendingPathComponent("proc").path)
        #expect(found == RunningCompositor(name: "sway", pid: pid, version: .init(1, 7)))
        #expect(found?.ending.ending == .lift)
        answered.wait()
        // A link in its place (another user's process named `sway`, pointing at a socket that
        // answers) is not asked.
        try FileManager.default.removeItem(atPath: socketPath)
        let elsewhere = root.appendingPathComponent("elsewhere.sock").path
        let other = try Self.answerAsSway(at: elsewhere, waitingMilliseconds: 200)
        try FileManager.default.createSymbolicLink(atPath: socketPath, withDestinationPath: elsewhere)
        #expect(RunningCompositor.find(proc: root.appendingPathComponent("proc").path)?.version == nil)
        other.wait()
    }

    /// A listener at `path` that answers one `GET_VERSION` as sway 1.7 does, from a thread
    /// (which gives up after `waitingMilliseconds` without a client).
    final class Answerer: @unchecked Sendable {
        let listener: Int32
        let done = DispatchSemaphore(value: 0)
        init(listener: Int32) { self.listener = listener }
        func wait() { done.wait(); UnixSocket.close(listener) }
    }

    static func answerAsSway(at path: String, waitingMilliseconds: Int32 = 2000) throws -> Answerer {
        let answerer = Answerer(listener: try UnixSocket.listen(at: path).fd)
        Thread {
            defer { answerer.done.signal() }
            var poller = pollfd(fd: answerer.listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, waitingMilliseconds) == 1, let client = UnixSocket.accept(answerer.listener) else { return }
            defer { UnixSocket.close(client) }
            var request = [UInt8](repeating: 0, count: 14)
            var got = 0
            while got < 14 {
                var p = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 2000) == 1 else { return }
                let n = request.withUnsafeMutableBytes { read(client, $0.baseAddress! + got, 14 - got) }
                guard n > 0 else { return }
                got += n
            }
            let body = Array(#"{"human_readable": "1.7", "major": 1, "minor": 7, "patch": 0}"#.utf8)
            var reply = Array("i3-ipc".utf8)
            withUnsafeBytes(of: UInt32(body.count)) { reply += $0 }
            withUnsafeBytes(of: UInt32(7)) { reply += $0 }
            reply += body
            _ = reply.withUnsafeBytes { UnixSocket.send(client, $0) }
        }.start()
        return answerer
    }
}
