#if canImport(Glibc)
import Glibc
#endif
import CAllocationCounter
import GestureRuntime
import GestureTesting
import Gestures
import Logging
import TouchEvents
import TouchInput
import TouchInputTesting

/// An owned device's twin writing into a pipe (drained by the benchmark, as the kernel takes a
/// uinput write): the kernel's `struct input_event` records of each frame in one `write(2)`,
/// from a buffer kept with its capacity.
final class PipeTwin: TwinOutput {
    let node = "/dev/input/bench-twin"
    let readEnd: Int32
    let writeEnd: Int32
    private var buffer = UnsafeMutableRawPointer.allocate(byteCount: 24 * 512, alignment: 8)
    private var capacity = 512
    var writes = 0

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
        buffer.deallocate()
    }

    func write(_ events: [InputEvent]) throws(InputError) {
        if events.count > capacity {
            buffer.deallocate()
            capacity = events.count
            buffer = .allocate(byteCount: 24 * capacity, alignment: 8)
        }
        // struct input_event on 64-bit Linux: a timeval (16 bytes; uinput ignores it), type,
        // code, value.
        for (i, e) in events.enumerated() {
            let record = buffer + i * 24
            record.storeBytes(of: 0, toByteOffset: 0, as: Int64.self)
            record.storeBytes(of: 0, toByteOffset: 8, as: Int64.self)
            record.storeBytes(of: e.type, toByteOffset: 16, as: UInt16.self)
            record.storeBytes(of: e.code, toByteOffset: 18, as: UInt16.self)
            record.storeBytes(of: e.value, toByteOffset: 20, as: Int32.self)
        }
        _ = Glibc.write(writeEnd, buffer, 24 * events.count)
        writes += 1
    }

    /// Empties the pipe.
    func drain() {
        var sink = [UInt8](repeating: 0, count: 65536)
        while sink.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// Kernel frames of `sequences` drags of `contacts` fingers on ``device``: each lands, moves
/// for 60 frames of 8 ms (every finger every frame) and lifts; 400 ms between them.
func ownedDragEvents(contacts: Int, sequences: Int) -> [InputEvent] {
    var events: [InputEvent] = []
    var time = Instant.zero
    var tracking: Int32 = 0
    func add(_ type: UInt16, _ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: type, code: code, value: value)) }
    for sequence in 0..<sequences {
        for step in 0...61 {
            for i in 0..<contacts {
                add(EventType.abs, AbsCode.mtSlot, Int32(i))
                if step == 0 {
                    tracking += 1
                    add(EventType.abs, AbsCode.mtTrackingID, tracking)
                } else if step == 61 {
                    add(EventType.abs, AbsCode.mtTrackingID, -1)
                    continue
                }
                add(EventType.abs, AbsCode.mtPositionX, Int32(200 + i * 250 + step * 8))
                add(EventType.abs, AbsCode.mtPositionY, Int32(400 + step * 12 + sequence % 7))
            }
            if step == 0 { add(EventType.key, KeyCode.touch, 1) }
            if step == 61 { add(EventType.key, KeyCode.touch, 0) }
            add(EventType.syn, SynCode.report, 0)
            time += .milliseconds(8)
        }
        time += .milliseconds(400)
    }
    return events
}

/// Microseconds per frame of the live read path, owned and not: a frame written into a pipe
/// device, one turn of the runtime's loop (epoll_wait, read, decode, recognize, deliver) and,
/// owned, the frame's events through the twin filter and written to the twin (a pipe) in one
/// `write(2)`. The built-in layout, whose gestures own nothing: every frame passes. For 1, 5
/// and 10 contacts: (p50, p99) shared and owned.
func ownedReadPath() -> [(contacts: Int, shared: (Double, Double), owned: (Double, Double), twinWrites: Int)] {
    var results: [(Int, (Double, Double), (Double, Double), Int)] = []
    for contacts in [1, 5, 10] {
        let events = ownedDragEvents(contacts: contacts, sequences: 60)
        var figures: [(Double, Double)] = []
        var writes = 0
        for owned in [false, true] {
            let clock = ManualClock()
            let monitor = ManualDeviceMonitor()
            let twin = PipeTwin()
            var times: [Double] = []
            times.reserveCapacity(4000)
            do {
                let pipe = try PipeTouchDevice(node: "/dev/input/bench", description: device)
                let runtime = try GestureRuntime(source: .standard, clock: clock, logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }) { monitor }
                if owned {
                    runtime.ownership = TouchOwnership()
                    runtime.makeTwin = { _, _ throws(InputError) in twin }
                }
                monitor.plugIn(pipe)
                try runtime.start()
                var frame: [InputEvent] = []
                for e in events {
                    frame.append(e)
                    guard e.isReport else { continue }
                    clock.advance(to: e.time)
                    let start = now()
                    pipe.write(frame)
                    runtime.runOnce(timeout: 0)
                    times.append(now() - start)
                    frame.removeAll(keepingCapacity: true)
                    twin.drain()
                }
                runtime.shutdown()
            } catch {
                print("error: \(error)")
                exit(1)
            }
            times.sort()
            func at(_ p: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * p))] * 1e6 }
            figures.append((at(0.5), at(0.99)))
            if owned { writes = twin.writes }
        }
        results.append((contacts, figures[0], figures[1], writes))
    }
    return results
}

/// Heap allocations per frame of the twin filter alone (``TwinFilter``: a frame's events in,
/// the twin's out) in steady state, for drags of 1, 5 and 10 fingers that pass.
func twinFilterAllocationsPerFrame() -> [(contacts: Int, allocations: Double)] {
    var results: [(Int, Double)] = []
    for contacts in [1, 5, 10] {
        let events = ownedDragEvents(contacts: contacts, sequences: 40)
        var filter = TwinFilter(description: device)!
        var written = 0
        let warmUp = events.count / 4
        for e in events[..<warmUp] {
            filter.add(e)
            if e.isReport { written &+= filter.endFrame().count }
        }
        var frames = 0
        gestured_allocations_start()
        for e in events[warmUp...] {
            filter.add(e)
            if e.isReport {
                written &+= filter.endFrame().count
                frames += 1
            }
        }
        gestured_allocations_stop()
        precondition(written > 0)
        results.append((contacts, Double(gestured_allocations_count()) / Double(frames)))
    }
    return results
}
