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
    /// Where to write the recording as played: the events every reader of the device got, as
    /// the kernel delivered them (without the values it filtered as unchanged) and with the
    /// times it stamped them with, read back from the device after each frame is written.
    /// Its replay is what a reader of the device should recognize, however late the player
    /// wrote (a player that stalls writes the frames it owes together, and the kernel stamps
    /// them together). Nil: nothing read back.
    public var asPlayedPath: String?

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
        if let asPlayedPath, let problem = FileStatus.cannotCreate(at: asPlayedPath) {
            output.warn("\(asPlayedPath): cannot write the recording as played there: \(problem)\n")
            return CommandStatus.badInput
        }
        // What the log says already does not count: a device made again may get the same node.
        let logStart = waitForLog.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }?.utf8.count ?? 0
        do throws(InputError) {
            let uinput = try UInputDevice(description: device.description)
            output.warn("\(uinput.node): \(device.description.name)\n")
            try waitUntilReady(uinput.node, logStart: logStart)
            // Opened before the first frame is written: it reads every event the kernel passes on.
            let readBack = try asPlayedPath.map { _ throws(InputError) in try EventReadBack(path: uinput.node) }
            var played: [InputEvent] = []
            let (frames, latest) = try play(device.events, into: uinput, readBack: readBack, played: &played, output: &output)
            let seconds = (device.events.last?.time ?? .zero) - (device.events.first?.time ?? .zero)
            var said = "played \(frames) frames in \(formatDecimal(seconds.inSeconds / speed, places: 1)) s; "
                + "the latest was written \(formatDecimal(latest.inMilliseconds, places: 1)) ms after its time"
            if let asPlayedPath, let readBack {
                let stamped = try writeAsPlayed(played, of: device, node: uinput.node, readBack: readBack, frames: frames, to: asPlayedPath)
                said += "; as played (\(stamped.frames) frames as the kernel stamped them, the latest "
                    + "\(formatDecimal(stamped.latest.inMilliseconds, places: 1)) ms after its time): \(asPlayedPath)"
            }
            output.warn(said + "\n")
            sleepMilliseconds(lingerMilliseconds)
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }

    /// Writes `played` (what was read back) as `libinput record` YAML with the recording's
    /// description; returns how many frames it holds and how late the kernel stamped the
    /// latest of them against the recording's timing (from the first frame's stamp).
    private func writeAsPlayed(_ played: [InputEvent], of device: RecordedDevice, node: String, readBack: EventReadBack,
                               frames: Int, to path: String) throws(InputError) -> (frames: Int, latest: Duration) {
        guard !readBack.droppedByKernel else {
            throw InputError(path: node, message: "reading the device back, the kernel dropped events (SYN_DROPPED): "
                + "the recording as played would not be what was played")
        }
        let reports = played.filter(\.isReport)
        if frames > 0 && reports.isEmpty {
            throw InputError(path: node, message: "nothing could be read back from the device: "
                + "another reader holds it grabbed (a service that owns it); play without --as-played")
        }
        let recorded = RecordedDevice(description: device.description, events: played, eventLines: [], node: node)
        do throws(RecordingError) {
            try writeFileAtomically(LibinputRecordWriter(playedFrom: recordingPath).yaml(for: recorded), to: path)
        } catch {
            throw InputError(path: path, message: "cannot write the recording as played: \(error)")
        }
        return (reports.count, stampedLateness(played, against: device.events))
    }

    /// How much later than the recording's timing (scaled by ``speed``) the kernel stamped
    /// the latest frame, each frame's stamp taken from the first's. A frame the kernel passed
    /// on is matched to the recorded frame it came from by order; the kernel passes on no
    /// frame whose values are all unchanged, so a recorded frame with no counterpart is
    /// skipped when the next stamped frame's events are not all in it.
    func stampedLateness(_ played: [InputEvent], against recorded: [InputEvent]) -> Duration {
        let recordedFrames = Self.frames(recorded)
        let playedFrames = Self.frames(played)
        guard let firstPlayed = playedFrames.first, let firstRecorded = recordedFrames.first else { return .zero }
        var latest = Duration.zero
        var r = 0
        for frame in playedFrames {
            while r < recordedFrames.count && !Self.passed(frame.events, from: recordedFrames[r].events) { r += 1 }
            guard r < recordedFrames.count else { break }
            let due = Int64((Double((recordedFrames[r].time - firstRecorded.time).inMicroseconds) / speed).rounded())
            latest = max(latest, .microseconds((frame.time - firstPlayed.time).inMicroseconds - due))
            r += 1
        }
        return latest
    }

    private static func frames(_ events: [InputEvent]) -> [(time: Instant, events: [InputEvent])] {
        var frames: [(time: Instant, events: [InputEvent])] = []
        var current: [InputEvent] = []
        for e in events {
            current.append(e)
            if e.isReport {
                frames.append((e.time, current))
                current.removeAll(keepingCapacity: true)
            }
        }
        return frames
    }

    /// Whether the kernel could have passed on `stamped` for `written`: the same events in the
    /// same order, some left out.
    private static func passed(_ stamped: [InputEvent], from written: [InputEvent]) -> Bool {
        var w = written.makeIterator()
        outer: for e in stamped {
            while let candidate = w.next() {
                if candidate.type == e.type && candidate.code == e.code && candidate.value == e.value { continue outer }
            }
            return false
        }
        return true
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
    private func play(_ events: [InputEvent], into device: UInputDevice, readBack: EventReadBack?, played: inout [InputEvent],
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
            // The kernel has passed the frame on by now (a write delivers it to every reader).
            try readBack?.readPending(into: &played)
            frames += 1
            frame.removeAll(keepingCapacity: true)
        }
        if !frame.isEmpty {
            try device.write(frame)
            try readBack?.readPending(into: &played)
        }
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
