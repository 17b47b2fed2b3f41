@testable import DeviceQuirks
import Foundation
import Testing
import TouchEvents

/// The repository's fixtures/quirks folder: libinput 1.22.1's quirks files, as Debian 12 ships them.
let quirksFolder: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path + "/fixtures/quirks/libinput-1.22.1"
}()

/// A touchpad's description, as an evemu recording has it: a name, ids, a pressure axis and
/// `BTN_TOOL_FINGER` (a touchpad by udev's rules), no udev properties.
func touchpad(_ name: String, bus: UInt16 = 0x11, vendor: UInt16 = 0x02, product: UInt16 = 0x11) -> DeviceDescription {
    DeviceDescription(
        name: name, id: InputID(bustype: bus, vendor: vendor, product: product, version: 1),
        codes: [EventType.key: [KeyCode.toolFinger, KeyCode.touch, KeyCode.left]],
        absInfo: [AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 1), AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1600, resolution: 16),
                  AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 900, resolution: 15), AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255)],
        properties: [InputProperty.pointer, InputProperty.buttonpad])
}

@Suite struct QuirksParserTests {
    /// Every file Debian's libinput 1.22 ships parses without a complaint.
    @Test func everyFileOfLibinput122ParsesCleanly() throws {
        let database = QuirksDatabase.load(directory: quirksFolder, overrides: nil)
        #expect(database.files.count == 39)
        #expect(database.problems == [])
        #expect(database.sections.count == 225)
        // In libinput's order: 10-… before 30-… before 50-….
        #expect(database.files.first?.hasSuffix("/10-generic-keyboard.quirks") == true)
        #expect(database.files.last?.hasSuffix("/50-system-toshiba.quirks") == true)
    }

