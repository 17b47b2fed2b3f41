// `--frame-cost LAYOUT [RECORDING]`: the live part of gestured — decoding plus the gesture
// pipeline, as `gestured run` has them (a device session, a gesture observer and nothing
// else) — over a recording read into memory first, for counting its instructions under
// callgrind (`scripts/frame-cost.sh`, part of `make bench`). Only `playLivePart` is counted
// (`--toggle-collect`), so reading the file and building the layout are left out.
#if canImport(Glibc)
import Glibc
#endif
import CAllocationCounter
import CLibevdev
import Foundation
import GestureRuntime
import GestureService
import GestureTesting
import Gestures
import Logging
import TouchEvents
import TouchInput
import TouchInputTesting
import TouchRecordings

/// The layouts whose frame cost `make bench` reports, each a root region the size of the surface.
enum FrameCostLayout: String, CaseIterable {
    /// The built-in layout: every gesture kind (`Layout.standard`).
    case every
    /// Swipes of 1 to 5 fingers in 8 directions, and nothing else: lisgd's job.
    case swipes
    /// A root region with no gesture: what decoding and the pipeline cost by themselves.
    case none
    /// The decoder alone, each frame handed to nothing: the decoding phase of the others.
    case decode
    /// What only a kernel device adds before decoding: the device's state kept event by event
    /// for a resynchronization after `SYN_DROPPED` (``EvdevStateMirror``), on a libevdev device
    /// made from the recording's description.
    case mirror
    /// The same state kept by libevdev itself (`libevdev_set_event_value` for every key and
    /// axis event): what `EvdevDevice` did before the mirror.
    case libevdev
    /// The whole turn of `gestured run --no-socket`'s loop per frame, with every kind (the
    /// built-in layout): a `GestureService` reading a pipe device (a frame written, one turn of
    /// the loop: epoll, the device read, decoder, pipeline, the service's gesture routing and
    /// its work at the end of every turn). What the service adds around decode + pipeline.
    case service
    /// The same with swipes of 1 to 5 fingers in 8 directions only (a configuration of those).
    case serviceSwipes = "service-swipes"

    func layout(width: Double, height: Double, touchscreen: Bool) -> Layout {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: width, height: height))
        switch self {
        case .every:
            return .standard(size: (width, height), touchscreen: touchscreen)
        case .swipes:
            for touches in 1...5 { root.add(SwipeRecognizer(directions: Set(SwipeDirection.allCases), touches: touches)) }
        case .none, .decode, .mirror, .libevdev, .service, .serviceSwipes:
            break
        }
        return Layout(root: root)
    }
}

/// Reads `path`, plays it as `layout` asks and prints `{"frames": N, "events": N, "gestures": N}`.
func frameCost(layout name: String, path: String) -> Never {
    guard let kind = FrameCostLayout(rawValue: name) else {
        fail("--frame-cost takes \(FrameCostLayout.allCases.map(\.rawValue).joined(separator: ", ")), not \(name)", status: 2)
    }
    do {
        let recording = try Recording.load(path: path)
        let device = try recording.device(nil)
        var events: [InputEvent] = []
        try device.forEachEvent(path: path) { events.append($0) }
        guard let surface = TouchSurface(device: device.description) else { fail("\(path): the device reports no position axes") }
        let layout = kind.layout(width: surface.size.width, height: surface.size.height,
                                 touchscreen: device.description.kind == .touchscreen)
        let session = try DeviceSession(device: device.description, layout: layout)
        var gestures = 0
        session.pipeline.observer = { _ in gestures += 1 }
        switch kind {
        case .decode:
            var decoder = TouchDecoder(device: device.description, surface: surface)
            decodeOnly(&decoder, events)
        case .mirror:
            let handle = try LibevdevHandle(description: device.description)
            mirrorOnly(EvdevStateMirror(of: handle.pointer), events)
        case .libevdev:
            let handle = try LibevdevHandle(description: device.description)
            libevdevMirrorOnly(handle.pointer, events)
        case .every, .swipes, .none:
            playLivePart(session, events)
        case .service, .serviceSwipes:
            gestures = try serviceTurns(device: device.description, events: events, swipesOnly: kind == .serviceSwipes)
        }
        let frames = events.count { $0.isReport }
        print("{\"layout\": \"\(name)\", \"frames\": \(frames), \"events\": \(events.count), \"gestures\": \(gestures)}")
        exit(0)
    } catch {
        fail("\(error)")
    }
}

/// A `GestureService` as `gestured run --no-socket` has it (the built-in layout, or swipes of 1
/// to 5 fingers in 8 directions only), on a pipe device with a manual clock, the device taken
/// in; and `events` as the frames the kernel would hand over, encoded.
struct ServiceBench {
    let service: GestureService
    let clock = ManualClock()
    let pipe: PipeTouchDevice
    let frames: [(time: Instant, bytes: [UInt8])]
    private let monitor = ManualDeviceMonitor()
    private var folder: String?

