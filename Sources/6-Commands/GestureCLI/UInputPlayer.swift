#if canImport(Glibc)
import Glibc
#endif
import Gestures
import SystemLoop
import TouchEvents
import TouchInput
import TouchRecordings

/// `gestured replay RECORDING --uinput`: makes a virtual device like the recorded one, waits
/// until it is ready, plays the events with their original timing (or scaled), and removes it.
public struct UInputPlayer: Sendable {
    public var recordingPath: String
    public var descPath: String?
    public var deviceIndex: Int?
    /// 2 plays twice as fast.
    public var speed: Double = 1
    /// Wait, before playing, until this file (a reader's log) mentions the new node in what it
    /// gains after the device is made.
    public var waitForLog: String?
    /// Milliseconds to keep the device after the last event: a reader loses what it has not
    /// read when a device goes away, and may still be waiting (a double-tap window).
    public var lingerMilliseconds: Double = 1000
    /// Seconds to wait for the device to be ready.
    public var readyTimeout: Double = 30
    /// Show how far the playback is on stderr (on a terminal, by default).
    public var showsProgress = isatty(2) == 1

    public init(recordingPath: String) {
        self.recordingPath = recordingPath
    }

    public func run(output: inout some CommandOutput) -> Int32 {
        let device: RecordedDevice
        do throws(RecordingError) {
            device = try Recording.load(path: recordingPath, descPath: descPath).device(deviceIndex)
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
        // What the log says already does not count: a device made again may get the same node.
        let logStart = waitForLog.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }?.utf8.count ?? 0
        do throws(InputError) {
            let uinput = try UInputDevice(description: device.description)
            output.warn("\(uinput.node): \(device.description.name)\n")
            try waitUntilReady(uinput.node, logStart: logStart)
            let (frames, latest) = try play(device.events, into: uinput, output: &output)
            let seconds = (device.events.last?.time ?? .zero) - (device.events.first?.time ?? .zero)
            output.warn("played \(frames) frames in \(formatDecimal(seconds.inSeconds / speed, places: 1)) s; "
                + "the latest was written \(formatDecimal(latest.inMilliseconds, places: 1)) ms after its time\n")
            sleepMilliseconds(lingerMilliseconds)
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }

    private func waitUntilReady(_ node: String, logStart: Int) throws(InputError) {
        let start = MonotonicClock.now
        func timedOut() -> Bool { (MonotonicClock.now - start).inSeconds > readyTimeout }
        // The node exists and udev has given it its properties (its database entry).
        var st = stat()
        while stat(node, &st) != 0 || access("/run/udev/data/c\(major(st.st_rdev)):\(minor(st.st_rdev))", F_OK) != 0 {
            if timedOut() { throw InputError(path: node, message: "the virtual device did not appear within \(Int(readyTimeout)) s") }
            sleepMilliseconds(10)
        }
        guard let log = waitForLog else { return }
        while true {
            // What the log gained since the start; all of it once it is shorter than it was
            // (written afresh: a reader started again, with `>`).
            if let text = try? String(contentsOfFile: log, encoding: .utf8),
               String(decoding: text.utf8.dropFirst(text.utf8.count < logStart ? 0 : logStart), as: UTF8.self).contains(node) { return }
            if timedOut() { throw InputError(path: node, message: "\(log) did not mention the device within \(Int(readyTimeout)) s") }
            sleepMilliseconds(10)
        }
    }

    /// Writes each frame whole at its offset from the start (scaled by ``speed``), so lateness
    /// never adds up; returns how many frames it wrote and how late the latest was (``run(output:)``
    /// says so on stderr: `played 412 frames in 4.1 s; the latest was written 5.0 ms after its time`).
    private func play(_ events: [InputEvent], into device: UInputDevice,
                      output: inout some CommandOutput) throws(InputError) -> (frames: Int, latest: Duration) {
        guard let first = events.first?.time, let last = events.last?.time else { return (0, .zero) }
        let start = MonotonicClock.now
        var frame: [InputEvent] = []
        var shown = Instant.zero
        var frames = 0
        var latest = Duration.zero
        defer { if showsProgress && shown > .zero { output.warn("\n") } }
        let total = formatDecimal((last - first).inSeconds, places: 1)
        for e in events {
            frame.append(e)
            guard e.isReport else { continue }
            // Where the playback is, at most five times a second.
            if showsProgress, MonotonicClock.now - shown >= .milliseconds(200) {
                shown = MonotonicClock.now
                output.warn("\rplaying \(formatDecimal((e.time - first).inSeconds, places: 1)) of \(total) s  ")
            }
            let due = start + (e.time - first) / speed
            let wait = due - MonotonicClock.now
            if wait > .zero { sleepMilliseconds(wait.inMilliseconds) }
            latest = max(latest, MonotonicClock.now - due)
            try device.write(frame)
            frames += 1
            frame.removeAll(keepingCapacity: true)
        }
        if !frame.isEmpty { try device.write(frame) }
        return (frames, latest)
    }


    private func major(_ dev: dev_t) -> UInt32 { UInt32((dev >> 8) & 0xfff) | UInt32((dev >> 32) & ~0xfff) }
    private func minor(_ dev: dev_t) -> UInt32 { UInt32(dev & 0xff) | UInt32((dev >> 12) & ~0xff) }

    private func sleepMilliseconds(_ ms: Double) {
        guard ms > 0 else { return }
        var request = timespec(tv_sec: Int(ms / 1000), tv_nsec: Int((ms.truncatingRemainder(dividingBy: 1000)) * 1_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
