import ArgumentParser
import Logging
import TouchEvents

/// The `gestured` command line.
public struct Gestured: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "gestured",
        abstract: "Touch gestures for Linux touchscreens and touchpads.",
        discussion: """
            Reads touch recordings (libinput record YAML, evemu) through the same multitouch \
            decoder the live service will use.

            Examples:
              gestured replay fixtures/recordings/evemu/Atmel\\ maXTouch\\ Touchscreen.4-finger-drag-down.events --frames
              gestured convert touchpad.evemu touchpad.yaml
            """,
        version: "0.1.0",
        subcommands: [ReplayCommand.self, ConvertCommand.self]
    )

    public init() {}
}

/// Options naming one device of a recording.
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

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Decode a recording into touch frames.",
        discussion: """
            Without --frames, prints the device and what was decoded. With --frames, one line \
            per frame (every SYN_REPORT that changed a contact); with --frames --json, one JSON \
            object per frame: {"time": 0.0123, "contacts": [{"id": 1, "slot": 0, "phase": "began", \
            "device_x": 810, "device_y": 1650, "x": 73.6, "y": 150.0}], "fingers": 1} — time in seconds \
            from the recording's first event, x and y in millimetres from the axis minimum.

            Bad input stops with FILE:LINE: message and exit status 2.

            Example:
              gestured replay fixtures/recordings/evemu/EP0430M09.2-fingers-touch-release.events --frames --json
            """
    )

    @Argument(help: "A libinput record YAML or evemu file.")
    var recording: String

    @OptionGroup var source: RecordingOptions

    @Option(name: .long, help: ArgumentHelp(
        "The surface size in millimetres, e.g. 154x86; needed when the device reports no resolution.",
        valueName: "WIDTHxHEIGHT"))
    var size: String?

    @Flag(name: .long, help: "Print every decoded touch frame.")
    var frames = false

    @Flag(name: .long, help: "Print JSON, one object per line (with --frames).")
    var json = false

    @Flag(name: .shortAndLong, help: "Say on stderr how the recording was read: format, description file, millimetre scale.")
    var verbose = false

    func validate() throws {
        if let size, SurfaceSize(parsing: size) == nil {
            throw ValidationError("--size expects WIDTHxHEIGHT in millimetres, both positive, e.g. 154x86")
        }
        if json && !frames {
            throw ValidationError("--json prints frames for now: add --frames (gesture output arrives with the recognizers)")
        }
    }

    func run() throws {
        let mode: ReplayRunner.Mode = frames ? (json ? .framesJSON : .frames) : .summary
        var logger = Logger(label: "gestured") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .debug : .warning
        let runner = ReplayRunner(
            recordingPath: recording, descPath: source.desc, deviceIndex: source.device,
            size: size.flatMap(SurfaceSize.init(parsing:)), mode: mode, logger: logger)
        var output = ProcessOutput()
        let status = runner.run(output: &output)
        output.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrite a recording as libinput record YAML (for libinput replay and bug reports).",
        discussion: """
            The output is libinput record YAML v1, or a single evemu 1.3 file when OUTPUT ends \
            in .evemu or .events. Event times are written relative to the first event.

            Example:
              gestured convert "fixtures/recordings/evemu/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" taps.yaml
            """
    )

    @Argument(help: "A libinput record YAML or evemu file.")
    var input: String

    @Argument(help: "The YAML file to write, or - for standard output.")
    var output: String

    @OptionGroup var source: RecordingOptions

    func run() throws {
        let runner = ConvertRunner(inputPath: input, outputPath: output, descPath: source.desc, deviceIndex: source.device)
        var out = ProcessOutput()
        let status = runner.run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}
