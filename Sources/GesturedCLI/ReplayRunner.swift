import Logging
import TouchEvents
import TouchRecordings

/// `gestured replay`: reads a recording and decodes it through the same decoder the live
/// service uses.
public struct ReplayRunner: Sendable {
    public enum Mode: Sendable {
        /// A description of the device and counts of what was decoded.
        case summary
        /// One line per decoded frame.
        case frames
        /// One JSON object per decoded frame.
        case framesJSON
    }

    public var recordingPath: String
    public var descPath: String?
    public var deviceIndex: Int?
    public var size: SurfaceSize?
    public var mode: Mode
    /// Says at debug level how the recording was read (format, description file, scale).
    public var logger: Logger

    public init(
        recordingPath: String, descPath: String? = nil, deviceIndex: Int? = nil, size: SurfaceSize? = nil, mode: Mode,
        logger: Logger = Logger(label: "gestured.replay", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.recordingPath = recordingPath
        self.descPath = descPath
        self.deviceIndex = deviceIndex
        self.size = size
        self.mode = mode
        self.logger = logger
    }

    /// Runs the replay; returns the exit status (2 for bad input, after a `FILE:LINE:` message).
    public func run(output: inout some CommandOutput) -> Int32 {
        do throws(RecordingError) {
            let recording = try Recording.load(path: recordingPath, descPath: descPath)
            logger.debug("read recording", metadata: [
                "format": "\(recording.format.rawValue)", "devices": "\(recording.devices.count)",
                "description": "\(recording.descriptionPath ?? "in the file")",
            ])
            let device = try recording.device(deviceIndex)
            let description = device.description
            guard description.isTouchDevice else {
                throw RecordingError(path: recordingPath, line: 0, message:
                    "\"\(description.name)\" is not a touchscreen or touchpad; choose a touch device with --device N")
            }
            guard let surface = TouchSurface(device: description, size: size) else {
                throw RecordingError(path: recordingPath, line: 0, message: "\"\(description.name)\" has no position axes")
            }
            logger.debug("surface", metadata: [
                "device": "\(description.name)", "kind": "\(description.kind)", "protocol": "\(description.touchProtocol)",
                "size_mm": "\(surface.size)", "size_from": "\(surface.sizeSource.rawValue)",
                "units_per_mm": "\(formatDecimal(surface.xUnitsPerMillimetre, places: 3))x\(formatDecimal(surface.yUnitsPerMillimetre, places: 3))",
            ])
            if surface.sizeSource == .assumed {
                output.warn(Self.assumedSizeWarning(description, surface))
            }
            if device.events.isEmpty {
                output.warn("\(recordingPath): warning: the recording has no events\n")
            }
            let formatter = FrameFormatter(origin: device.firstEventTime)
            var stats = Statistics()
            try device.decodeFrames(surface: surface, path: recordingPath) { frame in
                stats.add(frame)
                switch mode {
                case .summary: break
                case .frames: output.write(formatter.readable(frame))
                case .framesJSON: output.write(formatter.json(frame))
                }
            }
            if mode == .summary {
                output.write(summary(recording, device, surface, stats))
            }
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }

    static func assumedSizeWarning(_ d: DeviceDescription, _ s: TouchSurface) -> String {
        let assumption = d.kind == .touchpad
            ? "assuming a typical touchpad, \(s.size)"
            : "assuming 96 dpi (\(formatDecimal(TouchSurface.assumedUnitsPerMillimetre, places: 2)) units/mm): \(s.size)"
        return "warning: \"\(d.name)\" reports no resolution, so its size is unknown; \(assumption). "
            + "Give the real size with --size WIDTHxHEIGHT (millimetres).\n"
    }

    struct Statistics {
        var frames = 0
        var contacts = Set<Int>()
        var maximumFingers = 0
        var cancelled = 0
        var first: Int64?
        var last: Int64 = 0

        mutating func add(_ frame: TouchFrame) {
            frames += 1
            if first == nil { first = frame.time }
            last = frame.time
            maximumFingers = max(maximumFingers, frame.fingerCount)
            for c in frame.contacts {
                contacts.insert(c.id)
                if c.phase == .cancelled { cancelled += 1 }
            }
        }
    }

    private func summary(_ recording: Recording, _ device: RecordedDevice, _ surface: TouchSurface, _ stats: Statistics) -> String {
        let d = device.description
        let sizeNote: String
        switch surface.sizeSource {
        case .resolution: sizeNote = "from the device's resolution"
        case .given: sizeNote = "as given"
        case .assumed: sizeNote = "assumed, see the warning"
        }
        let span = stats.first.map { formatSecondsTrimmed(stats.last - $0) } ?? "0.0"
        var s = "\(recording.path) (\(recording.format.rawValue))\n"
        s += "  device:   \(d.name) [\(d.kind)], \(d.touchProtocol)\n"
        s += "  surface:  \(surface.size) (\(sizeNote))\n"
        s += "  events:   \(device.events.count)\n"
        s += "  frames:   \(stats.frames) over \(span) s\n"
        s += "  contacts: \(stats.contacts.count) (at most \(stats.maximumFingers) fingers at once"
        s += stats.cancelled > 0 ? ", \(stats.cancelled) cancelled)\n" : ")\n"
        s += "Gesture recognition is not built yet; --frames prints the decoded touch frames.\n"
        return s
    }
}
