import Foundation
import Testing

/// Runs the built `gestured` binary, as a user would.
func runGestured(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gestured").path,
        repositoryRoot + "/.build/debug/gestured",
    ]
    let executable = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) })
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

@Suite("gestured executable")
struct ExecutableTests {
    @Test func badInputExitsWith2() throws {
        let folder = NSTemporaryDirectory() + "gestured-exe-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/bad.yaml"
        try "version: 1\nndevices: 1\ndevices:\n- evdev:\n    name: x\n    id: [1, 2]\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runGestured(["replay", path, "--frames", "--json"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "\(path):6:9: id must be a list of four numbers [bus, vendor, product, version]\n")
    }

    @Test func aLatencyReportThatCannotBeWrittenIsRefusedBeforeRunning() throws {
        let result = try runGestured(["run", "--no-socket", "--latency-report", "/nonexistent-folder/latency.json"])
        #expect(result.status == 2)
        #expect(result.stderr == "/nonexistent-folder/latency.json: cannot write the latency report there: No such file or directory\n")
        let folder = NSTemporaryDirectory()
        let again = try runGestured(["run", "--no-socket", "--latency-report", folder])
        #expect(again.status == 2)
        #expect(again.stderr == "\(folder): cannot write the latency report there: it is a directory\n")
    }

    /// `run --play` refuses a recording it cannot play, and a seat beside it, before running.
    @Test func aRecordingToPlayThatCannotBeReadIsRefusedBeforeRunning() throws {
        let missing = try runGestured(["run", "--no-socket", "--play", "/nonexistent-folder/taps.events"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("/nonexistent-folder/taps.events:"))
        let recording = repositoryRoot + "/fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
        let both = try runGestured(["run", "--no-socket", "--play", recording, "--seat", "seat1"])
        #expect(both.status == 2)
        #expect(both.stderr == "--play reads no seat: give --seat or --play, not both\n")
        let folder = NSTemporaryDirectory() + "/played-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "".write(toFile: folder + "/empty.events", atomically: true, encoding: .utf8)
        let empty = try runGestured(["run", "--no-socket", "--play", folder + "/empty.events"])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("empty.events:"))
    }