    /// Every section of Debian's files, with its matches and values, exactly as the parser that
    /// read them as Characters had them (fixtures/quirks/libinput-1.22.1.parsed.txt, written by
    /// it before the byte reader replaced it; `GESTURED_RECORD_GOLDEN=1` rewrites it).
    @Test func debiansFilesParseAsTheyAlwaysHave() throws {
        let database = QuirksDatabase.load(directory: quirksFolder, overrides: nil)
        let folder = quirksFolder + "/"
        var text = ""
        for s in database.sections {
            text += "[\(s.name)] \(s.file.replacingOccurrences(of: folder, with: "")):\(s.line)\n"
            for m in s.matches { text += "  \(m)\n" }
            for p in s.properties { text += "  \(p.key)=\(p.value) :\(p.line)\n" }
        }
        let golden = quirksFolder + ".parsed.txt"
        if ProcessInfo.processInfo.environment["GESTURED_RECORD_GOLDEN"] == "1" {
            try text.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        #expect(text == (try String(contentsOfFile: golden, encoding: .utf8)))
    }

    /// A file with Windows line ends reads as one with "\n": each line ends at its "\n", its
    /// "\r" dropped (read as Characters, "\r\n" was one and no line ended there).
    @Test func windowsLineEndsEndLines() {
        let database = QuirksDatabase(text: "[Pad]\r\nMatchName=Pad*\r\nAttrPalmSizeThreshold=5\r\n", file: "crlf.quirks")
        #expect(database.problems == [])
        #expect(database.sections.map(\.name) == ["Pad"])
        #expect(database.sections.first?.properties == [QuirkProperty(key: "AttrPalmSizeThreshold", value: "5", line: 3)])
    }

    /// A malformed line is reported with its file and line, and skipped: the rest of its section
    /// and of the file is used.
    @Test func aMalformedLineIsReportedAndSkipped() {
        let text = """
            # a comment
            MatchName=before any section
            [Good]
            MatchName=*Pad
            MatchVendor=0x04F3
            AttrPalmPressureThreshold=lots
            AttrPressureRange=8:10
            AttrSizeHint=100x
            ModelSomething=2
            AttrPalmPressureThreshold=200 # a trailing comment
            FooBar=1
            AttrNewInAFutureLibinput="quoted"
             AttrTouchSizeRange=20:10
            AttrSizeHint=10x10\u{20}\u{20}
            [Widened]
            MatchName=*Pad
            MatchBus=parallel
            MatchVendor=0x04f3
            MatchDMIModalias=svnACME
            AttrPalmPressureThreshold=100
            MatchProduct=0x0001
            [No match]
            AttrPressureRange=10:8
            [No values]
            MatchName=*
            [Broken
            AttrThumbPressureThreshold=100
            """
        let database = QuirksDatabase(text: text, file: "/etc/libinput/local-overrides.quirks")
        let file = "/etc/libinput/local-overrides.quirks"
        #expect(database.problems.map(\.description) == [
            "\(file):2: a line before the first [Section]: skipped",
            "\(file):6: AttrPalmPressureThreshold takes a whole number, not lots: skipped",
            "\(file):7: AttrPressureRange takes HIGH:LOW, HIGH above LOW, or none, not 8:10: skipped",
            "\(file):8: AttrSizeHint takes WIDTHxHEIGHT, not 100x: skipped",
            "\(file):9: ModelSomething takes 0 or 1, not 2: skipped",
            "\(file):11: FooBar: a key starts with Match, Attr or Model: skipped",
            "\(file):12: AttrNewInAFutureLibinput: values take no quotes: skipped",
            "\(file):13: leading whitespace: skipped",
            "\(file):14: trailing whitespace: skipped",
            "\(file):17: MatchBus takes usb, bluetooth, ps2, rmi, i2c or spi, not parallel: skipped",
            "\(file):18: MatchVendor takes 0x and hex digits in upper case, up to 0xFFFF, not 0x04f3: skipped",
            "\(file):19: MatchDMIModalias must start with dmi:, not svnACME: skipped",
            "\(file):21: MatchProduct after the section's values: Match lines come first",
            "\(file):15: section [Widened] has a Match line that could not be read: the section is skipped",
            "\(file):22: section [No match] has no valid Match line: skipped",
            "\(file):24: section [No values] has no valid Attr or Model line: skipped",
            "\(file):26: a section's name must be in [brackets]: the section is skipped",
            "\(file):27: in the section of line 26, whose name could not be read: skipped",
        ])
        // What was good is used: the section with its two matches and its one good value; a
        // section with a Match line it could not read is not (it would apply more widely).
        #expect(database.sections.map(\.name) == ["Good"])
        #expect(database.sections[0].matches == [.name("*Pad"), .vendor(0x04F3)])
        let quirks = database.quirks(for: QuirksDevice(description: touchpad("Some Pad", bus: 0x03, vendor: 0x04F3)))
        #expect(quirks.entries.map(\.description) == ["AttrPalmPressureThreshold=200 ([Good] local-overrides.quirks:10)"])
        #expect(quirks.palmPressureThreshold == 200)
        #expect(QuirkRange(parsing: "none")?.isNone == true)
        #expect(QuirkRange(parsing: "10:10") == nil)
        #expect(QuirksMatch.hex("0x01234") == 0x1234)
        #expect(QuirksMatch.hex("0x10000") == nil)
    }

    /// Files in libinput's order: runs of digits as numbers.
    @Test func filesAreReadInVersionOrder() {
        let names = ["50-system-z.quirks", "9-early.quirks", "10-generic.quirks", "30-vendor-b.quirks", "30-vendor-a.quirks", "100-late.quirks"]
        #expect(names.sorted(by: QuirksDatabase.versionOrder)
            == ["9-early.quirks", "10-generic.quirks", "30-vendor-a.quirks", "30-vendor-b.quirks", "50-system-z.quirks", "100-late.quirks"])
    }

    /// A folder that is not there gives no files and no sections: libinput's defaults.
    @Test func noQuirksFolderMeansNoQuirks() {
        let database = QuirksDatabase.load(directory: "/nonexistent-\(UUID().uuidString)", overrides: nil)
        #expect(database.files == [])
        #expect(database.sections == [])
        #expect(database.quirks(for: QuirksDevice(description: touchpad("CyPS/2 Cypress Trackpad"))).entries == [])
    }

    /// The local overrides file comes last, and wins.
    @Test func theLocalOverridesWin() throws {
        let overrides = NSTemporaryDirectory() + "local-overrides-\(UUID().uuidString).quirks"
        try "[Mine]\nMatchName=CyPS/2 Cypress Trackpad\nAttrPalmPressureThreshold=200\n".write(toFile: overrides, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: overrides) }
        let database = QuirksDatabase.load(directory: quirksFolder, overrides: overrides)
        #expect(database.files.last == overrides)
        let quirks = database.quirks(for: QuirksDevice(description: touchpad("CyPS/2 Cypress Trackpad")))
        #expect(quirks.entries.map(\.description) == [
            "AttrPressureRange=10:8 ([Cypress Touchpads] 30-vendor-cypress.quirks:10)",
            "AttrPalmPressureThreshold=200 ([Mine] \(overrides.split(separator: "/").last!):3)",
        ])
    }
}

