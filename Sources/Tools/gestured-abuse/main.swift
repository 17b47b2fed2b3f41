// gestured-abuse: hostile socket clients against a running `gestured run`, while a probe client
// pings it (docs/protocol.md, "Limits"; issue 38). `make abuse` runs the short version on the
// host, and `make test` the same as `make abuse-robustness` (the ping latency reported, not
// judged: docs/testing.md); `make soak` runs it longer in the VM with a touch stream.
//
//   gestured-abuse --gestured PATH [--seconds S] [--only CASE] [--latency-limit MS] [--report FILE]
//
// It starts `PATH run --socket DIR/gestured.sock` (no device needed; its log in DIR/log), then
// runs each case in turn: junk lines, oversized lines, a connection flood past the budget,
// region holders past the total, a context flood, unfinished lines past the total, clients that
// never read, a connect/close storm. Then every hostile client leaves. It prints one JSON
// object and exits 1 when a check fails:
// - alive: the probe's last ping is answered and it was never dropped;
// - ping p99 under 5 ms during the cases (`--latency-limit MS`; 0: reported, not judged);
// - resident memory within 2 MiB of where it was before, once the clients have left;
// - the log grew less than 100 KiB during the context flood;
// - no spin: under 50 ms of CPU in the idle second after.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SystemLoop


func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("gestured-abuse: \(message)\n".utf8))
    exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
var gestured: String?
var seconds = 1.0
/// The probe's ping p99 must stay under this (ms); 0: reported, not judged.
var latencyLimit = 5.0
var reportPath: String?
var only: String?
var probeSocket: String?
var probeSamples: String?
var attachSocket: String?
var attachPID: Int32?
var attachLog: String?
var rounds = 1
/// The value after `option`; a missing one is an error.
@MainActor func value(of option: String) -> String {
    guard let v = arguments.popFirst() else { fail("\(option) needs a value") }
    return v
}
/// The value after `option` as a number above zero.
@MainActor func positive<N: LosslessStringConvertible & Comparable & ExpressibleByIntegerLiteral>(_ option: String) -> N {
    guard let n = N(value(of: option)), n > 0 else { fail("\(option) takes a number above zero") }
    return n
}
while let a = arguments.popFirst() {
    switch a {
    case "--probe": probeSocket = value(of: a)
    case "--samples": probeSamples = value(of: a)
    case "--socket": attachSocket = value(of: a)
    case "--pid": attachPID = positive(a)
    case "--log": attachLog = value(of: a)
    case "--client-regions": break
    case "--rounds": rounds = positive(a)
    case "--only": only = value(of: a)
    case "--gestured": gestured = value(of: a)
    case "--seconds": seconds = positive(a)
    case "--report": reportPath = value(of: a)
    case "--latency-limit":
        guard let ms = Double(value(of: a)), ms >= 0 else { fail("--latency-limit takes milliseconds, 0 or more") }
        latencyLimit = ms
    default: fail("unknown argument \(a) (usage: gestured-abuse (--gestured PATH | --socket PATH --pid PID [--log FILE]) [--seconds S] [--rounds N] [--only CASE] [--latency-limit MS] [--report FILE])")
    }
}
/// `--client-regions`: the benchmark of socket clients' regions in a layout (make bench), as
/// JSON, and nothing else.
if CommandLine.arguments.contains("--client-regions") {
    let r = clientRegionsBench()
    print("""
        {"client_regions": \(r.regions), \
        "client_region_register_us": {"p50": \(format2(r.registerP50)), "p99": \(format2(r.registerP99))}, \
        "client_region_unregister_us": {"p50": \(format2(r.unregisterP50)), "p99": \(format2(r.unregisterP99))}, \
        "client_leave_250_regions_us": {"p50": \(format2(r.leaveP50)), "p99": \(format2(r.leaveP99))}, \
        "client_regions_hittest_us": {"p50": \(format2(r.hitP50)), "p99": \(format2(r.hitP99))}}
        """)
    exit(0)
}
_ = UnixSocket.raiseDescriptorLimit()

