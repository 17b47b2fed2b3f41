// gestured-abuse: hostile socket clients against a running `gestured run`, while a probe client
// pings it (docs/protocol.md, "Limits"; issue 38). `make test` runs the short version on the
// host (scripts/abuse-check.sh); `make soak` runs it longer in the VM with a touch stream.
//
//   gestured-abuse --gestured PATH [--seconds S] [--only CASE] [--report FILE]
//
// It starts `PATH run --socket DIR/gestured.sock` (no device needed; its log in DIR/log), then
// runs each case in turn: junk lines, oversized lines, a connection flood past the budget,
// region holders past the total, a context flood, unfinished lines past the total, clients that
// never read, a connect/close storm. Then every hostile client leaves. It prints one JSON
// object and exits 1 when a check fails:
// - alive: the probe's last ping is answered and it was never dropped;
// - ping p99 under 5 ms during the cases;
// - resident memory within 2 MiB of where it was before, once the clients have left;
// - the log grew less than 100 KiB during the context flood;
// - no spin: under 50 ms of CPU in the idle second after.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SystemLoop

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("gestured-abuse: \(message)\n".utf8))
    exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
var gestured: String?
var seconds = 1.0
var reportPath: String?
var only: String?
var probeSocket: String?
while let a = arguments.popFirst() {
    switch a {
    case "--probe": probeSocket = arguments.popFirst()
    case "--only": only = arguments.popFirst()
    case "--gestured": gestured = arguments.popFirst()
    case "--seconds":
        guard let s = Double(arguments.popFirst() ?? "") else { fail("--seconds takes a number") }
        seconds = s
    case "--report": reportPath = arguments.popFirst()
    default: fail("unknown argument \(a) (usage: gestured-abuse --gestured PATH [--seconds S] [--only CASE] [--report FILE])")
    }
}
_ = UnixSocket.raiseDescriptorLimit()

// MARK: - The service

let folder = NSTemporaryDirectory() + "gestured-abuse-" + UUID().uuidString
nonisolated(unsafe) var socketPath = probeSocket ?? folder + "/gestured.sock"
if let probeSocket { runProbe(probeSocket) }
guard let gestured else { fail("--gestured PATH is needed") }
try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let logPath = folder + "/log"
_ = FileManager.default.createFile(atPath: logPath, contents: nil)
let service = Process()
service.executableURL = URL(fileURLWithPath: gestured)
service.arguments = ["run", "--socket", socketPath]
service.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
service.standardOutput = FileHandle.nullDevice
do { try service.run() } catch { fail("cannot start \(gestured): \(error)") }
let pid = service.processIdentifier
defer { kill(pid, SIGTERM) }
for _ in 0..<500 where !UnixSocket.fileKind(socketPath).isSocket { _ = poll(nil, 0, 20) }
guard UnixSocket.fileKind(socketPath).isSocket else { fail("the service never listened (see \(logPath))") }

/// Resident memory of the service, in KiB.
func residentKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// CPU time the service used (user and system), in seconds.
func cpuSeconds() -> Double {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the name: state is field 3; utime and stime are fields 14 and 15.
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func logBytes() -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: logPath))?[.size] as? Int) ?? 0
}

// MARK: - Clients

/// A connection, non-blocking; what it reads is counted and thrown away unless kept.
final class Client {
    var fd: Int32
    var received: [UInt8] = []
    var keep = false
    var closedByService = false

    init?() {
        guard let fd = try? UnixSocket.connect(to: socketPath) else { return nil }
        self.fd = fd
        UnixSocket.setNonBlocking(fd)
    }

    /// Sends what the socket takes now; returns the bytes sent.
    @discardableResult
    func send(_ text: String) -> Int { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        guard fd >= 0 else { return 0 }
        return bytes.withUnsafeBytes { UnixSocket.send(fd, $0) }
    }

    /// One buffer for every hostile client's reads (they run on the main thread only).
    nonisolated(unsafe) static var buffer = [UInt8](repeating: 0, count: 65536)

