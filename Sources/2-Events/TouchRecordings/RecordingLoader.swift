import TouchEvents

extension Recording {
    /// Reads a recording in either format, detected from its content.
    ///
    /// An evemu file that holds only events takes its device description from `descPath`,
    /// or else from a `.desc` file beside it named by evemu-devices' `NAME.DESC.events`
    /// convention: for `Atmel maXTouch.1-finger-tap.events` the reader tries
    /// `Atmel maXTouch.1-finger-tap.desc`, then `Atmel maXTouch.desc`. A `descPath` also
    /// replaces the description of a file that has its own.
    public static func load(path: String, descPath: String? = nil) throws(RecordingError) -> Recording {
        let bytes = try readFileBytes(path)
        try checkText(bytes, path: path)
        switch detectFormat(bytes) {
        case .libinputRecord:
            if descPath != nil {
                throw RecordingError(path: path, line: 0, message:
                    "--desc applies to evemu files only: a libinput recording describes its devices itself")
            }
            return try LibinputRecordReader(path: path).read(bytes)
        case .evemu:
            return try loadEvemu(path: path, bytes: bytes, descPath: descPath)
        case nil:
            throw RecordingError(path: path, line: firstContentLine(bytes), message:
                "not a recording: expected libinput record YAML (\"version: 1\") or evemu text (N:, I:, B:, A:, E: lines)")
        }
    }

    /// Reads a recording already in memory; `path` only names it in messages. The format is
    /// detected unless given. Evemu text must hold its own description: nothing beside it is
    /// looked for.
    public static func parse(bytes: [UInt8], path: String, format: RecordingFormat? = nil) throws(RecordingError) -> Recording {
        try checkText(bytes, path: path)
        switch format ?? detectFormat(bytes) {
        case .libinputRecord:
            return try LibinputRecordReader(path: path).read(bytes)
        case .evemu:
            let parsed = try EvemuReader(path: path).parse(bytes)
            guard let description = parsed.description else {
                throw RecordingError(path: path, line: 0, message: "no device description in this text (no N:, I:, B:, A: lines)")
            }
            return evemuRecording(parsed, description: description, path: path, descriptionPath: nil)
        case nil:
            throw RecordingError(path: path, line: firstContentLine(bytes), message:
                "not a recording: expected libinput record YAML (\"version: 1\") or evemu text (N:, I:, B:, A:, E: lines)")
        }
    }

    private static func loadEvemu(path: String, bytes: [UInt8], descPath: String?) throws(RecordingError) -> Recording {
        let parsed = try EvemuReader(path: path).parse(bytes)
        var description = parsed.description
        var dmi = parsed.dmi
        let usedDescPath = descPath ?? (description == nil ? findDescription(besides: path) : nil)
        if let descPath = usedDescPath {
            let descBytes = try readFileBytes(descPath)
            try checkText(descBytes, path: descPath)
            guard detectFormat(descBytes) == .evemu else {
                throw RecordingError(path: descPath, line: firstContentLine(descBytes), message: "not an evemu device description")
            }
            let desc = try EvemuReader(path: descPath).parse(descBytes)
            guard let d = desc.description else {
                throw RecordingError(path: descPath, line: 0, message: "no device description in this file (no N:, I:, B:, A: lines)")
            }
            description = d
            dmi = dmi ?? desc.dmi
        }
        guard let description else {
            let tried = descriptionCandidates(for: path).map { "\"\($0)\"" }.joined(separator: ", ")
            throw RecordingError(path: path, line: 0, message:
                "the file has events but no device description, and none was found beside it (tried \(tried)); pass --desc FILE")
        }
        return evemuRecording(parsed, description: description, path: path, descriptionPath: usedDescPath, dmi: dmi)
    }

    /// The recording of parsed evemu events on `description`.
    private static func evemuRecording(_ parsed: EvemuReader.Parsed, description: DeviceDescription, path: String,
                                       descriptionPath: String?, dmi: String? = nil) -> Recording {
        var description = description
        // The events file's own header values describe the state when its events start.
        for (code, value) in parsed.initialValues where description.absInfo[code] != nil {
            description.absInfo[code]?.value = value
        }
        let device = RecordedDevice(description: description, events: parsed.events, eventLines: parsed.eventLines)
        return Recording(path: path, format: .evemu, devices: [device], descriptionPath: descriptionPath, dmi: dmi ?? parsed.dmi)
    }

    /// `NAME.DESC.events` → `NAME.DESC.desc`, `NAME.desc` (longest first).
    static func descriptionCandidates(for path: String) -> [String] {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        var base = String(slash.map { path[path.index(after: $0)...] } ?? path[...])
        if base.hasSuffix(".events") { base.removeLast(".events".count) }
        let parts = base.split(separator: ".", omittingEmptySubsequences: false)
        return (1...max(1, parts.count)).reversed().map { n in
            directory + parts.prefix(n).joined(separator: ".") + ".desc"
        }
    }

    static func findDescription(besides path: String) -> String? {
        descriptionCandidates(for: path).first { $0 != path && fileExists($0) }
    }

    /// Looks at the first line that is not blank or a comment.
    static func detectFormat(_ bytes: [UInt8]) -> RecordingFormat? {
        var found: RecordingFormat?
        bytes.withUnsafeBufferPointer { buffer in
            var lines = LineIterator(buffer)
            while var line = lines.next() {
                line.skipSpaces()
                if line.atEnd { continue }
                if line.current == UInt8(ascii: "#") {
                    line.pos += 1
                    line.skipSpaces()
                    if line.consume("libinput record") { found = .libinputRecord; return }
                    if line.consume("EVEMU") { found = .evemu; return }
                    continue
                }
                let first = line.current
                line.pos += 1
                if line.consume(byte: UInt8(ascii: ":")), "NIPBAE".utf8.contains(first) {
                    found = .evemu
                } else {
                    line.pos -= 1
                    if line.consume("version:") || line.consume("ndevices:") || line.consume("devices:")
                        || line.consume("libinput:") || line.consume("system:") {
                        found = .libinputRecord
                    }
                }
                return
            }
        }
        return found
    }

    static func firstContentLine(_ bytes: [UInt8]) -> Int {
        var n = 1
        bytes.withUnsafeBufferPointer { buffer in
            var lines = LineIterator(buffer)
            while var line = lines.next() {
                line.skipSpaces()
                if !line.atEnd && line.current != UInt8(ascii: "#") { n = line.line; return }
            }
        }
        return n
    }
}