    /// The package's version (debian/changelog) is the one `gestured --version` prints, and its
    /// default configuration checks; help texts carry no stray line-continuation backslashes.
    @Test func thePackageAgreesWithTheBinary() throws {
        let changelog = try String(contentsOfFile: repositoryRoot + "/debian/changelog", encoding: .utf8)
        let packaged = try #require(changelog.split(separator: "\n").first?.split(separator: " ").dropFirst().first)
        let version = try runGestured(["--version"])
        #expect("(\(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))" == packaged)
        let check = try runGestured(["check-config", repositoryRoot + "/debian/gestured.yaml"])
        #expect(check.status == 0 && check.stdout.contains("OK — 1 region, 11 gestures (11 with actions)"))
        for command in ["", "run", "listen", "replay", "check-config", "convert", "devices", "record", "synth", "render", "evaluate", "view"] {
            let help = try runGestured(command.isEmpty ? ["--help"] : [command, "--help"])
            #expect(!help.stdout.contains(" \\\n"), "gestured \(command) --help")
            // Examples fit the 80 columns help is wrapped to: each line is a command of its own.
            let examples = help.stdout.components(separatedBy: "Examples:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
            for line in examples.split(separator: "\n") {
                #expect(line.hasPrefix("  gestured ") || line.hasPrefix("  sudo gestured "), "gestured \(command) --help wraps: \(line)")
            }
        }
    }

    @Test func replayPrintsFrames() throws {
        let result = try runGestured(["replay", fixture("synthetic/keyboard-and-touchpad.yaml"), "--frames", "--quirks", "none"])
        #expect(result.status == 0)
        #expect(result.stdout == """
              0.000000s  fingers 1  #1 slot 0 began (500, 300) 50.0 x 30.0 mm
              0.010000s  fingers 1  #1 slot 0 moved (510, 300) 51.0 x 30.0 mm
              0.020000s  fingers 0  #1 slot 0 ended (510, 300) 51.0 x 30.0 mm

            """)
    }

    @Test func usageErrorsAreExplained() throws {
        let size = try runGestured(["replay", fixture("synthetic/palm-during-touch.yaml"), "--size", "big"])
        #expect(size.status == 64)
        #expect(size.stderr.contains("--size expects WIDTHxHEIGHT in millimetres, both positive, e.g. 154x86"))
        let asPlayed = try runGestured(["replay", fixture("synthetic/palm-during-touch.yaml"), "--as-played", "/tmp/x.yaml"])
        #expect(asPlayed.status == 64)
        #expect(asPlayed.stderr.contains("--as-played is for --uinput: it writes what was played into the device"))
        // Refused before any device is made (this machine may have no uinput at all).
        let nowhere = try runGestured(["replay", fixture("synthetic/palm-during-touch.yaml"), "--uinput", "--as-played", "/nonexistent-folder/played.yaml"])
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr == "/nonexistent-folder/played.yaml: cannot write the recording as played there: No such file or directory\n")
        let help = try runGestured(["replay", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Examples:"))
        let quirks = try runGestured(["replay", fixture("synthetic/palm-during-touch.yaml"), "--quirks", "/nonexistent-quirks"])
        #expect(quirks.status == 64)
        #expect(quirks.stderr.contains("--quirks expects a folder of *.quirks files (or none); /nonexistent-quirks is not a folder"))
        let dmi = try runGestured(["evaluate", fixture("chromiumos"), "--dmi", "svnGOOGLE"])
        #expect(dmi.status == 64)
        #expect(dmi.stderr.contains("--dmi expects a DMI modalias, dmi:bvn…:svn…:pn… (as /sys/class/dmi/id/modalias has it)"))
    }

    /// replay --summary says which of libinput's quirks the recorded device got, and where from;
    /// a quirks line libinput's format does not allow is a warning with its place, and the rest
    /// is used.
    @Test func replaySummaryShowsTheQuirks() throws {
        let cypress = fixture("recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events")
        let result = try runGestured(["replay", cypress, "--summary", "--quirks", fixture("quirks/libinput-1.22.1")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("""
              quirks:   AttrPressureRange=10:8 ([Cypress Touchpads] 30-vendor-cypress.quirks:10)
                        AttrPalmPressureThreshold=254 ([Cypress Touchpads] 30-vendor-cypress.quirks:11)

            """))
        let none = try runGestured(["replay", cypress, "--summary", "--quirks", "none"])
        #expect(none.status == 0 && !none.stdout.contains("quirks:"))
        let folder = NSTemporaryDirectory() + "quirks-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "[Mine]\nMatchName=*Cypress Trackpad\nAttrPalmPressureThreshold=high\nAttrPressureRange=20:10\n"
            .write(toFile: folder + "/90-mine.quirks", atomically: true, encoding: .utf8)
        let bad = try runGestured(["replay", cypress, "--summary", "--quirks", folder])
        #expect(bad.status == 0)
        #expect(bad.stderr == "\(folder)/90-mine.quirks:3: AttrPalmPressureThreshold takes a whole number, not high: skipped (a quirks file: the line is ignored)\n")
        #expect(bad.stdout.contains("  quirks:   AttrPressureRange=20:10 ([Mine] 90-mine.quirks:4)\n"))
    }

    @Test func convertedEvemuReplaysToTheSameFrames() throws {
        let folder = NSTemporaryDirectory() + "gestured-exe-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = fixture("recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events")
        let converted = folder + "/taps.yaml"
        let convert = try runGestured(["convert", source, converted])
        #expect(convert.status == 0)
        #expect(convert.stderr == "wrote \(converted): Atmel maXTouch Touchscreen, 84 events\n")
        let a = try runGestured(["replay", source, "--frames", "--json", "--quirks", "none"])
        let b = try runGestured(["replay", converted, "--frames", "--json", "--quirks", "none"])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.split(separator: "\n").count == 18)

        let overwrite = try runGestured(["convert", converted, converted])
        #expect(overwrite.status == 2)
        #expect(overwrite.stderr == "\(converted): refusing to overwrite the input file\n")
    }
}

@Suite("gestured replay --verbose")
struct VerboseTests {
    @Test func saysWhichDescriptionAndScaleWereUsed() throws {
        let path = fixture("recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.tap.events")
        let result = try runGestured(["replay", path, "--verbose", "--quirks", "none"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("read recording"))
        #expect(result.stderr.contains("description=\(fixture("recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.desc"))"))
        #expect(result.stderr.contains("size_from=assumed"))
        let quiet = try runGestured(["replay", path, "--quirks", "none"])
        #expect(!quiet.stderr.contains("read recording"))
    }
}

/// Every fixture an example in `--help`, the README or docs/ names is there: examples a newcomer
/// copies must work.
@Test func examplesNameFixturesThatExist() throws {
    let pages = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
    var checkedIn: [String: Int] = [:]
    for source in ["Sources/6-Commands/GestureCLI/Gestured.swift", "README.md", "ARCHITECTURE.md"] + pages.sorted() {
        let text = try String(contentsOfFile: repositoryRoot + "/" + source, encoding: .utf8)
        var checked = 0
        defer { checkedIn[source] = checked }
        for line in text.split(separator: "\n") {
            var rest = line[...]
            while let start = rest.range(of: "fixtures/") {
                // The path runs to a quote, a backtick or the end of the line, and may hold
                // spaces: it is the longest stretch that names an existing file.
                let tail = rest[start.lowerBound...].prefix(while: { $0 != "\"" && $0 != "`" })
                var ends = tail.indices.filter { " ),;:".contains(tail[$0]) }
                ends.append(tail.endIndex)
                let candidates = ends.map { String(tail[..<$0]).trimmingSuffix(while: { ".,".contains($0) }) }
                let named = candidates.last ?? ""
                if !named.contains("*") && !named.contains("NAME") && !named.hasSuffix("/") && candidates.first?.hasSuffix("/") == false {
                    checked += 1
                    #expect(candidates.contains { FileManager.default.fileExists(atPath: repositoryRoot + "/" + $0) && !$0.hasSuffix("/") },
                            "\(source) names \(candidates.first ?? "") which is not there")
                }
                rest = rest[start.upperBound...]
            }
        }
    }
    // The places a newcomer copies commands from name fixtures (so the check checks something).
    for source in ["Sources/6-Commands/GestureCLI/Gestured.swift", "README.md", "docs/recordings.md", "docs/evaluation.md"] {
        #expect(checkedIn[source, default: 0] > 0, "\(source) names no fixture")
    }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var s = self
        while let last = s.last, predicate(last) { s.removeLast() }
        return s
    }
}
