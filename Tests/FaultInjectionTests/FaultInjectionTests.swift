import Foundation
import GestureFuzzing
import GestureTesting
import GestureConfiguration
import Gestures
import Testing
import TouchEvents

/// A touchscreen with `slots` slots, 300 x 200 mm at 10 units/mm.
func touchscreen(slots: Int) -> DeviceDescription {
    DeviceDescription(
        name: "Fault Touchscreen", id: InputID(bustype: 3, vendor: 1, product: 1, version: 1),
        codes: [EventType.syn: [0, 1, 2, 3], EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 3000, resolution: 10),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: Int32(slots - 1)),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 3000, resolution: 10),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ],
        properties: [InputProperty.direct])
}

/// Kernel events for a script of frames: each frame lists, per slot, whether a contact lands
/// there (a new tracking id) or lifts (tracking id -1), and where it is, in device units.
struct EventScript {
    var events: [InputEvent] = []
    var trackingID: Int32 = 0

    mutating func frame(at microseconds: Int64, _ contacts: [(slot: Int, down: Bool, up: Bool, x: Int32, y: Int32)]) {
        let time = Instant(microseconds: microseconds)
        for c in contacts {
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: Int32(c.slot)))
            if c.up {
                events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1))
                continue
            }
            if c.down {
                trackingID += 1
                events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: trackingID))
            }
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtPositionX, value: c.x))
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtPositionY, value: c.y))
        }
        events.append(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))
    }
}

/// Decodes `events` and plays them through a pipeline on the built-in layout; returns the
/// gesture log and the pipeline, to look at what it still holds.
func play(_ events: [InputEvent], device: DeviceDescription) throws -> (lines: [String], pipeline: GesturePipeline) {
    let pipeline = GesturePipeline(layout: Layout.standard(size: (300, 200), touchscreen: true))
    let recorder = GestureRecorder(pipeline)
    var decoder = TouchDecoder(device: device, surface: TouchSurface(device: device)!)
    for e in events {
        try decoder.process(e) { pipeline.process($0) }
    }
    pipeline.finish()
    return (recorder.lines, pipeline)
}

@Suite("fault injection")
struct FaultInjectionTests {
    /// A device reset after a decoding error, or a corrupt recording: from the eleventh frame
    /// of a drag on, every frame is stamped 1 s earlier. The pipeline takes time as standing
    /// still there — no negative durations, no velocity from a negative interval, no deadline
    /// firing twice — and the drag is still the same drag.
    @Test func timeGoingBackwardsIsTakenAsStandingStill() throws {
        var touches = TouchScript()
        touches.drag(from: Point(x: 100, y: 100), to: Point(x: 180, y: 100), at: .milliseconds(5000), duration: .milliseconds(200), steps: 20)
        var frames = touches.frames
        for i in frames.indices where i >= 11 { frames[i].time = frames[i].time - .seconds(1) }
        let layout = Layout.standard(size: (300, 200), touchscreen: true)
        let pipeline = GesturePipeline(layout: layout)
        let recorder = GestureRecorder(pipeline)
        for frame in frames { pipeline.process(frame) }
        pipeline.finish()
        // As played with time standing still from the eleventh frame: the same log, at the
        // eleventh frame's time.
        var still = touches.frames
        for i in still.indices where i >= 11 { still[i].time = still[10].time }
        let reference = GesturePipeline(layout: Layout.standard(size: (300, 200), touchscreen: true))
        let expected = GestureRecorder(reference)
        for frame in still { reference.process(frame) }
        reference.finish()
        #expect(recorder.lines == expected.lines)
        #expect(recorder.lines.first?.contains("pan began") == true)
        #expect(recorder.lines.last?.contains("pan ended") == true)
        #expect(!recorder.lines.contains { $0.contains("nan") || $0.contains("inf") })
        #expect(recorder.gestures.map(\.time) == recorder.gestures.map(\.time).sorted())
        #expect(!pipeline.isTracking)
        #expect(pipeline.nextDeadline == nil)
    }

