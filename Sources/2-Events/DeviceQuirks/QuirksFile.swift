/// One `[Section]` of a libinput quirks file: the `Match*` lines a device must meet, all of
/// them, and the `Attr*`/`Model*` lines it then gets.
public struct QuirksSection: Sendable, Equatable {
    /// The name between the brackets (`Cypress Touchpads`).
    public var name: String
    /// The file it was read from.
    public var file: String
    /// The line of its `[`, counted from 1.
    public var line: Int
    /// Its `Match*` lines, parsed, in file order: a device must meet all of them.
    public var matches: [QuirksMatch]
    /// The `Attr*` and `Model*` lines, in file order.
    public var properties: [QuirkProperty]
}

/// One `AttrFoo=value` or `ModelFoo=1` line of a section.
public struct QuirkProperty: Sendable, Equatable {
    /// The key as the line writes it: `AttrPalmPressureThreshold`, `ModelPressurePad`.
    public var key: String
    /// The value as the line writes it, checked for its form if its key is declared (a
    /// ``QuirkKey``) or a `Model*` key, and typed only when a device asks for it.
    public var value: String
    /// The line, counted from 1.
    public var line: Int
}

/// A line the parser could not take: reported with its place and skipped, never fatal.
public struct QuirksProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// The line, counted from 1; 0 where the whole file could not be read.
    public var line: Int
    /// What is wrong, and what was skipped: `AttrSizeHint takes WIDTHxHEIGHT, not 100x: skipped`.
    public var message: String

    /// `file:line: message`.
    public var description: String { "\(file):\(line): \(message)" }
}

/// What libinput's quirks files say, parsed as libinput parses them
/// (its quirks.c and the device-quirks documentation; the format is not promised stable).
///
/// A file is sections of `Match*` lines followed by `Attr*` or `Model*` lines; `#` starts a
/// comment; no quotes and no whitespace around a line. Later files and later sections win.
/// Where libinput loads no quirks at all for one bad line, this reports the line as a
/// ``QuirksProblem`` and goes on without it — without its whole section where it is a `Match*`
/// line (the section would otherwise apply to devices it was not written for).
///
/// A file's `Match*` lines are parsed as it is read; its `Attr*` and `Model*` values are kept
/// as the text they were written with (``QuirkProperty/value``) and typed only when a device
/// whose sections set them asks (``DeviceQuirks``' typed subscript). Their form is still
/// checked as the file is read, section by section, matched or not: checked only when read, a
/// bad value would be a problem only for a device that matched its section and asked for its
/// key, not in ``problems`` at start, and it would hide the value an earlier line or section
/// gave its key instead of leaving it standing. The check of an `Attr*` line is one lookup of
/// its key in the declared ``QuirkKey``s (a dictionary built once) and one parse of a declared
/// key's value; that of a `Model*` line, whose form every `Model*` key shares, no lookup.
public struct QuirksDatabase: Sendable, Equatable {
    /// Every section that was read whole enough to use, in the order read: files in order,
    /// each file's sections in file order.
    public private(set) var sections: [QuirksSection] = []
    /// Every line that was skipped, and why.
    public internal(set) var problems: [QuirksProblem] = []
    /// The files read, in order.
    public private(set) var files: [String] = []

    /// No files: no section, nothing matches (libinput's defaults).
    public init() {}

    /// The database of one file's text.
    public init(text: String, file: String) {
        add(text: text, file: file)
    }

