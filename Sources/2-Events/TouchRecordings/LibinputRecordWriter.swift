import TouchEvents

/// Writes one device as `libinput record` YAML, version 1: what `libinput replay` accepts
/// and what ``Recording/load(path:descPath:)`` reads back to the same description and
/// events. Event times are written relative to the first event, as `libinput record`
/// does; the header comments carry the axis values a decoder starts from.
public struct LibinputRecordWriter: Sendable {
    /// Where the recording came from, for the header comment.
    public var source: String?
    /// The node a live recording was made from (`gestured record`), for the header comment.
    public var recordedFrom: String?
    /// The running kernel's release, for the `system:` block (`unknown` when not given).
    public var kernel: String?
    /// The recording a player played into a virtual device and read back from it
    /// (`gestured replay --uinput --as-played`), for the header comment.
    public var playedFrom: String?

    public init(source: String? = nil, recordedFrom: String? = nil, kernel: String? = nil, playedFrom: String? = nil) {
        self.source = source
        self.recordedFrom = recordedFrom
        self.kernel = kernel
        self.playedFrom = playedFrom
    }

    /// The YAML text for `device`.
    public func yaml(for device: RecordedDevice) -> String {
        var out = YAMLBuffer()
        let d = device.description
        out.line("# libinput record")
        if let source { out.line("# Converted by gestured from \(source.replacingNewlines)") }
        if let recordedFrom { out.line("# Recorded by gestured from \(recordedFrom.replacingNewlines)") }
        if let playedFrom {
            out.line("# Played by gestured from \(playedFrom.replacingNewlines) into a virtual device, and read back:")
            out.line("# the events as the kernel passed them on, with the times it stamped them with")
        }
        out.line("version: 1")
        out.line("ndevices: 1")
        out.line("libinput:")
        out.line("  version: \"gestured\"")
        out.line("  git: \"unknown\"")
        out.line("system:")
        out.line("  kernel: \(quoted(kernel ?? "unknown"))")
        out.line("  dmi: \"unknown\"")
        out.line("devices:")
        out.line("- node: \(quoted(device.node ?? "unknown"))")
        out.line("  evdev:")
        writeComments(d, &out)
        out.line("    name: \(quoted(d.name))")
        out.line("    id: [\(d.id.bustype), \(d.id.vendor), \(d.id.product), \(d.id.version)]")
        out.line("    codes:")
        for type in d.codes.keys.sorted() {
            var codes = d.codes[type] ?? []
            if type == EventType.abs { codes.formUnion(d.absInfo.keys) }
            let list = codes.sorted().map(String.init).joined(separator: ", ")
            out.line("      \(type): [\(list)] # \(EventCodeNames.typeName(type))")
        }
        if !d.absInfo.isEmpty {
            out.line("    absinfo:")
            for code in d.absInfo.keys.sorted() {
                let a = d.absInfo[code]!
                out.line("      \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]")
            }
        }
        out.line("    properties: [\(d.properties.sorted().map(String.init).joined(separator: ", "))]")
        out.line("  udev:")
        out.line("    properties:")
        for property in udevProperties(d) { out.line("    - \(property)") }
        out.line("  quirks:")
        out.line("  events:")
        writeEvents(device.events, &out)
        return out.string
    }

    private func udevProperties(_ d: DeviceDescription) -> [String] {
        if !d.udevProperties.isEmpty { return d.udevProperties }
        switch d.kind {
        case .touchscreen: return ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"]
        case .touchpad: return ["ID_INPUT=1", "ID_INPUT_TOUCHPAD=1"]
        case .other: return ["ID_INPUT=1"]
        }
    }

    private func writeComments(_ d: DeviceDescription, _ out: inout YAMLBuffer) {
        out.line("    # Name: \(d.name.replacingNewlines)")
        out.line("    # ID: bus 0x\(hex(d.id.bustype)) vendor 0x\(hex(d.id.vendor)) product 0x\(hex(d.id.product)) version 0x\(hex(d.id.version))")
        if let size = d.reportedSize {
            out.line("    # Size in mm: \(Int(size.width.rounded()))x\(Int(size.height.rounded()))")
        } else {
            out.line("    # Size in mm: unknown, missing resolution")
        }
        out.line("    # Supported Events:")
        for type in d.codes.keys.sorted() {
            out.line("    # Event type \(type) (\(EventCodeNames.typeName(type)))")
            if type == EventType.syn { continue }
            var codes = d.codes[type] ?? []
            if type == EventType.abs { codes.formUnion(d.absInfo.keys) }
            for code in codes.sorted() {
                out.line("    #   Event code \(code) (\(EventCodeNames.codeName(type: type, code: code)))")
                if type == EventType.abs, let a = d.absInfo[code] {
                    for (label, value) in [("Value", a.value), ("Min", a.minimum), ("Max", a.maximum),
                                           ("Fuzz", a.fuzz), ("Flat", a.flat), ("Resolution", a.resolution)] {
                        out.line("    #       \(label.padding(toLength: 10))\(String(value).leftPadded(to: 6))")
                    }
                }
            }
        }
        out.line("    # Properties:")
        for p in d.properties.sorted() {
            out.line("    #    Property \(p) (\(EventCodeNames.propertyName(p)))")
        }
    }

    private func writeEvents(_ events: [InputEvent], _ out: inout YAMLBuffer) {
        guard let first = events.first?.time else { return }
        var frameStart = true
        var lastReport = first
        for e in events {
            if frameStart {
                out.line("  - evdev:")
                frameStart = false
            }
            let t = (Instant.zero + (e.time - first)).secondsAndMicroseconds
            out.append("    - [")
            out.padded(t.seconds, width: 3)
            out.append(", ")
            out.padded(t.microseconds, width: 6)
            out.append(", ")
            out.padded(Int64(e.type), width: 3)
            out.append(", ")
            out.padded(Int64(e.code), width: 3)
            out.append(", ")
            out.padded(Int64(e.value), width: 6)
            out.append("] # ")
            if e.isReport {
                out.append("------------ SYN_REPORT (\(e.value)) ---------- +\((e.time - lastReport).inMicroseconds / 1000)ms")
                lastReport = e.time
                frameStart = true
            } else {
                let code = EventCodeNames.codeName(type: e.type, code: e.code)
                out.append("\(EventCodeNames.typeName(e.type)) / \(code.padding(toLength: 20)) ")
                out.padded(Int64(e.value), width: 6)
            }
            out.newline()
        }
    }

    private func hex(_ v: UInt16) -> String { String(v, radix: 16) }

    /// A YAML double-quoted scalar.
    private func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    out += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2, with: "0")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// Appends text to a byte buffer: faster than string interpolation for 100k events.
struct YAMLBuffer {
    var bytes: [UInt8] = []

    mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }
    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }
    mutating func line(_ s: String) {
        append(s)
        newline()
    }

    /// A decimal right-aligned in `width` columns.
    mutating func padded(_ value: Int64, width: Int) {
        var digits: [UInt8] = []
        var v = value.magnitude
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        } while v > 0
        if value < 0 { digits.append(UInt8(ascii: "-")) }
        for _ in digits.count..<max(width, digits.count) { bytes.append(UInt8(ascii: " ")) }
        bytes.append(contentsOf: digits.reversed())
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}

extension String {
    fileprivate var replacingNewlines: String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// Pads on the right up to `length` characters.
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