@Suite struct QuirksMatchTests {
    let database = QuirksDatabase.load(directory: quirksFolder, overrides: nil)

    /// Issue 45's item 1: the Cypress PS/2 pad's quirks say its pressure tells no palm.
    @Test func aCypressPS2TrackpadGetsItsPalmThreshold() {
        let quirks = database.quirks(for: QuirksDevice(description: touchpad("CyPS/2 Cypress Trackpad")))
        #expect(quirks.entries.map(\.description) == [
            "AttrPressureRange=10:8 ([Cypress Touchpads] 30-vendor-cypress.quirks:10)",
            "AttrPalmPressureThreshold=254 ([Cypress Touchpads] 30-vendor-cypress.quirks:11)",
        ])
        #expect(quirks.palmPressureThreshold == 254)
        #expect(quirks.pressureRange == QuirkRange(parsing: "10:8"))
        // MatchUdevType=touchpad: the same name on a device udev calls a mouse does not match.
        var mouse = touchpad("CyPS/2 Cypress Trackpad")
        mouse.udevProperties = ["ID_INPUT=1", "ID_INPUT_MOUSE=1"]
        #expect(database.quirks(for: QuirksDevice(description: mouse)).entries == [])
    }

    /// A section that matches on the DMI modalias matches only a device whose system's modalias
    /// is known and fits: link's Cypress pad is a Chromebook on link, and nothing more elsewhere.
    @Test func theDMIModaliasDecidesASystemSection() {
        let link = "dmi:bvncoreboot:bvr:bd:svnGOOGLE:pnLink:pvr1.0:rvnGOOGLE:rnLink:rvr:cvnGOOGLE:ct3:cvr:"
        let pad = touchpad("Cypress APA Trackpad (cyapa)", bus: 0x18, vendor: 0, product: 0)
        #expect(database.quirks(for: QuirksDevice(description: pad, dmi: link)).entries.map(\.key) == ["AttrPressureRange", "ModelChromebook"])
        #expect(database.quirks(for: QuirksDevice(description: pad)).entries.map(\.key) == ["AttrPressureRange"])
        #expect(database.quirks(for: QuirksDevice(description: pad, dmi: "dmi:svnLENOVO:pnThinkPad:")).entries.map(\.key) == ["AttrPressureRange"])
    }

    /// Bus, vendor, product (a list) and version are numbers, as udev's PRODUCT gives them.
    @Test func idsMatchAsNumbers() {
        let text = """
            [Ids]
            MatchBus=i2c
            MatchVendor=0x04F3
            MatchProduct=0x0001;0x3057
            MatchVersion=0x0100
            AttrSizeHint=100x60
            AttrResolutionHint=12x10
            """
        let database = QuirksDatabase(text: text, file: "ids.quirks")
        func quirks(bus: UInt16 = 0x18, product: UInt16 = 0x3057, version: UInt16 = 0x100) -> DeviceQuirks {
            var d = touchpad("Elan", bus: bus, vendor: 0x04F3, product: product)
            d.id.version = version
            return database.quirks(for: QuirksDevice(description: d))
        }
        #expect(quirks().sizeHint == SurfaceSize(width: 100, height: 60))
        #expect(quirks().resolutionHint == QuirkDimensions(parsing: "12x10"))
        #expect(quirks(product: 0x0001).entries.count == 2)
        #expect(quirks(product: 0x0002).entries == [])
        #expect(quirks(bus: 0x03).entries == [])
        #expect(quirks(version: 0x101).entries == [])
    }

    /// The udev type comes from the ID_INPUT_ properties a libinput recording carries, and from
    /// the device's kind where there are none (an evemu recording).
    @Test func theUdevTypeComesFromUdevOrTheKind() {
        var pad = touchpad("Pad")
        #expect(QuirksDevice(description: pad).udevTypes == ["touchpad"])
        pad.udevProperties = ["ID_INPUT=1", "ID_INPUT_TOUCHPAD=1", "ID_INPUT_KEY=1"]
        #expect(QuirksDevice(description: pad).udevTypes == ["touchpad", "keyboard"])
        pad.udevProperties = ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"]
        #expect(QuirksDevice(description: pad).udevTypes == [])
        // libinput counts a property that is set, whatever its value.
        pad.udevProperties = ["ID_INPUT=1", "ID_INPUT_MOUSE=0"]
        #expect(QuirksDevice(description: pad).udevTypes == ["mouse"])
    }

    /// AttrResolutionHint fills in only axes that report no resolution.
    @Test func aResolutionHintFillsWhatTheKernelLeftOut() {
        var d = touchpad("Pad")
        d.absInfo[AbsCode.mtPositionX]?.resolution = 0
        let hinted = d.applyingResolutionHint(QuirkDimensions(parsing: "30x20"))
        #expect(hinted.absInfo[AbsCode.mtPositionX]?.resolution == 30)
        #expect(hinted.absInfo[AbsCode.mtPositionY]?.resolution == 15)
        #expect(d.applyingResolutionHint(nil) == d)
    }
}

