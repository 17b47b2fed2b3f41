import Foundation
import SystemLoop
import Testing

@Suite("gestured listen")
struct ListenCommandTests {
    @Test(arguments: [
        (["--filter", "kind=wave"], "gestured listen: --filter kind=wave: unknown gesture kind \"wave\" (known: tap, long-press, pan, swipe, pinch, rotate, edge-pan)\n"),
        (["--filter", "colour=red"], "gestured listen: --filter colour=red: unknown key \"colour\" (known: kind, state, region, device)\n"),
        (["--filter", "kind"], "gestured listen: --filter kind: write KEY=VALUE[,VALUE…] with KEY one of kind, state, region, device\n"),
        (["--region", "ok=1,2"], "gestured listen: --region ok=1,2: write ID=X,Y,W,H (layout units), e.g. ok=80,40,40,20\n"),
        (["--region", "ok=1,2,-3,4"], "gestured listen: --region ok=1,2,-3,4: width and height must be 0 or more\n"),
        (["--region", "ok=2000000,0,1,1"], "gestured listen: --region ok=2000000,0,1,1: coordinates go up to 1000000\n"),
        (["--exclusion", "drawer=0,200"], "gestured listen: --exclusion drawer=0,200: write ID=X,Y,W,H (layout units), e.g. ok=80,40,40,20\n"),
        (["--exclusion", "drawer=0,0,-1,4"], "gestured listen: --exclusion drawer=0,0,-1,4: width and height must be 0 or more\n"),
        (["--exit-after", "0"], "gestured listen: --exit-after 0: give 1 or more (leave it out to run until stopped)\n"),
    ])
    func badOptionsExitWith2(_ arguments: [String], _ message: String) throws {
        let result = try runGestured(["listen", "--socket", "/nonexistent/gestured.sock", "--once"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message)
    }

    @Test func noServiceSaysWhatMayBeWrong() throws {
        let result = try runGestured(["listen", "--socket", "/nonexistent/gestured.sock", "--once"])
        #expect(result.status == 2)
        #expect(result.stderr == "cannot connect to /nonexistent/gestured.sock: No such file or directory (is gestured running? is this user in its socket group?)\n")
    }

    /// Against a real `gestured run` (no touch devices here), started after listen: listen
    /// keeps trying until it is there, and its first line is the greeting.
    @Test func theGreetingOnceTheServiceIsThere() throws {
        let folder = NSTemporaryDirectory() + "gestured-listen-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let socket = folder + "/gestured.sock"
        let listen = Process()
        listen.executableURL = URL(fileURLWithPath: try gesturedPath())
        listen.arguments = ["listen", "--socket", socket, "--json", "--region", "ok=1,1,10,10"]
        let out = Pipe()
        listen.standardOutput = out
        listen.standardError = FileHandle.nullDevice
        try listen.run()
        // SIGKILL: the test runner blocks SIGTERM (the service tests handle it), and a child
        // inherits that; listen unblocks it, but a test must not depend on what it tests.
        defer { kill(listen.processIdentifier, SIGKILL) }
        let service = Process()
        service.executableURL = listen.executableURL
        service.arguments = ["run", "--socket", socket]
        service.standardError = FileHandle.nullDevice
        try service.run()
        defer { kill(service.processIdentifier, SIGKILL) }
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix(#"{"protocol": "gestured", "version": 1, "type": "greeting", "minor": 1, "service": ""#))
    }
}

/// Out of descriptors, the service neither spins nor goes deaf: with `ulimit -n 48`, clients
/// connect until one is left waiting in the backlog; the service says so once, and each time a
/// client leaves it accepts a waiting one, which gets its greeting (and is not dropped for the
/// hang-up of the client whose descriptor number it got).
@Suite("gestured run out of descriptors")
struct DescriptorExhaustionTests {
    /// Waits up to `milliseconds` for `fd` to be readable.
    func readable(_ fd: Int32, within milliseconds: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) == 1
    }

    @Test func aFullDescriptorTableStopsAcceptingOnceAndResumes() throws {
        let folder = NSTemporaryDirectory() + "gestured-nofile-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let socket = folder + "/gestured.sock"
        let log = folder + "/log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let service = Process()
        service.executableURL = URL(fileURLWithPath: "/bin/sh")
        service.arguments = ["-c", "ulimit -n 48 && exec \"$0\" run --socket \"$1\"", try gesturedPath(), socket]
        service.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        service.standardOutput = FileHandle.nullDevice
        try service.run()
        defer { kill(service.processIdentifier, SIGKILL) }
        // The service says so once it listens (the socket's file appears a moment before, at
        // bind: a client then would be refused).
        func said(_ text: String) -> Int {
            (try? String(contentsOfFile: log, encoding: .utf8))?.components(separatedBy: "\n").filter { $0.contains(text) }.count ?? 0
        }
        var listening = false
        for _ in 0..<1500 where !listening {
            listening = said("listening for clients") == 1
            if !listening { _ = poll(nil, 0, 20) }
        }
        #expect(listening)
        var greeted: [Int32] = []
        var waiting: Int32?
        defer { for fd in greeted { UnixSocket.close(fd) }; if let waiting { UnixSocket.close(waiting) } }
        for _ in 0..<60 {
            let fd = try UnixSocket.connect(to: socket)
            if readable(fd, within: 3_000) {
                greeted.append(fd)
            } else {
                waiting = fd
                break
            }
        }
        let stillWaiting = try #require(waiting, "every client was accepted: the limit did not bite")
        #expect(greeted.count > 10)
        #expect(said("no descriptor left for a socket client") == 1)
        // A client leaves: the waiting one is accepted and greeted, and the service, full again,
        // does not say so again within the minute.
        UnixSocket.close(greeted.removeLast())
        #expect(readable(stillWaiting, within: 10_000), "the waiting client was never accepted")
        var line = [UInt8](repeating: 0, count: 4096)
        let greeting = line.withUnsafeMutableBytes { UnixSocket.read(stillWaiting, into: $0) }
        #expect(greeting != .closed, "the accepted client was dropped")
        UnixSocket.close(greeted.removeLast())
        let another = try UnixSocket.connect(to: socket)
        defer { UnixSocket.close(another) }
        #expect(readable(another, within: 10_000), "the next client was never accepted")
        #expect(said("no descriptor left for a socket client") == 1, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }
}

func gesturedPath() throws -> String {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gestured").path,
        repositoryRoot + "/.build/debug/gestured",
    ]
    return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) })
}
