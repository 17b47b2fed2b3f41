#if canImport(Glibc)
import Glibc
#endif
import Gestures
import SystemLoop
import TouchEvents
import TouchInput
import TouchRecordings

/// `gestured record DEVICE`: reads a live device through libevdev until Ctrl-C, the
/// duration, or the device going away, and writes what it read as `libinput record` YAML v1
/// (description, current axis values, every event) — a file `gestured replay` and
/// `libinput replay` both play.
public struct RecordRunner {
    /// A node (`/dev/input/event5`), or part of a touch device's name (`maXTouch`).
    public var device: String
    /// The YAML file to write; nil for standard output.
    public var outputPath: String?
    /// Stop after this many seconds.
    public var durationSeconds: Double?
    /// Show a running count of events on stderr (on a terminal, by default).
    public var showsProgress = isatty(2) == 1
    /// Stop on SIGINT and SIGTERM and still write the file (off in tests, which must not
    /// block the test process's signals).
    public var handlesSignals = true
    /// Opens the device: the live node by default, a pipe in tests.
    public var open: (String) throws(InputError) -> any TouchDevice = { node throws(InputError) in try EvdevDevice(path: node) }
    /// Finds a device by name: udev by default.
    public var inventory: () throws(InputError) -> [TouchDeviceInfo] = TouchDeviceInventory.list

    public init(device: String, outputPath: String? = nil, durationSeconds: Double? = nil) {
        self.device = device
        self.outputPath = outputPath
        self.durationSeconds = durationSeconds
    }

    /// 0 when the recording was written; 2 when the device or output could not be used.
    public func run(output: inout some CommandOutput) -> Int32 {
        if let outputPath, let problem = cannotWrite(outputPath) {
            output.warn("\(outputPath): \(problem)\n")
            return CommandStatus.badInput
        }
        do throws(InputError) {
            let node = try resolve(device)
            let source = try open(node)
            let description = source.description
            if !description.isTouchDevice {
                output.warn("warning: \(node) (\"\(description.name)\") is not a touchscreen or touchpad; "
                    + "recording it anyway, but gestured will find no gestures in it\n")
            }
            let until = durationSeconds.map { "for \(formatDecimal($0, places: 1)) s or until Ctrl-C" } ?? "until Ctrl-C"
            output.warn("recording \(node): \(description.name), \(until)\n")
            let (events, why) = try record(source, output: &output)
            var recorded = RecordedDevice(description: description, events: completeFrames(events), eventLines: [], node: node)
            if recorded.description.udevProperties.isEmpty {
                recorded.description.udevProperties = TouchDeviceInventory.udevProperties(node: node)
            }
            let yaml = LibinputRecordWriter(recordedFrom: node, kernel: kernelRelease()).yaml(for: recorded)
            let frames = recorded.events.filter { $0.type == EventType.syn && $0.code == 0 }.count
            if let outputPath {
                do throws(RecordingError) {
                    try writeFileAtomically(yaml, to: outputPath)
                } catch {
                    output.warn("\(error)\n")
                    return CommandStatus.badInput
                }
                output.warn("\(why): wrote \(outputPath): \(recorded.events.count) events in \(frames) frames"
                    + (frames == 0 ? " (nothing happened on the device: touch it while recording)" : "")
                    + ". Play it with: gestured replay \(outputPath)\n")
            } else {
                output.write(yaml)
                output.warn("\(why): \(recorded.events.count) events in \(frames) frames\n")
            }
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }

    /// Reads until a signal, the deadline, or the device going away; says which.
    private func record(_ source: any TouchDevice, output: inout some CommandOutput) throws(InputError) -> ([InputEvent], String) {
        let loop: EventLoop
        do throws(SystemError) {
            loop = try EventLoop()
            if handlesSignals { try loop.handleSignals([.interrupt, .terminate]) }
        } catch {
            throw InputError(path: error.path, message: error.message)
        }
        loop.watch(source.fileDescriptor)
        let start = MonotonicClock.now
        if let durationSeconds { loop.setDeadline(start + .seconds(durationSeconds)) }
        var events: [InputEvent] = []
        var shown = Instant.zero
        defer { if showsProgress && shown > .zero { output.warn("\n") } }
        while true {
            for event in loop.wait(timeout: -1) {
                switch event {
                case .readable(let fd), .hangup(let fd):
                    guard fd == source.fileDescriptor else { continue }
                    if try !source.readPending({ events.append($0) }) { return (events, "the device went away") }
                case .timer:
                    return (events, "\(formatDecimal(durationSeconds ?? 0, places: 1)) s passed")
                case .signal(let signal):
                    return (events, signal == .interrupt ? "stopped" : "stopped by signal \(signal.number)")
                case .writable, .wakeUp:
                    continue
                }
            }
            // A running count, at most five times a second.
            let now = MonotonicClock.now
            if showsProgress && now - shown >= .milliseconds(200) {
                shown = now
                output.warn("\r\(events.count) events, \(formatDecimal((now - start).inSeconds, places: 1)) s — Ctrl-C to stop  ")
            }
        }
    }

    /// Drops events after the last `SYN_REPORT`: a frame cut off by the stop is not a frame.
    private func completeFrames(_ events: [InputEvent]) -> [InputEvent] {
        guard let last = events.lastIndex(where: { $0.type == EventType.syn && $0.code == 0 }) else { return [] }
        return Array(events[...last])
    }

    /// The node for `name`: itself when it is a path, else the one touch device whose name
    /// contains it.
    func resolve(_ name: String) throws(InputError) -> String {
        if name.hasPrefix("/") { return name }
        let devices = try inventory()
        let matches = devices.filter { $0.name.lowercased().contains(name.lowercased()) }
        let known = devices.map { "\($0.node) (\($0.name))" }.joined(separator: ", ")
        switch matches.count {
        case 1:
            return matches[0].node
        case 0:
            throw InputError(path: name, message: devices.isEmpty
                ? "no touchscreen or touchpad found; `gestured devices` lists them"
                : "no touch device's name contains this; there are: \(known)")
        default:
            throw InputError(path: name, message: "several touch devices match: "
                + matches.map { "\($0.node) (\($0.name))" }.joined(separator: ", ") + "; give the node")
        }
    }

    private func cannotWrite(_ path: String) -> String? {
        FileStatus.cannotCreate(at: path).map { "cannot write here: \($0) (choose another -o)" }
    }

    private func kernelRelease() -> String? {
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        return withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }

}
