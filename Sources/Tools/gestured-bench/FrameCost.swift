// `--frame-cost LAYOUT [RECORDING]`: the live part of gestured — decoding plus the gesture
// pipeline, as `gestured run` has them (a device session, a gesture observer and nothing
// else) — over a recording read into memory first, for counting its instructions under
// callgrind (`scripts/frame-cost.sh`, part of `make bench`). Only `playLivePart` is counted
// (`--toggle-collect`), so reading the file and building the layout are left out.
#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import Foundation
import GestureRuntime
import Gestures
import TouchEvents
import TouchInput
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

    func layout(width: Double, height: Double, touchscreen: Bool) -> Layout {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: width, height: height))
        switch self {
        case .every:
            return .standard(size: (width, height), touchscreen: touchscreen)
        case .swipes:
            for touches in 1...5 { root.add(SwipeRecognizer(directions: Set(SwipeDirection.allCases), touches: touches)) }
        case .none, .decode, .mirror, .libevdev:
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
        }
        let frames = events.count { $0.isReport }
        print("{\"layout\": \"\(name)\", \"frames\": \(frames), \"events\": \(events.count), \"gestures\": \(gestures)}")
        exit(0)
    } catch {
        fail("\(error)")
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