// MARK: - The service

let folder = NSTemporaryDirectory() + "gestured-abuse-" + UUID().uuidString
nonisolated(unsafe) var socketPath = probeSocket ?? attachSocket ?? folder + "/gestured.sock"
if let probeSocket { runProbe(probeSocket, samples: probeSamples ?? "/dev/null") }
/// The service's log (empty: not known, when attached without --log).
let logPath: String
/// The service started here, or nil when attached to a running one (--socket, --pid).
let service: Process?
let pid: Int32
if attachSocket != nil {
    guard let attachPID else { fail("--socket needs --pid, the service's process id") }
    pid = attachPID
    logPath = attachLog ?? ""
    service = nil
} else {
    guard let gestured else { fail("--gestured PATH (or --socket PATH --pid PID) is needed") }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    logPath = folder + "/log"
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    let started = Process()
    started.executableURL = URL(fileURLWithPath: gestured)
    started.arguments = ["run", "--socket", socketPath]
    started.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    started.standardOutput = FileHandle.nullDevice
    do { try started.run() } catch { fail("cannot start \(gestured): \(error)") }
    pid = started.processIdentifier
    service = started
}
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
    guard !logPath.isEmpty else { return 0 }
    return ((try? FileManager.default.attributesOfItem(atPath: logPath))?[.size] as? Int) ?? 0
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

/// `--probe SOCKET --samples FILE`: the probe in a process of its own (a client of another
/// process, as an application is: budgets count clients by process). It pings every 15 ms
/// until it is killed, and writes a line per ping to FILE as it goes: the monotonic time it
/// was sent (seconds) and the round trip in milliseconds (`-` when unanswered within 2 s);
/// `dropped` when the service closed the connection, and then it ends.
func runProbe(_ socket: String, samples path: String) -> Never {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { fail("cannot write \(path)") }
    guard let client = Client() else { fail("the probe cannot connect") }
    func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var id = 0
    while true {
        id += 1
        let sent = now()
        client.send("{\"type\": \"ping\", \"id\": \(id)}\n")
        let expected = Array("\"id\": \(id)}".utf8)
        var answered = false
        while !answered && now() - sent < 2 {
            var p = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 100)
            switch buffer.withUnsafeMutableBytes({ UnixSocket.read(client.fd, into: $0) }) {
            case .data(let n): pending += buffer[0..<n]
            case .wouldBlock: continue
            case .closed:
                say("dropped")
                exit(0)
            }
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                if line.count >= expected.count && Array(line.suffix(expected.count)) == expected { answered = true }
            }
        }
        say("\(sent) " + (answered ? "\((now() - sent) * 1000)" : "-"))
        _ = poll(nil, 0, 15)  // about 60 a second: under the rate limit of 100
    }
}

/// The probe process, seen from the abuser: it spawns it, notes when each case begins, and at
/// the end reads its samples.
final class ProbeProcess {
    private let child: ChildProcess
    private let samplesPath: String
    /// When each case (nil: none) began, in monotonic seconds.
    private var phases: [(start: Double, name: String?)] = []

    init(samples: String) {
        samplesPath = samples
        do {
            child = try ChildProcess.spawn([CommandLine.arguments[0], "--probe", socketPath, "--samples", samples], environment: [:])
        } catch {
            fail("cannot start the probe: \(error)")
        }
    }

    func record(_ phase: String?) { phases.append((now(), phase)) }