    func drain() {
        guard fd >= 0, !closedByService else { return }
        while true {
            switch Client.buffer.withUnsafeMutableBytes({ UnixSocket.read(fd, into: $0) }) {
            case .data(let n): if keep { received += Client.buffer[0..<n] }
            case .wouldBlock: return
            case .closed:
                closedByService = true
                return
            }
        }
    }

    func hangUp() {
        if fd >= 0 { UnixSocket.close(fd) }
        fd = -1
    }
}

// MARK: - The probe

/// Pings every 15 ms (under the rate limit) on its own thread and keeps each round trip, in milliseconds.
final class Probe: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [(phase: String, ms: Double)] = []
    private var phase: String?
    private var stopped = false
    private(set) var dropped = false
    private(set) var lastAnswered = false
    private let client: Client

    init() {
        guard let c = Client() else { fail("the probe cannot connect") }
        client = c
    }

    func start() {
        Thread.detachNewThread { self.run() }
    }

    private func run() {
        var pending: [UInt8] = []
        var id = 0
        while !lock.withLock({ stopped }) {
            id += 1
            let sent = now()
            client.send("{\"type\": \"ping\", \"id\": \(id)}\n")
            let expected = Array("\"id\": \(id)}".utf8)
            var answered = false
            while !answered && now() - sent < 2 {
                var p = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 100)
                var buffer = [UInt8](repeating: 0, count: 4096)
                switch buffer.withUnsafeMutableBytes({ UnixSocket.read(client.fd, into: $0) }) {
                case .data(let n): pending += buffer[0..<n]
                case .wouldBlock: continue
                case .closed:
                    lock.withLock { dropped = true }
                    return
                }
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(pending[..<newline])
                    pending.removeFirst(newline + 1)
                    if line.count >= expected.count && Array(line.suffix(expected.count)) == expected { answered = true }
                }
            }
            let rtt = (now() - sent) * 1000
            lock.withLock {
                lastAnswered = answered
                if let phase { samples.append((phase, answered ? rtt : 2000)) }
            }
            _ = poll(nil, 0, 15)  // about 60 a second: under the rate limit of 100
        }
    }

    /// Keeps the round trips from now on under `phase` (nil: none).
    func record(_ phase: String?) { lock.withLock { self.phase = phase } }
    func stop() { lock.withLock { stopped = true } }
    var results: (samples: [(phase: String, ms: Double)], dropped: Bool, lastAnswered: Bool) { lock.withLock { (samples, dropped, lastAnswered) } }
}

/// `--probe SOCKET`: the probe in a process of its own (a client of another process, as an
/// application is: budgets count clients by process). Its standard input names the case under
/// way, a line each (`-`: none); at its end it prints each round trip as `CASE MS`, then
/// `dropped BOOL` and `answered BOOL`.
func runProbe(_ socket: String) -> Never {
    let probe = Probe()
    probe.start()
    while let line = readLine() {
        if line == "end" { break }
        probe.record(line == "-" ? nil : line)
    }
    let (samples, dropped, lastAnswered) = probe.results
    probe.stop()
    for s in samples { print("\(s.phase) \(s.ms)") }
    print("dropped \(dropped)")
    print("answered \(lastAnswered)")
    exit(0)
}

/// The probe process, seen from the abuser.
final class ProbeProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init() {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--probe", socketPath]
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { fail("cannot start the probe: \(error)") }
    }

    func record(_ phase: String?) {
        input.fileHandleForWriting.write(Data(((phase ?? "-") + "\n").utf8))
    }

    /// Ends the probe and returns what it measured.
    func results() -> (samples: [(phase: String, ms: Double)], dropped: Bool, lastAnswered: Bool) {
        input.fileHandleForWriting.write(Data("end\n".utf8))
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var samples: [(phase: String, ms: Double)] = []
        var dropped = true, answered = false
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "dropped": dropped = parts[1] == "true"
            case "answered": answered = parts[1] == "true"
            default: samples.append((String(parts[0]), Double(parts[1]) ?? 9999))
            }
        }
        return (samples, dropped, answered)
    }
}