@Suite struct QuirkKeyTests {
    /// A `QuirkRange` of `high` and `low`.
    func range(_ high: Int32, _ low: Int32) -> QuirkRange {
        var r = QuirkRange(parsing: "none")!
        (r.high, r.low) = (high, low)
        return r
    }

    /// A `QuirkDimensions` of `width` and `height`.
    func dimensions(_ width: UInt32, _ height: UInt32) -> QuirkDimensions {
        var d = QuirkDimensions(parsing: "0x0")!
        (d.width, d.height) = (width, height)
        return d
    }

    /// `key=value` on line 3 of a section that matches "Pad" (and keeps a line of its own, so
    /// it stands without it): the problems of the file, and the typed value the pad gets.
    func read<Value>(_ key: QuirkKey<Value>, _ value: String) -> (problems: [String], value: Value?) {
        let text = "[Pad]\nMatchName=Pad\n\(key.name)=\(value)\nAttrKeyboardIntegration=internal\n"
        let database = QuirksDatabase(text: text, file: "keys.quirks")
        return (database.problems.map(\.description), database.quirks(for: QuirksDevice(description: touchpad("Pad")))[key])
    }

    /// Every declared key takes the forms its documentation names, typed, and refuses others at
    /// load with its message, byte for byte; and every declared key is tested here.
    @Test func everyDeclaredKeyTakesItsFormsAndRefusesOthers() {
        var tested: [String] = []
        func expect<Value: Equatable>(_ key: QuirkKey<Value>, takes good: [(String, Value)], refuses bad: [String],
                                      as form: String, sourceLocation: SourceLocation = #_sourceLocation) {
            tested.append(key.name)
            #expect(key.form == form, sourceLocation: sourceLocation)
            for (text, value) in good {
                let read = read(key, text)
                #expect(read.problems == [], "\(key.name)=\(text)", sourceLocation: sourceLocation)
                #expect(read.value == value, "\(key.name)=\(text)", sourceLocation: sourceLocation)
                #expect(key.parse(text) == value, "\(key.name)=\(text)", sourceLocation: sourceLocation)
            }
            for text in bad {
                let read = read(key, text)
                #expect(read.problems == ["keys.quirks:3: \(key.name) \(form), not \(text): skipped"], sourceLocation: sourceLocation)
                #expect(read.value == nil, "\(key.name)=\(text)", sourceLocation: sourceLocation)
                #expect(key.parse(text) == nil, "\(key.name)=\(text)", sourceLocation: sourceLocation)
            }
        }
        let whole = "takes a whole number"
        let numbers: [(String, UInt32)] = [("254", 254), ("0", 0), ("4294967295", .max)]
        let notNumbers = ["lots", "-1", "4294967296", "1.5", "0x10"]
        expect(.palmPressureThreshold, takes: numbers, refuses: notNumbers, as: whole)
        expect(.palmSizeThreshold, takes: numbers, refuses: notNumbers, as: whole)
        expect(.thumbPressureThreshold, takes: numbers, refuses: notNumbers, as: whole)
        expect(.thumbSizeThreshold, takes: numbers, refuses: notNumbers, as: whole)
        let ranges = [("10:8", range(10, 8)), ("none", range(0, 0)), ("-5:-10", range(-5, -10))]
        // 10:8 with a combining mark on its colon: split by Characters, one part; by bytes, a
        // second part that is no number. Either way refused.
        let notRanges = ["8:10", "10:10", "10:8:6", "10", "10:", ":8", "ten:eight", "10:\u{301}8", "None"]
        expect(.pressureRange, takes: ranges, refuses: notRanges, as: "takes HIGH:LOW, HIGH above LOW, or none")
        expect(.touchSizeRange, takes: ranges, refuses: notRanges, as: "takes HIGH:LOW, HIGH above LOW, or none")
        let sizes = [("100x60", dimensions(100, 60)), ("0x0", dimensions(0, 0))]
        let notSizes = ["100x", "x60", "100X60", "100x60x1", "100*60", "-1x60", "100x\u{301}60"]
        expect(.sizeHint, takes: sizes, refuses: notSizes, as: "takes WIDTHxHEIGHT")
        expect(.resolutionHint, takes: sizes, refuses: notSizes, as: "takes WIDTHxHEIGHT")
        expect(.pressurePad, takes: [("1", true), ("0", false)], refuses: ["2", "true", "yes", "01"], as: "takes 0 or 1")

        #expect(tested.sorted() == AnyQuirkKey.declared.map(\.name).sorted())
        #expect(Set(AnyQuirkKey.named.keys) == Set(tested))
        // A Model key no one declared is checked in the form of every Model key; an Attr key no
        // one declared is kept as written.
        let undeclared = QuirksDatabase(text: "[Pad]\nMatchName=Pad\nModelNew=2\nAttrNew=anything at all\n", file: "keys.quirks")
        #expect(undeclared.problems.map(\.description) == ["keys.quirks:3: ModelNew takes 0 or 1, not 2: skipped"])
        #expect(undeclared.sections.first?.properties == [QuirkProperty(key: "AttrNew", value: "anything at all", line: 4)])
    }

