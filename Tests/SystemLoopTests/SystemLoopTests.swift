import Foundation
import SystemLoop
import Testing
import TouchEvents

/// The POSIX layer on this machine's kernel: sockets, child processes, the timer, file status.
@Suite("system loop")
struct SystemLoopTests {
    let folder: String = {
        let path = NSTemporaryDirectory() + "gestured-loop-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test func aClientConnectsSendsAndHangsUp() throws {
        let path = folder + "/s.sock"
        let listener = try UnixSocket.listen(at: path).fd
        defer { UnixSocket.close(listener); UnixSocket.unlink(path) }
        #expect(UnixSocket.fileKind(path) == (true, true))
        #expect(UnixSocket.accept(listener) == nil, "nobody has connected yet")
        let client = try UnixSocket.connect(to: path)
        let server = try #require(UnixSocket.accept(listener))
        let sent = Array("hello\n".utf8).withUnsafeBytes { UnixSocket.send(client, $0) }
        #expect(sent == 6)
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(buffer.withUnsafeMutableBytes { UnixSocket.read(server, into: $0) } == .data(count: 6))
        #expect(String(decoding: buffer[..<6], as: UTF8.self) == "hello\n")
        #expect(buffer.withUnsafeMutableBytes { UnixSocket.read(server, into: $0) } == .wouldBlock)
        UnixSocket.close(client)
        // The hang-up arrives once every copy of the client's descriptor is closed: a child
        // another test spawns holds a copy (close-on-exec, but not yet exec'd) for a moment, so
        // wait for the server side to become readable rather than read at once.
        var ready = pollfd(fd: server, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 10_000) == 1)
        #expect(buffer.withUnsafeMutableBytes { UnixSocket.read(server, into: $0) } == .closed)
        UnixSocket.close(server)
    }

    /// The kernel says which process is at the other end: this one, here (the service counts
    /// its clients' connections and regions by process).
    @Test func theProcessAtTheOtherEndIsKnown() throws {
        let path = folder + "/peer.sock"
        let listener = try UnixSocket.listen(at: path).fd
        defer { UnixSocket.close(listener); UnixSocket.unlink(path) }
        let client = try UnixSocket.connect(to: path)
        defer { UnixSocket.close(client) }
        let server = try #require(UnixSocket.accept(listener))
        defer { UnixSocket.close(server) }
        #expect(UnixSocket.peerProcess(server) == getpid())
        #expect(UnixSocket.peerProcess(-1) == nil)
    }

    /// The socket file has its final mode and group before anyone can connect: they are set
    /// between bind and listen (with umask 000 it was 0777 until a chmod after listen, and a
    /// connection made then survived the chmod).
    @Test func theSocketHasItsModeBeforeItListens() throws {
        let path = folder + "/m.sock"
        var during: (mode: UInt32?, connected: Bool)?
        let listener = try UnixSocket.listen(at: path, mode: 0o600, group: nil) {
            let early = try? UnixSocket.connect(to: path)
            if let early { UnixSocket.close(early) }
            during = (try? FileStatus(path: path).mode, early != nil)
        }.fd
        defer { UnixSocket.close(listener); UnixSocket.unlink(path) }
        #expect(during?.mode == 0o600)
        #expect(during?.connected == false)
        let client = try UnixSocket.connect(to: path)
        UnixSocket.close(client)
        #expect(UnixSocket.defaultBacklog >= 128)
    }

    @Test func aSocketPathTooLongIsRefused() {
        let path = "/tmp/" + String(repeating: "x", count: UnixSocket.maximumPathLength)
        #expect(throws: SystemError(path: path, message: "a socket path is at most \(UnixSocket.maximumPathLength) bytes")) {
            try UnixSocket.listen(at: path)
        }
    }

    @Test func aMissingSocketGroupIsAnError() throws {
        let path = folder + "/g.sock"
        let listener = try UnixSocket.listen(at: path).fd
        defer { UnixSocket.close(listener); UnixSocket.unlink(path) }
        #expect(throws: SystemError(path: path, message: "socket group \"no-such-group-here\" does not exist (create it: groupadd --system no-such-group-here)")) {
            try UnixSocket.setAccess(path, mode: 0o660, group: "no-such-group-here")
        }
        #expect(try UnixSocket.setAccess(path, mode: 0o640, group: nil) == nil)
        #expect(try FileStatus(path: path).mode == 0o640)
    }

    @Test func childrenExitOrAreStopped() throws {
        let exits = try ChildProcess.spawn(["/bin/sh", "-c", "exit 3"], environment: [:])
        #expect(exits.waitForExit() == .exited(status: 3))
        let sleeper = try ChildProcess.spawn(["/bin/sleep", "30"], environment: [:])
        #expect(sleeper.exitIfEnded() == nil)
        sleeper.signalGroup(.terminate)
        #expect(sleeper.waitForExit() == .signalled(.terminate))
        #expect(throws: SystemError(path: "/nonexistent/program", message: "No such file or directory", code: ENOENT)) {
            try ChildProcess.spawn(["/nonexistent/program"], environment: [:])
        }
    }

    @Test func aChildSeesOnlyTheEnvironmentItIsGiven() throws {
        let out = folder + "/env.txt"
        let child = try ChildProcess.spawn(["/bin/sh", "-c", "env > \(out)"], environment: ["GESTURE_KIND": "tap", "PATH": "/usr/bin:/bin"])
        #expect(child.waitForExit() == .exited(status: 0))
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("PWD=") && !$0.hasPrefix("SHLVL=") && !$0.hasPrefix("_=") }
        #expect(lines.sorted() == ["GESTURE_KIND=tap", "PATH=/usr/bin:/bin"])
    }

    @Test func theTimerFiresAtItsMonotonicDeadline() throws {
        let loop = try EventLoop()
        let start = MonotonicClock.now
        loop.setDeadline(start + .milliseconds(5))
        var events: [EventLoop.Event] = []
        while events.isEmpty { events = loop.wait(timeout: 1000) }
        #expect(events == [.timer])
        #expect(MonotonicClock.now >= start + .milliseconds(5))
        loop.setDeadline(nil)
        #expect(loop.wait(timeout: 0) == [], "a disarmed timer stays quiet")
    }

    @Test func readyDescriptorsAreVisitedWithoutAList() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        loop.watch(fds[0])
        var seen: [EventLoop.Event] = []
        #expect(loop.wait(timeout: 0) { seen.append($0) } == 0, "nothing ready: the time ran out")
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        loop.wakeUp()
        #expect(loop.wait(timeout: 1000) { seen.append($0) } == 2)
        #expect(Set(seen.map { "\($0)" }) == ["readable(\(fds[0]))", "wakeUp"])
    }

    @Test func signalsArriveAsEvents() throws {
        let loop = try EventLoop()
        try loop.handleSignals([.hangup])
        // To this thread, which now blocks it for the loop's signalfd (a signal to the process
        // could go to another test's thread, where SIGHUP still ends the process).
        pthread_kill(pthread_self(), SIGHUP)
        var events: [EventLoop.Event] = []
        while events.isEmpty { events = loop.wait(timeout: 1000) }
        #expect(events == [.signal(.hangup)])
        #expect(Signal.hangup.description == "SIGHUP" && Signal(number: 40).description == "signal 40")
    }

    @Test func fileStatusTellsOwnerAndMode() throws {
        let path = folder + "/f"
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o604]))
        let status = try FileStatus(path: path)
        #expect(status.mode == 0o604)
        #expect(status.ownerID == FileStatus.effectiveUserID)
        #expect(!status.isDirectory)
        #expect(try FileStatus(path: folder).isDirectory)
        #expect(FileStatus.folder(of: "/etc/gestured.yaml") == "/etc")
        #expect(FileStatus.folder(of: "/gestured.yaml") == "/")
        #expect(FileStatus.folder(of: "gestured.yaml") == ".")
        #expect(FileStatus.cannotCreate(at: path) == nil)
        #expect(FileStatus.cannotCreate(at: folder + "/none/f") == "No such file or directory")
        #expect(throws: SystemError(path: folder + "/none", message: "No such file or directory", code: ENOENT)) {
            try FileStatus(path: folder + "/none")
        }
    }
}
