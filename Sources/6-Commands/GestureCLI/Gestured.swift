import ArgumentParser
import DeviceQuirks
import GestureService
import SystemLoop

/// The `gestured` command line.
public struct Gestured: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "gestured",
        abstract: "Touch gestures for Linux touchscreens and touchpads.",
        discussion: """
            Recognises gestures on Linux touchscreens and touchpads: as a service on live devices \
            (run), and on recordings (libinput record YAML, evemu) through the very same decoder \
            and recognizers (replay).

            Examples:
              gestured run --config /etc/gestured/gestured.yaml
              gestured listen
              gestured replay fixtures/synthetic/desktop-touchscreen.yaml
              gestured replay RECORDING --config examples/kiosk.yaml --json
              gestured check-config examples/kiosk.yaml
              gestured convert touchpad.evemu touchpad.yaml
              gestured devices
              gestured record /dev/input/event5 -o bug.yaml
              gestured render RECORDING --config examples/kiosk.yaml -o session.svg
              gestured view RECORDING --config examples/kiosk.yaml
            """,
        version: GestureService.version,
        subcommands: [RunCommand.self, ListenCommand.self, ReplayCommand.self, CheckConfigCommand.self, ConvertCommand.self,
                      DevicesCommand.self, RecordCommand.self, SynthCommand.self, RenderCommand.self, ViewCommand.self, EvaluateCommand.self]
    )

    public init() {}
}

/// Options naming one device of a recording.
/// `--config FILE`, as `run`, `replay` and `render` take it.
struct ConfigurationOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "A configuration (YAML): devices and how they map onto the layout, the regions, gestures and actions.",
        valueName: "FILE"))
    var config: String?
}

/// Which libinput quirks a replay's device gets: the system's by default, as a live device would.
struct QuirksOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "libinput's quirks: a folder of *.quirks files, or none.",
        discussion: "Default: /usr/share/libinput, then /etc/libinput/local-overrides.quirks (what libinput reads for a live device). A folder given here is read alone.",
        valueName: "DIR"))
    var quirks: String?

    @Option(name: .long, help: ArgumentHelp(
        "The DMI modalias the quirks match laptops by (dmi:bvn…:svn…:pn…): in place of the recording's own, or this machine's for live devices.",
        valueName: "MODALIAS"))
    var dmi: String?

    func validate() throws {
        if let quirks, quirks != "none", (try? FileStatus(path: quirks))?.isDirectory != true {
            throw ValidationError("--quirks expects a folder of *.quirks files (or none); \(quirks) is not a folder")
        }
        if let dmi, !dmi.hasPrefix("dmi:") {
            throw ValidationError("--dmi expects a DMI modalias, dmi:bvn…:svn…:pn… (as /sys/class/dmi/id/modalias has it)")
        }
    }

    /// The quirks database the options name (nil: none). A line libinput's format does not
    /// allow is a warning (`FILE:LINE: what`), and the rest is used.
    func database(warningsTo output: inout some CommandOutput) -> QuirksDatabase? {
        let database: QuirksDatabase? = switch quirks {
        case "none": nil
        case let folder?: QuirksDatabase.load(directory: folder, overrides: nil)
        case nil: QuirksDatabase.load()
        }
        for problem in database?.problems ?? [] { output.warn("\(problem) (a quirks file: the line is ignored)\n") }
        return database
    }
}

struct RecordingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "evemu device description for an events-only evemu file.",
        discussion: "Without it, NAME.desc beside NAME.DESC.events is used.",
        valueName: "DESC"))
    var desc: String?

    @Option(name: .long, help: ArgumentHelp(
        "Which device of a multi-device recording to use, counting from 0 (default: the first touch device).",
        valueName: "N"))
    var device: Int?
}
