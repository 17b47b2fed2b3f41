// gestured-bench: throughput of the recording readers and the multitouch decoder on a
// generated 100,000-event recording. Run in release (`make bench`); prints one JSON object.
// Each figure is the best of several runs, so a busy machine lowers it less.
#if canImport(Glibc)
import Glibc
#endif
import TouchEvents
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
    var time: Int64 = 0
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
            time += 8000
        }
        for f in 0..<fingers {
            add(EventType.abs, AbsCode.mtSlot, Int32(f))
            add(EventType.abs, AbsCode.mtTrackingID, -1)
        }
        add(EventType.syn, SynCode.report, 0)
        time += 300_000
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

    func rate(_ value: Double) -> String { String(Int(value.rounded())) }
    print("""
        {"events": \(events.count), "runs": \(runs), \
        "parse_libinput_events_per_s": \(rate(libinputRate)), \
        "parse_evemu_events_per_s": \(rate(evemuRate)), \
        "decode_events_per_s": \(rate(decodeRate))}
        """)
} catch {
    print("error: \(error)")
    exit(1)
}