// MARK: - The cases

/// Runs `body` on the hostile clients until `duration` seconds have passed, draining them.
func keep(_ clients: [Client], for duration: Double, _ body: ([Client]) -> Void) {
    let end = now() + duration
    while now() < end {
        body(clients)
        for c in clients { c.drain() }
        _ = poll(nil, 0, 1)
    }
}

func connect(_ n: Int) -> [Client] { (0..<n).compactMap { _ in Client() } }

_ = poll(nil, 0, 200)
let startKiB = residentKiB()
let probe = ProbeProcess()
_ = poll(nil, 0, 300)
var notes: [String: String] = [:]
/// Resident memory after each case, in KiB.
var residentAfter: [(String, Int)] = []
/// Starts case `name`: the probe's round trips are counted under it from now on.
@MainActor func begin(_ name: String) -> Bool {
    if let last = phasesRun.last, residentAfter.count < phasesRun.count { residentAfter.append((last, residentKiB())) }
    guard only == nil || only == name else {
        probe.record(nil)
        return false
    }
    phasesRun.append(name)
    probe.record(name)
    return true
}
var phasesRun: [String] = []

// Junk: not JSON, not objects, nested 10,000 deep, unknown types, wrong field types.
let junkLines: [[UInt8]] = [
    "this is not json\n", "[1, 2, 3]\n", String(repeating: "[", count: 10_000) + "\n",
    "{\"type\": \"teleport\", \"id\": 1}\n", "{\"type\": \"register\", \"id\": \"x\", \"region\": {\"id\": 5, \"frame\": \"wide\"}}\n",
    "{\"type\": null}\n", "{\"type\": \"ping\", \"id\": 1e400}\n",
].map { Array($0.utf8) }
if begin("junk") {
    let clients = connect(20)
    var i = 0
    keep(clients, for: seconds) { list in
        for c in list {
            c.send(junkLines[i % junkLines.count])
            i += 1
        }
    }
    clients.forEach { $0.hangUp() }
}

// Lines longer than 64 KiB, again and again.
if begin("too-large") {
    let clients = connect(10)
    let huge = Array((String(repeating: "x", count: 200 * 1024) + "\n").utf8)
    keep(clients, for: seconds) { list in for c in list { c.send(huge) } }
    clients.forEach { $0.hangUp() }
}

// More connections than the budget (256), at once.
if begin("connections") {
    let clients = connect(400)
    keep(clients, for: seconds / 2) { _ in }
    notes["connections_closed_by_service"] = "\(clients.filter(\.closedByService).count) of \(clients.count)"
    clients.forEach { $0.hangUp() }
}

// Region holders past the total (16,384): 100 clients of up to 250 regions.
if begin("regions") {
    let clients = connect(100)
    var next = Array(repeating: 0, count: clients.count)
    keep(clients, for: seconds * 3) { list in
        for (k, c) in list.enumerated() where next[k] < 250 {
            let i = next[k]
            let sent = c.send("{\"type\": \"register\", \"id\": \(i), \"region\": {\"id\": \"r\(i)\", \"frame\": [\(i % 30 * 10), \(i / 30 * 10), 8, 8], \"gestures\": [{\"kind\": \"tap\"}]}}\n")
            if sent > 0 { next[k] += 1 }
        }
    }
    keep(clients, for: seconds / 2) { _ in }
    clients.forEach { $0.hangUp() }
}

// A context flood at the rate limit: window titles of 1 KiB.
var contextLogGrowth = 0
if begin("context") {
    let before = logBytes()
    let clients = connect(10)
    let title = String(repeating: "t", count: 1000)
    let context = Array("{\"type\": \"context\", \"id\": 1, \"context\": {\"app\": \"app\", \"title\": \"\(title)\"}}\n".utf8)
    keep(clients, for: seconds * 2) { list in
        for c in list { c.send(context) }
    }
    clients.forEach { $0.hangUp() }
    contextLogGrowth = logBytes() - before
}

