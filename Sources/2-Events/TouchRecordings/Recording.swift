import TouchEvents

/// The formats a recording can come in.
public enum RecordingFormat: String, Sendable {
    /// `libinput record` YAML, version 1.
    case libinputRecord = "libinput-record"
    /// evemu 1.x text (`evemu-record`, `evemu-describe`).
    case evemu
}

/// One device of a recording: its description and its events, each with the line of
/// the file it came from so that decoding errors can point at it.
public struct RecordedDevice: Sendable {
    public var description: DeviceDescription
    public var events: [InputEvent]
    /// `eventLines[i]` is the 1-based line of `events[i]`.
    public var eventLines: [Int32]
    /// The device node at recording time (`/dev/input/event5`), when recorded.
    public var node: String?

    public init(description: DeviceDescription, events: [InputEvent], eventLines: [Int32], node: String? = nil) {
        self.description = description
        self.events = events
        self.eventLines = eventLines
        self.node = node
    }

    /// Time of the first event (`.zero` if there is none).
    public var firstEventTime: Instant { events.first?.time ?? .zero }
}

/// A recording file, read whole.
public struct Recording: Sendable {
    public var path: String
    public var format: RecordingFormat
    public var devices: [RecordedDevice]
    /// The evemu description file the device came from, when it was not in the file itself.
    public var descriptionPath: String?
    /// The recording system's DMI modalias (`dmi:bvn…:svn…:pn…`), when the file has it:
    /// libinput record's `system: dmi:`, evemu-describe's `# DMI:` comment. libinput's quirks
    /// match laptops by it.
    public var dmi: String?

    public init(path: String, format: RecordingFormat, devices: [RecordedDevice], descriptionPath: String? = nil, dmi: String? = nil) {
        self.path = path
        self.format = format
        self.devices = devices
        self.descriptionPath = descriptionPath
        self.dmi = dmi
    }

    /// The device `index` names, or the first touchscreen or touchpad when `index` is nil.
    public func device(_ index: Int?) throws(RecordingError) -> RecordedDevice {
        if let index {
            guard devices.indices.contains(index) else {
                throw RecordingError(path: path, line: 0, message:
                    "there is no device \(index): the recording has \(devices.count) (\(listing))")
            }
            return devices[index]
        }
        if let first = devices.first(where: { $0.description.isTouchDevice }) { return first }
        throw RecordingError(path: path, line: 0, message:
            "the recording has no touchscreen or touchpad (\(listing)); choose one with --device N")
    }

    private var listing: String {
        devices.enumerated().map { "\($0.offset): \($0.element.description.name) [\($0.element.description.kind)]" }
            .joined(separator: ", ")
    }
}
