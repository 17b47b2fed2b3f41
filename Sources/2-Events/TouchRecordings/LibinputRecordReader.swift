import TouchEvents
import Yams

/// Reads `libinput record` YAML, version 1.
///
/// The event lists are read by a hand-written scanner (Yams takes over a second for
/// 100,000 events); everything else — the header — goes through Yams with the event
/// lines blanked, so its line numbers stay those of the file. Unknown keys are ignored,
/// and so are recorded `- libinput:` frames.
struct LibinputRecordReader {
    let path: String

    /// One `events:` list found by the scanner.
    struct Section {
        /// Line of the `events:` key.
        var line: Int
        var indent: Int
        var events: [InputEvent] = []
        var eventLines: [Int32] = []
        /// Axis values from the `#       Value  N` comments of the description before it.
        var initialValues: [UInt16: Int32] = [:]
    }

    func read(_ bytes: [UInt8]) throws(RecordingError) -> Recording {
        var scanned: Result<(header: String, sections: [Section]), RecordingError>!
        bytes.withUnsafeBufferPointer { buffer in
            do throws(RecordingError) {
                scanned = .success(try scan(buffer))
            } catch {
                scanned = .failure(error)
            }
        }
        let (header, sections) = try scanned.get()
        return try interpret(header: header, sections: sections)
    }

    private func fail(_ cursor: ByteCursor, _ message: String) -> RecordingError {
        RecordingError(path: path, line: cursor.line, column: cursor.column, message: message)
    }

    // MARK: - Scanner

    private enum FrameKind { case none, evdev, ignored }