    init(device: DeviceDescription, events: [InputEvent], swipesOnly: Bool) throws {
        var options = GestureService.Options()
        options.noSocket = true
        if swipesOnly {
            var template = Array("/tmp/gestured-bench-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { fail("mkdtemp failed") }
            folder = String(cString: made)
            var yaml = "layout:\n  id: root\n  gestures:\n"
            for touches in 1...5 {
                yaml += "    - {kind: swipe, touches: \(touches), directions: [left, right, up, down, up-left, up-right, down-left, down-right]}\n"
            }
            try writeFileAtomically(yaml, to: folder! + "/swipes.yaml")
            options.configPath = folder! + "/swipes.yaml"
        }
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        service = try GestureService(options: options, monitor: monitor, clock: clock, logger: logger) { _ in }
        pipe = try PipeTouchDevice(node: "/dev/input/bench", description: device)
        monitor.plugIn(pipe)
        try service.start()
        service.runOnce(timeout: 0)  // the device taken in
        var frames: [(time: Instant, bytes: [UInt8])] = []
        var frame: [InputEvent] = []
        for e in events {
            frame.append(e)
            guard e.isReport else { continue }
            frames.append((e.time, KernelInputEvents.encode(frame)))
            frame.removeAll(keepingCapacity: true)
        }
        self.frames = frames
    }

    /// The service stops and the configuration written goes.
    func finish() {
        service.shutdown()
        if let folder {
            unlink(folder + "/swipes.yaml")
            rmdir(folder)
        }
    }
}

/// Runs `events` through a ``ServiceBench``, counted in ``playServiceTurns(_:_:_:_:)``. Returns
/// the gesture events the service saw.
func serviceTurns(device: DeviceDescription, events: [InputEvent], swipesOnly: Bool) throws -> Int {
    let bench = try ServiceBench(device: device, events: events, swipesOnly: swipesOnly)
    var gestures = 0
    bench.service.observer = { _ in gestures += 1 }
    playServiceTurns(bench.service, bench.clock, bench.pipe.writeDescriptor, bench.frames[...])
    bench.finish()
    return gestures
}

/// Heap allocations per frame of the service's whole turn (the built-in layout, a pipe device;
/// the first fifth of the frames warm up, the rest are counted): what `gestured run` allocates
/// for a frame besides the kernel's part.
func serviceAllocationsPerFrame(device: DeviceDescription, events: [InputEvent]) throws -> Double {
    let bench = try ServiceBench(device: device, events: events, swipesOnly: false)
    let warmUp = bench.frames.count / 5
    playServiceTurns(bench.service, bench.clock, bench.pipe.writeDescriptor, bench.frames[..<warmUp])
    gestured_allocations_start()
    playServiceTurns(bench.service, bench.clock, bench.pipe.writeDescriptor, bench.frames[warmUp...])
    gestured_allocations_stop()
    bench.finish()
    return Double(gestured_allocations_count()) / Double(bench.frames.count - warmUp)
}

/// The counted part of `service`: each frame written into the pipe (one `write(2)`) and one
/// turn of the service's loop.
@inline(never)
func playServiceTurns(_ service: GestureService, _ clock: ManualClock, _ fd: Int32, _ frames: ArraySlice<(time: Instant, bytes: [UInt8])>) {
    for frame in frames {
        if frame.time > clock.now { clock.advance(to: frame.time) }
        let written = frame.bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        precondition(written == frame.bytes.count, "the pipe took part of a frame")
        service.runOnce(timeout: 0)
    }
}

/// The counted part: every event through the session (decoder → pipeline → observer), then
/// its end (contacts still down cancelled, deadlines fired).
@inline(never)
func playLivePart(_ session: DeviceSession, _ events: [InputEvent]) {
    do {
        for e in events { try session.process(e) }
    } catch {
        fail("\(error)")
    }
    session.finish()
}

/// The counted part of `decode`: every event through a decoder whose frames go nowhere.
@inline(never)
func decodeOnly(_ decoder: inout TouchDecoder, _ events: [InputEvent]) {
    do {
        for e in events { try decoder.process(e) { blackHole($0) } }
    } catch {
        fail("\(error)")
    }
}

/// The counted part of `mirror`: every event into the state mirrored for a resynchronization.
@inline(never)
func mirrorOnly(_ mirror: EvdevStateMirror, _ events: [InputEvent]) {
    for e in events { mirror.apply(type: e.type, code: e.code, value: e.value) }
}

/// The counted part of `libevdev`: every key and axis event set on libevdev's own mirror, as
/// `EvdevDevice` read them before ``EvdevStateMirror``.
@inline(never)
func libevdevMirrorOnly(_ device: OpaquePointer, _ events: [InputEvent]) {
    for e in events where e.type == UInt16(EV_ABS) || e.type == UInt16(EV_KEY) {
        _ = libevdev_set_event_value(device, UInt32(e.type), UInt32(e.code), e.value)
    }
}

@inline(never)
func blackHole(_ frame: TouchFrame) {}

/// Prints `gestured-bench: message` on stderr and exits.
func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("gestured-bench: \(message)\n".utf8))
    exit(status)
}
