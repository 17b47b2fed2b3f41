import TouchEvents

/// Reads evemu 1.0–1.3 text: a device description (`N:`, `I:`, `P:`, `B:`, `A:` lines)
/// and/or events (`E: sec.usec TYPE CODE VALUE`), with `#` comments anywhere.
///
/// Handles 4- and 5-field `A:` lines (resolution since 1.1), zero-padded and negative
/// values (`0539`, `-001`), absolute or relative times, and the initial axis values that
/// evemu-record 1.3 writes only in its header comments (`#       Value      1` under
/// `#     Event code 47 (ABS_MT_SLOT)`): real recordings can start in slot 1.
struct EvemuReader {
    /// What one evemu file held.
    struct Parsed {
        var description: DeviceDescription?
        var events: [InputEvent] = []
        var eventLines: [Int32] = []
        /// Axis values from the header comments (`ABS_*` code → value).
        var initialValues: [UInt16: Int32] = [:]
        /// The system's DMI modalias, from evemu-describe's `# DMI: dmi:…` header comment.
        var dmi: String?
    }

    /// The newest format version this reader knows.
    static let newestMinorVersion = 3

    let path: String

    func parse(_ bytes: [UInt8]) throws(RecordingError) -> Parsed {
        var result: Result<Parsed, RecordingError> = .failure(RecordingError(path: path, line: 0, message: "empty"))
        bytes.withUnsafeBufferPointer { buffer in
            do throws(RecordingError) {
                result = .success(try parse(buffer))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    private func fail(_ cursor: ByteCursor, _ message: String, column: Bool = true) -> RecordingError {
        RecordingError(path: path, line: cursor.line, column: column ? cursor.column : nil, message: message)
    }

    private func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(RecordingError) -> Parsed {
        var parsed = Parsed()
        var lines = LineIterator(buffer)
        var name: String?
        var id: InputID?
        var properties = Set<UInt16>()
        var propertyByte = 0
        var bitmaskBytes: [UInt16: Int] = [:]
        var codes: [UInt16: Set<UInt16>] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        var firstDescriptionLine = 0
        var firstEventLine = 0
        var comments = AxisValueComments()
        parsed.events.reserveCapacity(buffer.count / 48)
        parsed.eventLines.reserveCapacity(buffer.count / 48)

        while var line = lines.next() {
            line.skipSpaces()
            if line.atEnd { continue }
            if line.current == UInt8(ascii: "#") {
                line.pos += 1
                line.skipSpaces()
                if line.consume("EVEMU") {
                    try checkVersion(&line)
                } else if line.consume("DMI:") {
                    line.skipSpaces()
                    if let text = line.rest(), text.hasPrefix("dmi:") { parsed.dmi = text }
                } else {
                    comments.read(&line)
                }
                continue
            }
            let kind = line.current
            let lineStart = line
            line.pos += 1
            guard line.consume(byte: UInt8(ascii: ":")) else {
                throw fail(lineStart, "not an evemu line (expected N:, I:, P:, B:, A: or E:, or a # comment): \"\(lineStart.restForMessage())\"")
            }
            if kind == UInt8(ascii: "E") {
                if firstEventLine == 0 { firstEventLine = line.line }
                try parseEvent(&line, into: &parsed)
                continue
            }
            // Description lines.
            if firstEventLine != 0 {
                throw fail(lineStart, "device description after events: N:, I:, P:, B: and A: lines must come before the first E: line (line \(firstEventLine))", column: false)
            }
            if firstDescriptionLine == 0 { firstDescriptionLine = line.line }
            line.skipSpaces()
            switch kind {
            case UInt8(ascii: "N"):
                guard let text = line.rest() else { throw fail(line, "the device name is not valid UTF-8") }
                name = String(text.reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
            case UInt8(ascii: "I"):
                var values: [UInt16] = []
                for field in ["bus type", "vendor", "product", "version"] {
                    line.skipSpaces()
                    guard let v = line.hex(), let v16 = UInt16(exactly: v) else {
                        throw fail(line, "I: expects four hexadecimal numbers (bus vendor product version); bad \(field)")
                    }
                    values.append(v16)
                }
                guard line.restIsBlankOrComment() else { throw fail(line, "unexpected text after the I: values") }
                id = InputID(bustype: values[0], vendor: values[1], product: values[2], version: values[3])
            case UInt8(ascii: "P"):
                while !line.restIsBlankOrComment() {
                    guard let byte = line.hex(), byte <= 0xff else { throw fail(line, "P: expects hexadecimal bytes") }
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        let property = propertyByte * 8 + bit
                        if property <= Int(InputProperty.max) { properties.insert(UInt16(property)) }
                    }
                    propertyByte += 1
                }
            case UInt8(ascii: "B"):
                guard let type = line.hex(), type <= Int64(EventType.max) else {
                    throw fail(line, "B: expects an event type (hexadecimal, at most 1f) and bitmask bytes")
                }
                let t = UInt16(type)
                var index = bitmaskBytes[t, default: 0]
                while !line.restIsBlankOrComment() {
                    guard let byte = line.hex(), byte <= 0xff else { throw fail(line, "B: expects hexadecimal bytes") }
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        codes[t, default: []].insert(UInt16(index * 8 + bit))
                    }
                    index += 1
                }
                bitmaskBytes[t] = index
            case UInt8(ascii: "A"):
                guard let code = line.hex(), code <= Int64(AbsCode.max) else {
                    throw fail(line, "A: expects an axis code (hexadecimal, at most 3f)")
                }
                var numbers: [Int32] = []
                while !line.restIsBlankOrComment() {
                    let valueAt = line
                    guard let v = line.decimal(), let v32 = Int32(exactly: v) else {
                        throw fail(valueAt, "A: values must be integers within 32 bits")
                    }
                    numbers.append(v32)
                }
                guard numbers.count == 4 || numbers.count == 5 else {
                    throw fail(lineStart, "A: expects 4 or 5 values after the code (min max fuzz flat [resolution]), found \(numbers.count)", column: false)
                }
                absInfo[UInt16(code)] = AbsInfo(
                    minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                    resolution: numbers.count == 5 ? numbers[4] : 0)
            default:
                throw fail(lineStart, "unknown evemu line type \"\(Character(Unicode.Scalar(kind)))\" (expected N:, I:, P:, B:, A: or E:)", column: false)
            }
        }

        parsed.initialValues = comments.values
        if firstDescriptionLine != 0 {
            guard let name else {
                throw RecordingError(path: path, line: firstDescriptionLine, message: "incomplete device description: no N: (name) line")
            }
            guard let id else {
                throw RecordingError(path: path, line: firstDescriptionLine, message: "incomplete device description: no I: (ids) line")
            }
            // B: 00 lists the event types; keep the SYN codes every device has.
            let types = codes.removeValue(forKey: EventType.syn) ?? []
            for type in types where type != EventType.syn { codes[type, default: []] = codes[type, default: []] }
            codes[EventType.syn] = [SynCode.report, SynCode.config, SynCode.mtReport, SynCode.dropped]
            for (code, value) in parsed.initialValues where absInfo[code] != nil { absInfo[code]?.value = value }
            parsed.description = DeviceDescription(name: name, id: id, codes: codes, absInfo: absInfo, properties: properties)
        }
        return parsed
    }

    private func checkVersion(_ line: inout ByteCursor) throws(RecordingError) {
        line.skipSpaces()
        let at = line
        guard let major = line.decimal(), line.consume(byte: UInt8(ascii: ".")), let minor = line.decimal() else {
            throw fail(at, "unreadable evemu version: expected \"# EVEMU 1.3\"")
        }
        guard major == 1, minor >= 0, minor <= Int64(Self.newestMinorVersion) else {
            throw fail(at, "unsupported evemu version \(major).\(minor): this reader knows 1.0 to 1.\(Self.newestMinorVersion)")
        }
    }

    private func parseEvent(_ line: inout ByteCursor, into parsed: inout Parsed) throws(RecordingError) {
        line.skipSpaces()
        let timeAt = line
        let negative = line.current == UInt8(ascii: "-")
        guard let seconds = line.decimal(), line.consume(byte: UInt8(ascii: ".")) else {
            throw fail(timeAt, "E: expects a time as SECONDS.MICROSECONDS, then type, code and value")
        }
        let fractionStart = line.pos
        guard let fraction = line.decimal(), fraction >= 0 else {
            throw fail(line, "E: expects a time as SECONDS.MICROSECONDS")
        }
        let fractionDigits = line.pos - fractionStart
        guard fractionDigits <= 6 else { throw fail(timeAt, "E: the time has more than 6 decimals") }
        if negative || seconds < 0 { throw fail(timeAt, "negative timestamp") }
        var micros = fraction
        for _ in fractionDigits..<6 { micros *= 10 }
        guard seconds <= maximumTimestampSeconds, let time = Instant(seconds: seconds, microseconds: micros) else {
            throw fail(timeAt, "timestamp \(seconds) s is too large (at most \(maximumTimestampSeconds) s)")
        }
        line.skipSpaces()
        let typeAt = line
        guard let type = line.hex() else { throw fail(typeAt, "E: expects the event type in hexadecimal") }
        guard type <= 0xffff, EventType.isKnown(UInt16(type)) else {
            throw fail(typeAt, "unknown event type 0x\(String(type, radix: 16))")
        }
        line.skipSpaces()
        let codeAt = line
        guard let code = line.hex(), code <= 0xffff else { throw fail(codeAt, "E: expects the event code in hexadecimal") }
        line.skipSpaces()
        let valueAt = line
        guard let value = line.decimal() else { throw fail(valueAt, "E: expects a decimal value") }
        guard let value32 = Int32(exactly: value) else {
            throw fail(valueAt, "value \(value) is outside the 32-bit range of an event value")
        }
        guard line.restIsBlankOrComment() else { throw fail(line, "unexpected text after the event value") }
        parsed.events.append(InputEvent(time: time, type: UInt16(type), code: UInt16(code), value: value32))
        parsed.eventLines.append(Int32(truncatingIfNeeded: line.line))
    }
}
