// gestured-bench: throughput of the recording readers and the multitouch decoder on a
// generated 100,000-event recording, and the time the gesture pipeline takes per frame.
// Run in release (`make bench`); prints one JSON object. Throughputs are the best of
// several runs, so a busy machine lowers them less.
#if canImport(Glibc)
import Glibc
#endif
import GestureTesting
import GestureRuntime
import Gestures
import Logging
import TouchEvents
import TouchInputTesting
import TouchRecordings

let eventCount = 100_000
let runs = 9

/// A 10-slot touchscreen, 300 x 200 mm at 10 units/mm.
let device = DeviceDescription(
    name: "Benchmark Touchscreen", id: InputID(bustype: 3, vendor: 1, product: 1, version: 1),
    codes: [EventType.syn: [0, 1, 2, 3], EventType.key: [KeyCode.touch]],
    absInfo: [
        AbsCode.x: AbsInfo(minimum: 0, maximum: 3000, resolution: 10),
        AbsCode.y: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
        AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
        AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 3000, resolution: 10),
        AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
        AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
    ],
    properties: [InputProperty.direct])

/// Gestures of 1 to 10 fingers, 60 frames each at 8 ms, every finger moving every frame.
func generateEvents() -> [InputEvent] {
    var events: [InputEvent] = []
    events.reserveCapacity(eventCount + 64)
    var time = Instant.zero
    var trackingID: Int32 = 0
    var gesture = 0
    func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: time, type: type, code: code, value: value))
    }
    while events.count < eventCount {
        let fingers = gesture % 10 + 1
        for frame in 0..<60 where events.count < eventCount {
            for f in 0..<fingers {
                add(EventType.abs, AbsCode.mtSlot, Int32(f))
                if frame == 0 {
                    trackingID += 1
                    add(EventType.abs, AbsCode.mtTrackingID, trackingID)
                }
                add(EventType.abs, AbsCode.mtPositionX, Int32(200 + f * 250 + frame * 3))
                add(EventType.abs, AbsCode.mtPositionY, Int32(300 + frame * 5 + f))
                add(EventType.abs, AbsCode.mtPressure, Int32(30 + (frame + f) % 20))
            }
            add(EventType.syn, SynCode.report, 0)
            time += .milliseconds(8)
        }
        for f in 0..<fingers {
            add(EventType.abs, AbsCode.mtSlot, Int32(f))
            add(EventType.abs, AbsCode.mtTrackingID, -1)
        }
        add(EventType.syn, SynCode.report, 0)
        time += .milliseconds(300)
        gesture += 1
    }
    return events
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Best events per second over `runs` runs of `body`.
func measure(_ events: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = now()
        try body()
        best = min(best, now() - start)
    }
    return Double(events) / best
}

if let i = CommandLine.arguments.firstIndex(of: "--frame-cost") {
    guard i + 1 < CommandLine.arguments.count else { fail("--frame-cost takes a layout: every, swipes, none, decode, mirror or libevdev", status: 2) }
    let rest = CommandLine.arguments[(i + 2)...]
    frameCost(layout: CommandLine.arguments[i + 1], path: rest.first ?? "fixtures/recordings/evemu/3m.events")
}

// `--pipeline-only` runs just the pipeline part, for a profiler (valgrind --tool=callgrind);
// with `--tail`, it says for each finger count which frames of a sequence make the p99 (step 0
// lands, 61 lifts): what docs/performance.md's account of the tail is measured with.
if CommandLine.arguments.contains("--pipeline-only") {
    _ = pipelineLatency()
    exit(0)
}

/// The live read path as `gestured run` takes it, on a pipe device instead of a kernel one: the
/// first `limit` events written into the pipe a frame at a time, each frame read by one turn
/// of the runtime's loop (epoll → the device found by its descriptor → read → decoder → the
/// built-in layout's recognizers). Returns the gesture events delivered.
func liveReadPath(_ events: [InputEvent], limit: Int, frameTime: ((Double) -> Void)? = nil) -> Int {
    let clock = ManualClock()
    let monitor = ManualDeviceMonitor()
    let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
    var delivered = 0
    do {
        let pipe = try PipeTouchDevice(node: "/dev/input/bench", description: device)
        let runtime = try GestureRuntime(source: .standard, clock: clock, logger: logger) { monitor }
        runtime.observer = { _, _ in delivered += 1 }
        monitor.plugIn(pipe)
        try runtime.start()
        var frame: [InputEvent] = []
        for e in events.prefix(limit) {
            frame.append(e)
            guard e.isReport else { continue }
            clock.advance(to: e.time)
            let start = frameTime == nil ? 0 : now()
            pipe.write(frame)
            runtime.runOnce(timeout: 0)
            if let frameTime { frameTime(now() - start) }
            frame.removeAll(keepingCapacity: true)
        }
        runtime.shutdown()
    } catch {
        print("error: \(error)")
        exit(1)
    }
    return delivered
}