// Unfinished lines past the total (4 MiB): 200 clients each with 60 KiB and no newline.
if begin("unfinished") {
    let clients = connect(200)
    let part = "{\"type\": \"ping\", \"pad\": \"" + String(repeating: "p", count: 60 * 1024)
    for c in clients { c.send(part) }
    keep(clients, for: seconds) { _ in }
    notes["unfinished_closed_by_service"] = "\(clients.filter(\.closedByService).count) of \(clients.count)"
    clients.forEach { $0.hangUp() }
}

// Clients that never read: pings until they are dropped.
if begin("not-reading") {
    let clients = connect(20)
    let pings = Array(String(repeating: "{\"type\": \"ping\", \"id\": 1}\n", count: 200).utf8)
    let end = now() + seconds
    while now() < end {
        for c in clients { c.send(pings) }
        _ = poll(nil, 0, 1)
    }
    clients.forEach { $0.hangUp() }
}

// A connect/close storm.
if begin("storm") {
    let end = now() + seconds
    var n = 0
    while now() < end {
        if let c = Client() {
            c.hangUp()
            n += 1
        }
    }
    notes["storm_connections"] = "\(n)"
}

probe.record(nil)
if let last = phasesRun.last, residentAfter.count < phasesRun.count { residentAfter.append((last, residentKiB())) }
// Everyone hostile has gone: the service settles.
_ = poll(nil, 0, 500)
let endKiB = residentKiB()
let cpuBefore = cpuSeconds()
_ = poll(nil, 0, 1000)
let idleCPU = cpuSeconds() - cpuBefore
_ = poll(nil, 0, 100)
let (samples, dropped, lastAnswered) = probe.results()
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 9999 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
let all = samples.map(\.ms)
let p99 = percentile(all, 0.99)
let p50 = percentile(all, 0.5)
let byCase = phasesRun.map { name in
    "\"\(name)\": \(String(format: "%.2f", percentile(samples.filter { $0.phase == name }.map(\.ms), 0.99)))"
}.joined(separator: ", ")
let memory = residentAfter.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")

var failures: [String] = []
if dropped || !lastAnswered { failures.append("the probe was dropped or its last ping not answered") }
if service.isRunning == false { failures.append("the service exited") }
if p99 >= 5 { failures.append("ping p99 \(p99) ms, not under 5 ms") }
if endKiB - startKiB > 2048 { failures.append("resident memory \(startKiB) KiB before, \(endKiB) KiB after: more than 2 MiB more") }
if contextLogGrowth >= 100 * 1024 { failures.append("the context flood grew the log by \(contextLogGrowth) bytes") }
if idleCPU >= 0.05 { failures.append("\(Int(idleCPU * 1000)) ms of CPU in the idle second after: it spins") }

let report = """
    {"pings": \(samples.count), "ping_p50_ms": \(String(format: "%.2f", p50)), "ping_p99_ms": \(String(format: "%.2f", p99)), \
    "ping_p99_ms_by_case": {\(byCase)}, "rss_kib_after_case": {\(memory)}, \
    "rss_start_kib": \(startKiB), "rss_after_kib": \(endKiB), "context_flood_log_bytes": \(contextLogGrowth), \
    "idle_cpu_ms": \(Int(idleCPU * 1000)), "log_bytes": \(logBytes()), \
    \(notes.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\", " }.joined())\
    "failures": [\(failures.map { "\"\($0)\"" }.joined(separator: ", "))]}
    """
print(report)
if let reportPath { try? (report + "\n").write(toFile: reportPath, atomically: true, encoding: .utf8) }
kill(pid, SIGTERM)
service.waitUntilExit()
try? FileManager.default.removeItem(atPath: folder)
exit(failures.isEmpty ? 0 : 1)
