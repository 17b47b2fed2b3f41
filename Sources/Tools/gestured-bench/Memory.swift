import GestureProtocol
#if canImport(Glibc)
import Glibc
#endif
import CAllocationCounter
import Gestures
import TouchEvents

/// Heap allocations per frame in steady state (after 20 warm-up sequences, every sequence
/// after that counted: landing, moving and lifting), for drags of 1, 2, 5 and 10 fingers
/// through the built-in layout with a handler on every recognizer.
func allocationsPerFrame() -> [(contacts: Int, allocations: Double, bytes: Double)] {
    var results: [(Int, Double, Double)] = []
    for contacts in [1, 2, 5, 10] {
        let (pipeline, _) = benchPipeline()
        let frames = dragFrames(contacts: contacts, sequences: 120)
        let warmUp = 62 * 20
        for frame in frames[..<warmUp] { pipeline.process(frame) }
        gestured_allocations_start()
        for frame in frames[warmUp...] { pipeline.process(frame) }
        gestured_allocations_stop()
        let count = Double(frames.count - warmUp)
        results.append((contacts, Double(gestured_allocations_count()) / count, Double(gestured_allocations_bytes()) / count))
    }
    return results
}

/// Heap allocations per gesture event written as `gestured run --json` writes it
/// (``GestureEvent/appendJSONLine(to:prefix:)`` into a buffer kept with its capacity): the
/// writer walks the message's one list of keys, and allocates nothing.
func allocationsPerJSONLine() -> Double {
    let pan = Gesture(values: .pan(.init(translation: Point(x: 3, y: 4), velocity: Point(x: 30, y: 40))), state: .changed,
                      time: .zero + .milliseconds(120), startTime: .zero, device: "bench", region: "root", touches: 2,
                      location: Point(x: 10, y: 20), recognizer: "pan")
    var line: [UInt8] = []
    line.reserveCapacity(4096)
    func write() {
        line.removeAll(keepingCapacity: true)
        GestureEvent(pan, origin: .zero).appendJSONLine(to: &line)
    }
    for _ in 0..<100 { write() }
    gestured_allocations_start()
    for _ in 0..<1000 { write() }
    gestured_allocations_stop()
    return Double(gestured_allocations_count()) / 1000
}

/// Heap memory an active touch sequence holds, in bytes: ten buttons side by side, each with
/// a tap, a double tap, a long press and a pan; fingers land on them one frame after another
/// and stay down, each starting a sequence of its own. The figure is the growth from the
/// fifth sequence to the tenth, divided by five (the first ones also grow shared buffers).
func bytesPerActiveSequence() -> Int64 {
    let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 300, height: 200))
    var tokens: [GestureToken] = []
    for i in 0..<10 {
        let button = Region(id: "b\(i)", frame: Rect(x: Double(i) * 30, y: 0, width: 28, height: 200))
        tokens.append(button.onTap { _ in })
        tokens.append(button.onDoubleTap { _ in })
        tokens.append(button.onLongPress { _ in })
        tokens.append(button.onPan { _ in })
        root.addChild(button)
    }
    let pipeline = GesturePipeline(layout: Layout(root: root), deviceName: "bench")
    var contacts: [TouchContact] = []
    var live: [Int64] = []
    for i in 0..<10 {
        for c in contacts.indices { contacts[c].phase = .stationary }
        let x = Double(i) * 30 + 14
        contacts.append(TouchContact(id: i + 1, slot: i, phase: .began, deviceX: Int32(x * 10), deviceY: 1000, x: x, y: 100))
        if i == 0 { gestured_allocations_start() }
        pipeline.process(TouchFrame(time: .zero + .milliseconds(8 * i), contacts: contacts))
        live.append(gestured_allocations_live_bytes())
    }
    gestured_allocations_stop()
    precondition(pipeline.isTracking && tokens.count == 40)
    return (live[9] - live[4]) / 5
}

/// Resident memory of this process, kB.
func residentKilobytes() -> Int {
    guard let f = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(f) }
    var line = [UInt8](repeating: 0, count: 128)
    let read = fread(&line, 1, 127, f)
    let fields = String(decoding: line[..<read], as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// An hour of use — a gesture every 2 s, in turn a tap, a one-finger drag and a two-finger
/// pinch — decoded from kernel events and played through the built-in layout. Resident memory
/// when it starts, at the tenth minute and at the end: it must stay flat.
func hourOfUse() throws -> (frames: Int, gestures: [String: Int], rssStart: Int, rss10: Int, rssEnd: Int) {
    var events: [InputEvent] = []
    var trackingID: Int32 = 0
    /// Moves (an x) or lifts (nil) the contacts in these slots, `microseconds` from the start.
    func frame(_ microseconds: Int64, _ contacts: [(slot: Int32, x: Int32?)]) {
        let time = Instant(microseconds: microseconds)
        for c in contacts {
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: c.slot))
            guard let x = c.x else {
                events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1))
                continue
            }
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtPositionX, value: x))
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtPositionY, value: 1000))
        }
        events.append(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))
    }
    /// New contacts in these slots, `microseconds` from the start.
    func down(_ microseconds: Int64, _ slots: [(Int32, Int32)]) {
        let time = Instant(microseconds: microseconds)
        for (slot, x) in slots {
            trackingID += 1
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: slot))
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: trackingID))
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtPositionX, value: x))
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtPositionY, value: 1000))
        }
        events.append(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))
    }
    for gesture in 0..<1800 {
        let t = Int64(gesture) * 2_000_000
        switch gesture % 3 {
        case 0:
            down(t, [(0, 1500)])
            frame(t + 80_000, [(0, nil)])
        case 1:
            down(t, [(0, 500)])
            for step in 1...30 { frame(t + Int64(step) * 10_000, [(0, Int32(500 + step * 40))]) }
            frame(t + 310_000, [(0, nil)])
        default:
            down(t, [(0, 1300), (1, 1700)])
            for step in 1...30 { frame(t + Int64(step) * 10_000, [(0, Int32(1300 - step * 10)), (1, Int32(1700 + step * 10))]) }
            frame(t + 310_000, [(0, nil), (1, nil)])
        }
    }
    let rssStart = residentKilobytes()
    let surface = TouchSurface(device: device)!
    var decoder = TouchDecoder(device: device, surface: surface)
    let pipeline = GesturePipeline(layout: Layout.standard(size: (300, 200), touchscreen: true), deviceName: "bench")
    var gestures: [String: Int] = [:]
    pipeline.observer = { g in
        if g.state != .changed { gestures["\(g.kind) \(g.state)", default: 0] += 1 }
    }
    let total = events.filter { $0.type == EventType.syn }.count
    var frames = 0
    var rss10 = 0
    for e in events {
        try decoder.process(e) { f in
            pipeline.process(f)
            frames += 1
            if frames == total / 6 { rss10 = residentKilobytes() }
        }
    }
    pipeline.finish()
    precondition(!pipeline.isTracking && pipeline.nextDeadline == nil, "the pipeline holds a sequence after the hour")
    return (frames, gestures, rssStart, rss10, residentKilobytes())
}