    private func scan(_ buffer: UnsafeBufferPointer<UInt8>) throws(RecordingError) -> (header: String, sections: [Section]) {
        var header: [UInt8] = []
        header.reserveCapacity(min(buffer.count, 64 * 1024))
        var sections: [Section] = []
        var lines = LineIterator(buffer)
        var comments = AxisValueComments()
        var section = Section(line: 0, indent: 0)
        var inSection = false
        /// Event lines stand in the header as blank lines (so Yams's line numbers stay the
        /// file's), written only when a later header line needs them: trailing ones cost nothing.
        var blankLines = 0
        /// Inside a section: the current list item, if any.
        var frame = FrameKind.none

        func closeSection(_ s: Section) throws(RecordingError) {
            if let last = s.events.last, !last.isReport {
                throw RecordingError(path: path, line: Int(s.eventLines.last!), message:
                    "the recording ends inside a frame (no SYN_REPORT after the last events): truncated file?")
            }
            sections.append(s)
        }

        while var line = lines.next() {
            if inSection {
                let indent = line.indent
                line.pos += indent
                let blank = line.atEnd || line.current == UInt8(ascii: "#")
                let isItem = line.current == UInt8(ascii: "-") && line.pos + 1 <= line.end
                    && (line.pos + 1 == line.end || line.base[line.pos + 1] == UInt8(ascii: " "))
                if blank || indent > section.indent || (indent == section.indent && isItem) {
                    blankLines += 1
                    if blank { continue }
                    if indent == section.indent {
                        // A new list item: `- evdev:`, `- libinput:` or something unknown.
                        line.pos += 1
                        line.skipSpaces()
                        if line.consume("evdev:") {
                            if !line.restIsBlankOrComment() {
                                throw fail(line, "expected the frame's events as a block list under \"- evdev:\" (one \"- [sec, usec, type, code, value]\" per line)")
                            }
                            frame = .evdev
                        } else if line.current == UInt8(ascii: "[") {
                            throw fail(line, "expected \"- evdev:\" (a frame); found an event outside a frame")
                        } else {
                            frame = .ignored  // `- libinput:` and unknown frame kinds
                        }
                    } else {
                        switch frame {
                        case .evdev:
                            guard line.consume(byte: UInt8(ascii: "-")) else {
                                throw fail(line, "expected an event \"- [sec, usec, type, code, value]\"")
                            }
                            try parseEvent(&line, into: &section)
                        case .none:
                            throw fail(line, "expected a frame (\"- evdev:\") in the events list")
                        case .ignored:
                            break
                        }
                    }
                    continue
                }
                try closeSection(section)
                inSection = false
                line.pos = line.start
            }

            // Header line: keep it for Yams; watch for comments and `events:`.
            let indent = line.indent
            var probe = line
            probe.pos += indent
            if probe.consume(byte: UInt8(ascii: "#")) {
                comments.read(&probe)
            } else if probe.consume("events:"), probe.restIsBlankOrComment() {
                // The description's comments before this list are this device's initial values.
                section = Section(line: line.line, indent: indent, initialValues: comments.values)
                section.events.reserveCapacity(buffer.count / 64)
                section.eventLines.reserveCapacity(buffer.count / 64)
                inSection = true
                comments = AxisValueComments()
                frame = .none
            }
            if blankLines > 0 {
                header.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: blankLines))
                blankLines = 0
            }
            header.append(contentsOf: UnsafeBufferPointer(start: line.base + line.start, count: line.end - line.start))
            header.append(UInt8(ascii: "\n"))
        }
        if inSection { try closeSection(section) }
        guard let text = String(validating: header, as: UTF8.self) else {
            throw RecordingError(path: path, line: 1, message: "the file is not valid UTF-8 text")
        }
        return (text, sections)
    }

    /// `[sec, usec, type, code, value]` after the item's dash.
    private func parseEvent(_ line: inout ByteCursor, into s: inout Section) throws(RecordingError) {
        line.skipSpaces()
        guard line.consume(byte: UInt8(ascii: "[")) else {
            throw fail(line, "expected an event \"[sec, usec, type, code, value]\"")
        }
        var fields: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        var columns: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
        for i in 0..<5 {
            line.skipSpaces()
            let column = line.column
            guard let v = line.decimal() else {
                throw fail(line, "expected an integer in the event \"[sec, usec, type, code, value]\"")
            }
            line.skipSpaces()
            if i < 4 {
                guard line.consume(byte: UInt8(ascii: ",")) else {
                    throw fail(line, line.current == UInt8(ascii: "]")
                        ? "an event has 5 fields [sec, usec, type, code, value]; found \(i + 1)"
                        : "expected \",\" between the event's fields")
                }
            } else {
                guard line.consume(byte: UInt8(ascii: "]")) else {
                    throw fail(line, line.current == UInt8(ascii: ",")
                        ? "an event has 5 fields [sec, usec, type, code, value]; found more"
                        : "expected \"]\" after the event's fields")
                }
            }
            switch i {
            case 0: fields.0 = v; columns.0 = column
            case 1: fields.1 = v; columns.1 = column
            case 2: fields.2 = v; columns.2 = column
            case 3: fields.3 = v; columns.3 = column
            default: fields.4 = v; columns.4 = column
            }
        }
        guard line.restIsBlankOrComment() else { throw fail(line, "unexpected text after the event") }
        let lineNumber = line.line
        let at = { (column: Int, message: String) in
            RecordingError(path: self.path, line: lineNumber, column: column, message: message)
        }
        if fields.0 < 0 || fields.1 < 0 { throw at(columns.0, "negative timestamp") }
        guard fields.1 < 1_000_000 else { throw at(columns.1, "microseconds must be below 1000000, found \(fields.1)") }
        guard fields.0 <= maximumTimestampSeconds, let time = Instant(seconds: fields.0, microseconds: fields.1) else {
            throw at(columns.0, "timestamp \(fields.0) s is too large (at most \(maximumTimestampSeconds) s)")
        }
        guard fields.2 >= 0, fields.2 <= 0xffff, EventType.isKnown(UInt16(fields.2)) else {
            throw at(columns.2, "unknown event type \(fields.2)")
        }
        guard fields.3 >= 0, fields.3 <= 0xffff else { throw at(columns.3, "event code \(fields.3) is out of range") }
        guard let value = Int32(exactly: fields.4) else {
            throw at(columns.4, "value \(fields.4) is outside the 32-bit range of an event value")
        }
        s.events.append(InputEvent(time: time, type: UInt16(fields.2), code: UInt16(fields.3), value: value))
        s.eventLines.append(Int32(truncatingIfNeeded: lineNumber))
    }

    // MARK: - Header

    private func interpret(header: String, sections: [Section]) throws(RecordingError) -> Recording {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: header) else {
                throw RecordingError(path: path, line: 1, message: "not a libinput recording: no YAML document")
            }
            root = node
        } catch let error as RecordingError {
            throw error
        } catch let error as YamlError {
            throw yamlError(error)
        } catch {
            throw RecordingError(path: path, line: 1, message: "unreadable YAML: \(error)")
        }
        guard root.mapping != nil else {
            throw at(root, "not a libinput recording: expected a mapping with version, ndevices and devices")
        }
        guard let versionNode = root["version"] else {
            throw at(root, "not a libinput recording: no \"version\" key")
        }
        guard let version = versionNode.int, version == 1 else {
            throw at(versionNode, "unsupported libinput recording version \(versionNode.string ?? "?"): this reader knows version 1")
        }
        guard let devicesNode = root["devices"], let deviceNodes = devicesNode.sequence else {
            throw at(root, "no \"devices\" list")
        }
        if let ndevicesNode = root["ndevices"] {
            guard let n = ndevicesNode.int, n >= 0 else { throw at(ndevicesNode, "ndevices must be a whole number") }
            if n != deviceNodes.count {
                throw at(ndevicesNode, "ndevices is \(n) but the file has \(deviceNodes.count) device(s): truncated file?")
            }
        }
        var unclaimed = Dictionary(uniqueKeysWithValues: sections.map { ($0.line, $0) })
        var devices: [RecordedDevice] = []
        for deviceNode in deviceNodes {
            devices.append(try device(deviceNode, sections: &unclaimed))
        }
        if let stray = unclaimed.values.min(by: { $0.line < $1.line }) {
            throw RecordingError(path: path, line: stray.line, message:
                "an events list outside a device (events belong under a device in \"devices:\", after its evdev description)")
        }
        let dmi = root["system"]?["dmi"]?.string.flatMap { $0.hasPrefix("dmi:") ? $0 : nil }
        return Recording(path: path, format: .libinputRecord, devices: devices, dmi: dmi)
    }

    private func device(_ node: Node, sections: inout [Int: Section]) throws(RecordingError) -> RecordedDevice {
        guard node.mapping != nil else { throw at(node, "a device must be a mapping with evdev, udev and events") }
        guard let evdev = node["evdev"], evdev.mapping != nil else {
            throw at(node, "the device has no \"evdev\" description")
        }
        guard let nameNode = evdev["name"], let name = nameNode.string else { throw at(evdev, "the device has no name") }
        guard let idNode = evdev["id"], let ids = idNode.sequence, ids.count == 4 else {
            throw at(evdev["id"] ?? evdev, "id must be a list of four numbers [bus, vendor, product, version]")
        }
        var idValues: [UInt16] = []
        for n in ids {
            guard let v = n.int, let v16 = UInt16(exactly: v) else { throw at(n, "id values must be 0 to 65535") }
            idValues.append(v16)
        }
        var codes: [UInt16: Set<UInt16>] = [:]
        if let codesNode = evdev["codes"] {
            guard let mapping = codesNode.mapping else { throw at(codesNode, "codes must map event types to lists of codes") }
            for (typeNode, listNode) in mapping {
                guard let type = typeNode.int, let t16 = UInt16(exactly: type), EventType.isKnown(t16) else {
                    throw at(typeNode, "unknown event type \(typeNode.string ?? "?")")
                }
                var set = Set<UInt16>()
                if listNode.null == nil {
                    guard let list = listNode.sequence else { throw at(listNode, "expected a list of codes") }
                    for c in list {
                        guard let code = c.int, let c16 = UInt16(exactly: code) else { throw at(c, "event codes must be 0 to 65535") }
                        set.insert(c16)
                    }
                }
                codes[t16] = set
            }
        }
        var absInfo: [UInt16: AbsInfo] = [:]
        if let absNode = evdev["absinfo"], absNode.null == nil {
            guard let mapping = absNode.mapping else { throw at(absNode, "absinfo must map axis codes to [min, max, fuzz, flat, resolution]") }
            for (codeNode, valuesNode) in mapping {
                guard let code = codeNode.int, code >= 0, code <= Int(AbsCode.max) else {
                    throw at(codeNode, "absinfo: axis code must be 0 to \(AbsCode.max)")
                }
                guard let values = valuesNode.sequence, values.count == 5 else {
                    throw at(valuesNode, "absinfo: expected [min, max, fuzz, flat, resolution]")
                }
                var numbers: [Int32] = []
                for v in values {
                    guard let n = v.int, let n32 = Int32(exactly: n) else { throw at(v, "absinfo values must be 32-bit integers") }
                    numbers.append(n32)
                }
                absInfo[UInt16(code)] = AbsInfo(minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3], resolution: numbers[4])
            }
        }
        var properties = Set<UInt16>()
        if let propsNode = evdev["properties"], propsNode.null == nil {
            guard let list = propsNode.sequence else { throw at(propsNode, "properties must be a list of numbers") }
            for p in list {
                guard let v = p.int, v >= 0, v <= Int(InputProperty.max) else { throw at(p, "properties must be 0 to \(InputProperty.max)") }
                properties.insert(UInt16(v))
            }
        }
        var udevProperties: [String] = []
        if let udev = node["udev"], let list = udev["properties"]?.sequence {
            udevProperties = list.compactMap(\.string)
        }

        var events: [InputEvent] = []
        var eventLines: [Int32] = []
        if let eventsKey = node.mapping?.keys.first(where: { $0.string == "events" }) {
            let line = eventsKey.mark?.line ?? 0
            if let section = sections.removeValue(forKey: line) {
                if let evdevLine = evdev.mark?.line, evdevLine > line {
                    throw RecordingError(path: path, line: line, message:
                        "events before the device description: \"events:\" must come after \"evdev:\" (line \(evdevLine))")
                }
                events = section.events
                eventLines = section.eventLines
                for (code, value) in section.initialValues where absInfo[code] != nil { absInfo[code]?.value = value }
            } else if let value = node["events"], value.null == nil, !(value.sequence?.isEmpty ?? false) {
                throw at(value, "expected the events as a block list of \"- evdev:\" frames")
            }
        }
        let description = DeviceDescription(
            name: name,
            id: InputID(bustype: idValues[0], vendor: idValues[1], product: idValues[2], version: idValues[3]),
            codes: codes, absInfo: absInfo, properties: properties, udevProperties: udevProperties)
        return RecordedDevice(description: description, events: events, eventLines: eventLines, node: node["node"]?.string)
    }

    private func at(_ node: Node, _ message: String) -> RecordingError {
        RecordingError(path: path, line: node.mark?.line ?? 1, column: node.mark?.column, message: message)
    }

    private func yamlError(_ error: YamlError) -> RecordingError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let detail = context.map { "\($0.text) " } ?? ""
            return RecordingError(path: path, line: mark.line, column: mark.column, message: "invalid YAML: \(detail)\(problem)")
        default:
            return RecordingError(path: path, line: 1, message: "invalid YAML: \(error)")
        }
    }
}