    /// Adds one file's sections after those already read: they win where both set a property.
    public mutating func add(text: String, file: String) {
        files.append(file)
        var section: QuirksSection?
        var valuesBegun = false
        // The line of a section header that could not be read: its lines are skipped too.
        var brokenHeader: Int?
        // A Match line of this section could not be read: the section would apply more widely
        // than written, so none of it is used.
        var badMatch = false
        func problem(_ line: Int, _ message: String) { problems.append(QuirksProblem(file: file, line: line, message: message)) }
        func close() {
            guard let s = section else { return }
            if badMatch {
                problem(s.line, "section [\(s.name)] has a Match line that could not be read: the section is skipped")
            } else if s.matches.isEmpty {
                problem(s.line, "section [\(s.name)] has no valid Match line: skipped")
            } else if s.properties.isEmpty {
                problem(s.line, "section [\(s.name)] has no valid Attr or Model line: skipped")
            } else {
                sections.append(s)
            }
            section = nil
        }
        // Read as bytes, as libinput reads its files (a line ends at "\n"): each line's bytes
        // are looked at once, and only keys, values and names become strings. Read as
        // Characters, the same lines cost 50 M instructions at every start (Debian's 39 files).
        var text = text
        text.withUTF8 { bytes in
            let space: UInt8 = 0x20, tab: UInt8 = 0x09, hash: UInt8 = 0x23, equals: UInt8 = 0x3D
            func string(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self) }
            func starts(_ from: Int, _ to: Int, with prefix: StaticString) -> Bool {
                let n = prefix.utf8CodeUnitCount
                guard to - from >= n else { return false }
                return prefix.withUTF8Buffer { p in (0..<n).allSatisfy { bytes[from + $0] == p[$0] } }
            }
            var number = 0
            var lineStart = 0
            while lineStart <= bytes.count {
                var end = lineStart
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                let next = end + 1
                defer { lineStart = next }
                number += 1
                var start = lineStart
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                if let h = (start..<end).first(where: { bytes[$0] == hash }) {
                    end = h
                    while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
                }
                if end == start { continue }
                // A Match line skipped for its form widens its section as much as one that says nothing.
                var content = start
                while content < end, bytes[content] == space || bytes[content] == tab { content += 1 }
                let isMatch = starts(content, end, with: "Match")
                if bytes[end - 1] == space || bytes[end - 1] == tab {
                    problem(number, "trailing whitespace: skipped")
                    if isMatch { badMatch = true }
                    continue
                }
                if bytes[start] == space || bytes[start] == tab {
                    problem(number, "leading whitespace: skipped")
                    if isMatch { badMatch = true }
                    continue
                }
                if bytes[start] == 0x5B {  // [
                    close()
                    guard bytes[end - 1] == 0x5D, end - start > 2 else {  // ]
                        problem(number, "a section's name must be in [brackets]: the section is skipped")
                        brokenHeader = number
                        continue
                    }
                    brokenHeader = nil
                    section = QuirksSection(name: string(start + 1, end - 1), file: file, line: number, matches: [], properties: [])
                    valuesBegun = false
                    badMatch = false
                    continue
                }
                if let header = brokenHeader { problem(number, "in the section of line \(header), whose name could not be read: skipped"); continue }
                guard section != nil else { problem(number, "a line before the first [Section]: skipped"); continue }
                guard let split = (start..<end).first(where: { bytes[$0] == equals }), split > start, split + 1 < end,
                      !(split + 1..<end).contains(where: { bytes[$0] == equals }) else {
                    problem(number, "expected Key=value: skipped"); continue
                }
                start = split + 1
                let key = string(content, split), value = string(start, end)
                if bytes[start] == 0x22 || bytes[start] == 0x27 { problem(number, "\(key): values take no quotes: skipped"); continue }
                if key.hasPrefix("Match") {
                    if valuesBegun {
                        problem(number, "\(key) after the section's values: Match lines come first")
                        badMatch = true
                        continue
                    }
                    switch QuirksMatch.parse(key: key, value: value) {
                    case .success(let match):
                        if section!.matches.contains(where: { $0.key == match.key }) {
                            problem(number, "\(key) twice in one section")
                            badMatch = true
                        } else {
                            section!.matches.append(match)
                        }
                    case .failure(let error):
                        problem(number, error.message)
                        badMatch = true
                    }
                } else if key.hasPrefix("Model") || key.hasPrefix("Attr") {
                    valuesBegun = true
                    if let message = QuirkProperty.check(key: key, value: value) {
                        problem(number, message)
                    } else {
                        section!.properties.append(QuirkProperty(key: key, value: value, line: number))
                    }
                } else {
                    problem(number, "\(key): a key starts with Match, Attr or Model: skipped")
                }
            }
        }
        close()
    }

    /// What the sections say about a device: every section whose `Match*` lines all hold, in
    /// order, the later winning for each property. A section that matches on something the
    /// device does not say (a DMI modalias for a recording without one) does not match.
    public func quirks(for device: QuirksDevice) -> DeviceQuirks {
        var quirks = DeviceQuirks()
        for section in sections where section.matches.allSatisfy({ $0.holds(for: device) }) {
            for property in section.properties {
                quirks.set(DeviceQuirks.Entry(key: property.key, value: property.value, section: section.name,
                                              file: section.file, line: property.line))
            }
        }
        return quirks
    }
}

extension QuirkProperty {
    /// Why `key=value` cannot be used (nil: it can): a `Model*` key takes 0 or 1, declared or
    /// not; the value of a declared `Attr*` ``QuirkKey`` must be in its form; other `Attr*` keys
    /// are kept as written. For an `Attr*` line, one lookup in the declared keys by name, and
    /// for a declared key one parse.
    ///
    /// This runs at load, for every section, though a value is only typed when a device asks
    /// for it (`DeviceQuirks`' typed subscript): see ``QuirksDatabase`` for why.
    static func check(key: String, value: String) -> String? {
        // Every Model key, declared or not, takes 0 or 1 (a declared one is made by
        // `QuirkKey.model`): no lookup needed.
        if key.hasPrefix("Model") { return QuirkKey.model(key).problem(with: value) }
        return AnyQuirkKey.named[key]?.problem(value)
    }
}