    /// The accessors other modules use give what the typed keys give: a whole number clamped
    /// to `Int32`, a size hint only where both sides are more than 0, no pressure pad unless
    /// a section says so.
    @Test func theAccessorsReadTheTypedKeys() {
        let text = """
            [Pad]
            MatchName=Pad
            AttrPalmPressureThreshold=4294967295
            AttrPalmSizeThreshold=20
            AttrThumbPressureThreshold=100
            AttrThumbSizeThreshold=30
            AttrPressureRange=10:8
            AttrTouchSizeRange=none
            AttrSizeHint=0x60
            AttrResolutionHint=12x10
            """
        let quirks = QuirksDatabase(text: text, file: "all.quirks").quirks(for: QuirksDevice(description: touchpad("Pad")))
        #expect(quirks[.palmPressureThreshold] == .max)
        #expect(quirks.palmPressureThreshold == .max)
        #expect(quirks.palmSizeThreshold == 20)
        #expect(quirks.thumbPressureThreshold == 100)
        #expect(quirks.thumbSizeThreshold == 30)
        #expect(quirks.pressureRange == range(10, 8))
        #expect(quirks.touchSizeRange?.isNone == true)
        #expect(quirks[.sizeHint] == dimensions(0, 60))
        #expect(quirks.sizeHint == nil)
        #expect(quirks.resolutionHint == dimensions(12, 10))
        #expect(quirks[.pressurePad] == nil)
        #expect(quirks.isPressurePad == false)
    }

    /// Where two matching sections set a key, the typed subscript gives the later one's value,
    /// the later line's within a section; a later value refused at load leaves the earlier
    /// one standing; a section that does not match gives nothing.
    @Test func theTypedSubscriptGivesTheWinningSectionsValue() {
        let text = """
            [Early]
            MatchName=Pad
            AttrPalmPressureThreshold=100
            AttrPressureRange=20:10
            ModelPressurePad=1
            AttrSizeHint=80x50
            [Late]
            MatchUdevType=touchpad
            AttrPalmPressureThreshold=200
            AttrPressureRange=oops
            ModelPressurePad=0
            AttrSizeHint=90x55
            AttrSizeHint=95x60
            [Elsewhere]
            MatchName=Other
            AttrPalmPressureThreshold=300
            """
        let database = QuirksDatabase(text: text, file: "order.quirks")
        #expect(database.problems.map(\.description) == ["order.quirks:10: AttrPressureRange takes HIGH:LOW, HIGH above LOW, or none, not oops: skipped"])
        let quirks = database.quirks(for: QuirksDevice(description: touchpad("Pad")))
        #expect(quirks[.palmPressureThreshold] == 200)
        #expect(quirks["AttrPalmPressureThreshold"]?.section == "Late")
        #expect(quirks[.pressurePad] == false)
        #expect(quirks[.sizeHint] == dimensions(95, 60))
        #expect(quirks[.pressureRange] == range(20, 10))
        #expect(quirks[.touchSizeRange] == nil)
    }
}