    /// Ends the probe and returns what it measured, each round trip under the case under way
    /// when it was sent.
    func results() -> (samples: [(phase: String, ms: Double)], dropped: Bool, lastAnswered: Bool) {
        child.signalGroup(.terminate)
        _ = child.waitForExit()
        let text = (try? String(contentsOfFile: samplesPath, encoding: .utf8)) ?? ""
        var samples: [(phase: String, ms: Double)] = []
        var dropped = false, answered = false
        for line in text.split(separator: "\n") {
            if line == "dropped" {
                dropped = true
                continue
            }
            let parts = line.split(separator: " ")
            guard parts.count == 2, let sent = Double(parts[0]) else { continue }
            let ms = Double(parts[1])
            answered = ms != nil
            guard let phase = phases.last(where: { $0.start <= sent })?.name else { continue }
            samples.append((phase, ms ?? 2000))
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
try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let probe = ProbeProcess(samples: folder + "/probe-samples")
_ = poll(nil, 0, 300)
var notes: [String: String] = [:]
/// Resident memory after each case (its last round), in KiB.
var residentAfter: [String: Int] = [:]
/// The case under way, if any.
var current: String?
/// Starts case `name`: the probe's round trips are counted under it from now on.
@MainActor func begin(_ name: String?) -> Bool {
    if let current { residentAfter[current] = residentKiB() }
    current = nil
    guard let name, only == nil || only == name else {
        probe.record(nil)
        return false
    }
    if !phasesRun.contains(name) { phasesRun.append(name) }
    current = name
    probe.record(name)
    return true
}
var phasesRun: [String] = []


/// How much the log grew during the context flood (its last round).
var contextLogGrowth = 0
for _ in 1...rounds {
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

}
_ = begin(nil)
// Everyone hostile has gone: the service settles.
_ = poll(nil, 0, 500)
let endKiB = residentKiB()
let cpuBefore = cpuSeconds()
_ = poll(nil, 0, 1000)
let idleCPU = cpuSeconds() - cpuBefore
_ = poll(nil, 0, 100)
let (samples, dropped, lastAnswered) = probe.results()
let all = samples.map(\.ms)
let p99 = percentile(all, 0.99)
let p50 = percentile(all, 0.5)
let byCase = phasesRun.map { name in
    "\"\(name)\": \(format2(percentile(samples.filter { $0.phase == name }.map(\.ms), 0.99)))"
}.joined(separator: ", ")
let memory = phasesRun.map { "\"\($0)\": \(residentAfter[$0] ?? 0)" }.joined(separator: ", ")

var failures: [String] = []
if dropped || !lastAnswered { failures.append("the probe was dropped or its last ping not answered") }
if kill(pid, 0) != 0 { failures.append("the service exited") }
if latencyLimit > 0, p99 >= latencyLimit { failures.append("ping p99 \(p99) ms, not under \(String(format: "%g", latencyLimit)) ms") }
if latencyLimit == 0 { notes["ping_p99"] = "reported, not judged (--latency-limit 0)" }
if endKiB - startKiB > 2048 { failures.append("resident memory \(startKiB) KiB before, \(endKiB) KiB after: more than 2 MiB more") }
if contextLogGrowth >= 100 * 1024 { failures.append("the context flood grew the log by \(contextLogGrowth) bytes") }
if idleCPU >= 0.05 { failures.append("\(Int(idleCPU * 1000)) ms of CPU in the idle second after: it spins") }

let report = """
    {"pings": \(samples.count), "ping_p50_ms": \(format2(p50)), "ping_p99_ms": \(format2(p99)), \
    "ping_p99_ms_by_case": {\(byCase)}, "rss_kib_after_case": {\(memory)}, \
    "rss_start_kib": \(startKiB), "rss_after_kib": \(endKiB), "context_flood_log_bytes": \(contextLogGrowth), \
    "idle_cpu_ms": \(Int(idleCPU * 1000)), "log_bytes": \(logBytes()), \
    \(notes.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\", " }.joined())\
    "failures": [\(failures.map { "\"\($0)\"" }.joined(separator: ", "))]}
    """
print(report)
if let reportPath { try? (report + "\n").write(toFile: reportPath, atomically: true, encoding: .utf8) }
if let service {
    kill(pid, SIGTERM)
    service.waitUntilExit()
}
try? FileManager.default.removeItem(atPath: folder)
exit(failures.isEmpty ? 0 : 1)