/// `--instructions`: a fixed amount of work and nothing else (no clock, no files), for
/// counting instructions under callgrind (`scripts/callgrind-guard.sh`): the generated events
/// decoded and played through the built-in layout, 20,000 hit tests in 1,000 regions, and
/// the first 20,000 events again through the live read path (``liveReadPath(_:limit:)``).
if CommandLine.arguments.contains("--instructions") {
    let events = generateEvents()
    let surface = TouchSurface(device: device)!
    var decoder = TouchDecoder(device: device, surface: surface)
    let (pipeline, handled) = benchPipeline()
    do {
        for e in events { try decoder.process(e) { pipeline.process($0) } }
    } catch {
        print("error: \(error)")
        exit(1)
    }
    pipeline.finish()
    let found = hitTests(regions: 1000, points: 20_000) { layout, point in layout.hitTest(point) != nil }
    let live = liveReadPath(events, limit: 20_000)
    print("{\"gestures_handled\": \(handled.count), \"hits\": \(found), \"live_gestures\": \(live)}")
    exit(0)
}

/// `--hour-of-use`: only the hour-long replay, as JSON (the fault-injection tests run it).
func hourJSON() throws -> String {
    let hour = try hourOfUse()
    let counts = hour.gestures.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
    return "\"hour_frames\": \(hour.frames), \"hour_gestures\": {\(counts)}, "
        + "\"hour_rss_start_kb\": \(hour.rssStart), \"hour_rss_10min_kb\": \(hour.rss10), \"hour_rss_end_kb\": \(hour.rssEnd)"
}
if CommandLine.arguments.contains("--hour-of-use") {
    do {
        print("{" + (try hourJSON()) + "}")
        exit(0)
    } catch {
        print("error: \(error)")
        exit(1)
    }
}

let events = generateEvents()
let recorded = RecordedDevice(description: device, events: events, eventLines: Array(repeating: 0, count: events.count))
var template = Array("/tmp/gestured-bench-XXXXXX".utf8CString)
guard let folderPointer = mkdtemp(&template) else { fatalError("mkdtemp failed") }
let folder = String(cString: folderPointer)
let yamlPath = folder + "/bench.yaml"
let evemuPath = folder + "/bench.evemu"
do {
    try writeFileAtomically(LibinputRecordWriter(source: "gestured-bench").yaml(for: recorded), to: yamlPath)
    try writeFileAtomically(EvemuWriter().text(for: recorded), to: evemuPath)
} catch {
    fatalError("\(error)")
}
defer {
    unlink(yamlPath)
    unlink(evemuPath)
    rmdir(folder)
}