    /// In a recording, time going backwards is bad input: the decoder says where.
    @Test func aRecordingWhoseTimeGoesBackwardsIsReported() throws {
        var script = EventScript()
        script.frame(at: 2_000_000, [(0, true, false, 1000, 1000)])
        script.frame(at: 1_000_000, [(0, false, true, 0, 0)])
        #expect(throws: DecodeError.timeWentBackwards(previous: Instant(microseconds: 2_000_000), current: Instant(microseconds: 1_000_000))) {
            _ = try play(script.events, device: touchscreen(slots: 10))
        }
    }

    /// Found by the evemu fuzz target: a description whose ABS_MT_SLOT maximum is below its
    /// minimum claims slots and has none; a slot event is an error, not an index out of range.
    @Test func aSlotRangeThatHoldsNoSlot() throws {
        var script = EventScript()
        script.frame(at: 0, [(0, true, false, 1000, 1000)])
        #expect(throws: DecodeError.noSlots) {
            _ = try play(script.events, device: touchscreen(slots: 0))
        }
    }

    /// A 60-slot device with every slot in use: decoded, tracked, and released.
    @Test func sixtySlotsAllActive() throws {
        var script = EventScript()
        script.frame(at: 0, (0..<60).map { ($0, true, false, Int32(100 + ($0 % 10) * 280), Int32(100 + ($0 / 10) * 300)) })
        for step in 1...30 {
            script.frame(at: Int64(step) * 10_000,
                         (0..<60).map { ($0, false, false, Int32(100 + ($0 % 10) * 280), Int32(100 + ($0 / 10) * 300 + step * 10)) })
        }
        script.frame(at: 320_000, (0..<60).map { ($0, false, true, 0, 0) })
        var most = 0
        let device = touchscreen(slots: 60)
        let surface = TouchSurface(device: device)!
        var decoder = TouchDecoder(device: device, surface: surface)
        for e in script.events { try decoder.process(e) { most = max(most, $0.activeContactCount) } }
        #expect(most == 60)
        let (lines, pipeline) = try play(script.events, device: device)
        // The built-in layout's recognizers take at most 5 touches: 60 fingers are no gesture.
        #expect(lines == [])
        #expect(!pipeline.isTracking)
        #expect(pipeline.nextDeadline == nil)
    }

    /// 10,000 regions from a configuration: it loads, hit tests pick the right one, and a tap
    /// goes to it.
    @Test func tenThousandRegions() throws {
        var yaml = "layout:\n  id: screen\n  frame: [0, 0, 1000, 1000]\n  children:\n"
        for i in 0..<10_000 {
            let x = (i % 100) * 10, y = (i / 100) * 10
            yaml += "    - {id: b\(i), frame: [\(x), \(y), 8, 8], hit-insets: -0.5, gestures: [{kind: tap}]}\n"
        }
        let configuration = try Configuration.parse(yaml: yaml, path: "generated.yaml")
        let layout = configuration.makeLayout(rootSize: SurfaceSize(width: 1000, height: 1000)).layout
        #expect(layout.regions.count == 10_001)
        #expect(layout.hitTest(Point(x: 4, y: 4))?.id == "b0")
        #expect(layout.hitTest(Point(x: 994, y: 994))?.id == "b9999")
        #expect(layout.hitTest(Point(x: 538.2, y: 124))?.id == "b1253")  // in b1253's extension
        #expect(layout.hitTest(Point(x: 539, y: 125))?.id == "screen")  // between the extensions
        var touches = TouchScript()
        touches.tap(at: .zero, x: 534, y: 124)
        let pipeline = GesturePipeline(layout: layout)
        let recorder = GestureRecorder(pipeline)
        ManualClock(pipeline: pipeline).play(touches.frames)
        pipeline.finish()
        #expect(recorder.gestures.map { "\($0.kind) \($0.region)" } == ["tap b1253"])
    }

    /// A generated hour of use (`gestured-bench --hour-of-use`: a gesture every 2 s, in turn a
    /// tap, a drag and a pinch, decoded from kernel events) plays through; resident memory at
    /// the tenth minute and at the sixtieth is the same, and every gesture is there. Run as its
    /// own process: the other tests running alongside would move this one's memory.
    @Test func anHourOfUseKeepsMemoryFlat() throws {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gestured-bench").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/gestured-bench").path,
        ]
        let executable = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--hour-of-use"]
        // Under the address sanitizer (make sanitize), freed memory waits in a quarantine of up
        // to 256 MB before reuse: without it, memory is as flat there as anywhere.
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "quarantine_size_mb=0"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        print("an hour of use:", String(decoding: data, as: UTF8.self), terminator: "")
        #expect(result["hour_frames"] as? Int == 39_600)
        #expect(result["hour_gestures"] as? [String: Int] == [
            "tap recognized": 600, "pan began": 600, "pan ended": 600, "swipe recognized": 600,
            "pinch began": 600, "pinch ended": 600,
        ])
        let at10 = try #require(result["hour_rss_10min_kb"] as? Int)
        let atEnd = try #require(result["hour_rss_end_kb"] as? Int)
        #expect(atEnd - at10 < 1024, "grew \(atEnd - at10) kB over 50 minutes")
    }

    /// Every input that once crashed a fuzz target (fixtures/fuzz/TARGET/), and every fixture
    /// the fuzzer starts from, through the fuzz targets' own code.
    @Test(arguments: FuzzEntryPoints.names)
    func fuzzInputsAreHandled(target: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let entry = try #require(FuzzEntryPoints.entry(named: target))
        var inputs: [URL] = []
        let crashes = root.appendingPathComponent("fixtures/fuzz/\(target)")
        inputs += (try? FileManager.default.contentsOfDirectory(at: crashes, includingPropertiesForKeys: nil)) ?? []
        let seeds = switch target {
        case "libinput-record": ["fixtures/synthetic"]
        case "evemu": ["fixtures/recordings/evemu-devices/touchscreens"]
        case "configuration": ["examples"]
        case "client-message": ["examples/protocol"]
        default: [String]()
        }
        for folder in seeds {
            let url = root.appendingPathComponent(folder)
            inputs += try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent != "keyboard-typing.yaml" }  // 200 s of keys: slow, and no touch
                .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true }  // examples/ holds the Swift example too
        }
        #expect(target == "decoder" || !inputs.isEmpty)
        for input in inputs { entry(Array(try Data(contentsOf: input))) }
        // The decoder target on bytes that cover every device and event kind it makes.
        if target == "decoder" {
            var seed: UInt64 = 7
            for _ in 0..<200 {
                var bytes: [UInt8] = []
                for _ in 0..<(2 + 8 * 64) {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    bytes.append(UInt8(truncatingIfNeeded: seed >> 33))
                }
                entry(bytes)
            }
        }
    }
}