do {
    var check = 0
    let libinputRate = try measure(events.count) { check &+= try Recording.load(path: yamlPath).devices[0].events.count }
    let evemuRate = try measure(events.count) { check &+= try Recording.load(path: evemuPath).devices[0].events.count }
    precondition(check == runs * 2 * events.count, "a reader lost events")

    let surface = TouchSurface(device: device)!
    var frames = 0
    let decodeRate = try measure(events.count) {
        var decoder = TouchDecoder(device: device, surface: surface)
        for e in events { try decoder.process(e) { frames &+= $0.contacts.count } }
    }
    precondition(frames > 0)

    let latency = pipelineLatency()
    // The live read path per frame on this machine: a frame written into a pipe device, one
    // turn of the runtime's loop (epoll_wait, read, decode, recognize, deliver).
    var liveTimes: [Double] = []
    liveTimes.reserveCapacity(30_000)
    _ = liveReadPath(events, limit: events.count) { liveTimes.append($0) }
    liveTimes.sort()
    func livePercentile(_ p: Double) -> String { format2(liveTimes[min(liveTimes.count - 1, Int(Double(liveTimes.count) * p))] * 1e6) }
    let hits = hitTestLatency()
    let allocations = allocationsPerFrame()
    let sequenceBytes = bytesPerActiveSequence()
    let jsonLineAllocations = allocationsPerJSONLine()
    let hour = try hourJSON()
    let owned = ownedReadPath()
    let twinAllocations = twinFilterAllocationsPerFrame()
    let serviceAllocations = try serviceAllocationsPerFrame(device: device, events: events)
    func byContacts(_ value: ((contacts: Int, shared: (Double, Double), owned: (Double, Double), twinWrites: Int)) -> Double) -> String {
        "{" + owned.map { "\"\($0.contacts)\": \(format2(value($0)))" }.joined(separator: ", ") + "}"
    }
    func rate(_ value: Double) -> String { String(Int(value.rounded())) }
    func percentiles(_ key: KeyPath<Latency, Double>) -> String {
        "{" + latency.map { "\"\($0.contacts)\": \(String(format2($0[keyPath: key])))" }.joined(separator: ", ") + "}"
    }
    print("""
        {"events": \(events.count), "runs": \(runs), \
        "parse_libinput_events_per_s": \(rate(libinputRate)), \
        "parse_evemu_events_per_s": \(rate(evemuRate)), \
        "decode_events_per_s": \(rate(decodeRate)), \
        "pipeline_frames_per_count": \(latency.first?.frames ?? 0), \
        "pipeline_frame_p50_us": \(percentiles(\.p50)), \
        "pipeline_frame_p99_us": \(percentiles(\.p99)), \
        "live_read_path_frames": \(liveTimes.count), \
        "live_read_path_frame_p50_us": \(livePercentile(0.5)), \
        "live_read_path_frame_p99_us": \(livePercentile(0.99)), \
        "hittest_p50_us": {\(hits.map { "\"\($0.regions)\": \(format2($0.p50))" }.joined(separator: ", "))}, \
        "hittest_p99_us": {\(hits.map { "\"\($0.regions)\": \(format2($0.p99))" }.joined(separator: ", "))}, \
        "pipeline_allocations_per_frame": {\(allocations.map { "\"\($0.contacts)\": \(format2($0.allocations))" }.joined(separator: ", "))}, \
        "pipeline_allocated_bytes_per_frame": {\(allocations.map { "\"\($0.contacts)\": \(format2($0.bytes))" }.joined(separator: ", "))}, \
        "bytes_per_active_sequence": \(sequenceBytes), \
        "json_line_allocations": \(format2(jsonLineAllocations)), \
        "shared_read_path_frame_p50_us": \(byContacts { $0.shared.0 }), \
        "shared_read_path_frame_p99_us": \(byContacts { $0.shared.1 }), \
        "owned_read_path_frame_p50_us": \(byContacts { $0.owned.0 }), \
        "owned_read_path_frame_p99_us": \(byContacts { $0.owned.1 }), \
        "owned_twin_writes_per_frame": \(byContacts { Double($0.twinWrites) / (62.0 * 60) }), \
        "service_turn_allocations_per_frame": \(format2(serviceAllocations)), \
        "twin_filter_allocations_per_frame": {\(twinAllocations.map { "\"\($0.contacts)\": \(format2($0.allocations))" }.joined(separator: ", "))}, \
        \(hour)}
        """)
} catch {
    print("error: \(error)")
    exit(1)
}

// MARK: - Gesture pipeline

struct Latency {
    var contacts: Int
    var frames: Int
    var p50: Double
    var p99: Double
}

/// Two decimals, always (`0.61`, `2.00`).
func format2(_ v: Double) -> String { formatDecimal(v, places: 2, trailingZeros: .keep) }

/// Microseconds per frame through the whole pipeline — touch tracking, every recognizer of
/// the built-in layout, the arena, and a handler — for drags of 1, 2, 5 and 10 fingers:
/// each sequence lands, moves for 60 frames of 8 ms and lifts.
func pipelineLatency() -> [Latency] {
    var results: [Latency] = []
    for contacts in [1, 2, 5, 10] {
        let (pipeline, handled) = benchPipeline()
        let frames = dragFrames(contacts: contacts, sequences: 400)
        var samples: [Double] = []
        var byStep: [(step: Int, us: Double)] = []
        samples.reserveCapacity(frames.count)
        for (i, frame) in frames.enumerated() {
            let start = now()
            pipeline.process(frame)
            let elapsed = now() - start
            if i >= 62 * 20 {
                samples.append(elapsed * 1e6)  // after 20 warm-up sequences
                byStep.append((i % 62, elapsed * 1e6))
            }
        }
        precondition(handled.count > 0 || contacts > 5, "no handler ran")
        if CommandLine.arguments.contains("--tail") {
            let p99 = samples.sorted()[samples.count * 99 / 100]
            var tail: [Int: Int] = [:]
            for s in byStep where s.us >= p99 { tail[s.step, default: 0] += 1 }
            let over = byStep.filter { $0.us >= p99 }.count
            print("tail \(contacts) contacts: p99 \(format2(p99)) µs; \(over) frames at or over it, by step (0 lands, 61 lifts): \(tail.sorted { $0.value > $1.value }.prefix(12).map { "\($0.key):\($0.value)" }.joined(separator: " "))")
        }
        samples.sort()
        results.append(Latency(contacts: contacts, frames: samples.count,
                               p50: samples[samples.count / 2], p99: samples[samples.count * 99 / 100]))
    }
    return results
}

/// Counts what the handlers were called with.
final class HandlerCount {
    var count = 0
}

/// The built-in layout's pipeline (300 x 200 mm touchscreen) with a handler on every
/// recognizer, and the count of their calls.
func benchPipeline() -> (GesturePipeline, HandlerCount) {
    let layout = Layout.standard(size: (300, 200), touchscreen: true)
    let handled = HandlerCount()
    for r in layout.root.recognizers { r.addHandler { _ in handled.count &+= 1 } }
    return (GesturePipeline(layout: layout, deviceName: "bench"), handled)
}

/// `sequences` drags of `contacts` fingers: each lands, moves for 60 frames of 8 ms and
/// lifts; 400 ms between them.
func dragFrames(contacts: Int, sequences: Int) -> [TouchFrame] {
    var frames: [TouchFrame] = []
    var time = Instant.zero
    var id = 0
    for sequence in 0..<sequences {
        let ids = (0..<contacts).map { _ in id += 1; return id }
        for step in 0...61 {
            let phase: TouchPhase = step == 0 ? .began : step == 61 ? .ended : .moved
            var list: [TouchContact] = []
            for (i, cid) in ids.enumerated() {
                let x = 20 + Double(i) * 25 + Double(step) * 0.8
                let y = 40 + Double(step) * 1.2 + Double(sequence % 7)
                list.append(TouchContact(id: cid, slot: i, phase: phase, deviceX: Int32(x * 10), deviceY: Int32(y * 10), x: x, y: y))
            }
            frames.append(TouchFrame(time: time, contacts: list))
            time += .milliseconds(8)
        }
        time += .milliseconds(400)
    }
    return frames
}

// MARK: - Hit testing

/// A 1920 x 1080 screen of `count` regions: panels, each a grid of 40 x 40 buttons extended
/// by 10 all round.
func panelLayout(regions count: Int) -> Layout {
    let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 1920, height: 1080))
    let panels = max(1, count / 100)
    var made = 1
    for p in 0..<panels {
        let panel = Region(id: "panel\(p)", frame: Rect(x: Double(p % 5) * 380 + 10, y: Double(p / 5) * 540 + 10, width: 370, height: 520))
        root.addChild(panel)
        made += 1
        var i = 0
        while made < count && i < (count - 1) / panels {
            let button = Region(id: "b\(p)-\(i)", frame: Rect(x: Double(i % 8) * 45 + 5, y: Double(i / 8) * 45 + 5, width: 40, height: 40),
                                hitInsets: EdgeInsets(all: -10))
            panel.addChild(button)
            made += 1
            i += 1
        }
    }
    precondition(made == count, "layout of \(made) regions")
    let layout = Layout(root: root)
    _ = layout.hitTest(Point(x: 1, y: 1))  // builds the index
    return layout
}

/// Runs `body` on `points` pseudo-random points of a `regions`-region panel layout (the same
/// points every run); returns how many it said yes to.
func hitTests(regions: Int, points: Int, _ body: (Layout, Point) -> Bool) -> Int {
    let layout = panelLayout(regions: regions)
    var seed: UInt64 = 42
    func next() -> Double {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Double(seed >> 11) / Double(1 << 53)
    }
    var yes = 0
    for _ in 0..<points where body(layout, Point(x: next() * 1920, y: next() * 1080)) { yes += 1 }
    return yes
}

/// Microseconds per hit test in layouts of 10, 100 and 1,000 regions, at 20,000 points after
/// 2,000 for warm-up.
func hitTestLatency() -> [(regions: Int, p50: Double, p99: Double)] {
    var results: [(Int, Double, Double)] = []
    for count in [10, 100, 1000] {
        var samples: [Double] = []
        samples.reserveCapacity(22000)
        let found = hitTests(regions: count, points: 22000) { layout, point in
            let start = now()
            let hit = layout.hitTest(point)
            samples.append((now() - start) * 1e6)
            return hit != nil
        }
        precondition(found > 0, "no hits")
        samples.removeFirst(2000)  // warm-up
        samples.sort()
        results.append((count, samples[samples.count / 2], samples[samples.count * 99 / 100]))
    }
    return results
}
