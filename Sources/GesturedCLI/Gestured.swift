import ArgumentParser
import Logging
import TouchEvents

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
              gestured replay "fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
              gestured replay RECORDING --config examples/kiosk.yaml --json
              gestured check-config examples/kiosk.yaml
              gestured convert touchpad.evemu touchpad.yaml
              gestured devices
              gestured record /dev/input/event5 -o bug.yaml
              gestured render RECORDING --config examples/kiosk.yaml -o session.svg
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, ListenCommand.self, ReplayCommand.self, CheckConfigCommand.self, ConvertCommand.self,
                      DevicesCommand.self, RecordCommand.self, RenderCommand.self]
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
        abstract: "Play a recording through the decoder and the gesture recognizers.",
        discussion: """
            Prints every gesture event, one per line; with --json, one JSON object per line:
            {"time": 0.431, "device": "…", "kind": "tap", "state": "recognized", "region": "root", \
            "touches": 1, "x": 12.3, "y": 45.6, "taps": 2} — time in seconds from the recording's \
            first event, positions in millimetres on the device surface. Keys appear where they \
            apply: taps (tap); dx, dy, vx, vy (pan, swipe, edge-pan); scale (pinch); rotation \
            (rotate, degrees, clockwise positive); direction (swipe); edge (edge-pan).

            With --config FILE, its device rule maps the surface onto its layout: "region" names \
            the region and x, y (and dx, dy, vx, vy) are in layout units. Without it the built-in \
            layout applies: one region "root" over the whole surface with taps (1 and 2 taps, 1-5 \
            touches), long press, pan, swipe, pinch, rotate and (on touchscreens) edge pan.

            --frames prints the decoded touch frames instead ({"time": 0.0123, "contacts": [{"id": 1, \
            "slot": 0, "phase": "began", "device_x": 810, "device_y": 1650, "x": 73.6, "y": 150.0}], \
            "fingers": 1} with --json); --summary describes the device and counts what was decoded.

            --uinput plays the recording into a virtual device instead (needs /dev/uinput), with \
            its original timing or --speed X; it waits until udev has the device (and, with \
            --wait-for-log FILE, until FILE names its node), and removes it --linger ms after the \
            last event.

            Bad input stops with FILE:LINE: message and exit status 2.

            Examples:
              gestured replay "fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" --json
              gestured replay fixtures/synthetic/kiosk-session.yaml --config examples/kiosk.yaml --explain
              sudo gestured replay recording.yaml --uinput --speed 2
            """
    )

    @Argument(help: "A libinput record YAML or evemu file.")
    var recording: String

    @OptionGroup var source: RecordingOptions

    @Option(name: .long, help: ArgumentHelp("A configuration: devices, the region layout and gestures.", valueName: "FILE"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp(
        "The surface size in millimetres, e.g. 154x86; needed when the device reports no resolution.",
        valueName: "WIDTHxHEIGHT"))
    var size: String?

    @Flag(name: .long, help: "Print the decoded touch frames instead of gestures.")
    var frames = false

    @Flag(name: .long, help: "Print the device and counts of what was decoded and recognised.")
    var summary = false

    @Flag(name: .long, help: "Also say, for every recognizer that failed or lost, why (with numbers).")
    var explain = false

    @Flag(name: .long, help: "Print JSON, one object per line.")
    var json = false

    @Flag(name: .shortAndLong, help: "Say on stderr how the recording was read: format, description file, millimetre scale.")
    var verbose = false

    @Flag(name: .long, help: "Play the recording into a virtual device (uinput) with its original timing instead.")
    var uinput = false

    @Option(name: .long, help: ArgumentHelp("With --uinput: play this many times faster.", valueName: "X"))
    var speed: Double = 1

    @Option(name: .long, help: ArgumentHelp("With --uinput: before playing, wait until this file (a reader's log) names the new device's node.", valueName: "FILE"))
    var waitForLog: String?

    @Option(name: .long, help: ArgumentHelp("With --uinput: keep the device this long after the last event (ms).", valueName: "MS"))
    var linger: Double = 1000

    func validate() throws {
        if let size, SurfaceSize(parsing: size) == nil {
            throw ValidationError("--size expects WIDTHxHEIGHT in millimetres, both positive, e.g. 154x86")
        }
        if uinput && (frames || json || summary || config != nil) {
            throw ValidationError("--uinput plays the recording into a device; it prints nothing else")
        }
        if !(speed > 0 && speed <= 1000) { throw ValidationError("--speed must be more than 0 (1 plays in real time)") }
        if explain && (frames || summary) {
            throw ValidationError("--explain adds to the gesture output; it does not combine with --frames or --summary")
        }
        if summary && (frames || json) {
            throw ValidationError("--summary prints a description; it does not combine with --frames or --json")
        }
    }

    func run() throws {
        if uinput {
            var player = UInputPlayer(recordingPath: recording)
            player.descPath = source.desc
            player.deviceIndex = source.device
            player.speed = speed
            player.waitForLog = waitForLog
            player.lingerMilliseconds = linger
            var output = ProcessOutput()
            let status = player.run(output: &output)
            if status != CommandStatus.success { throw ExitCode(status) }
            return
        }
        let mode: ReplayRunner.Mode = summary ? .summary
            : frames ? (json ? .framesJSON : .frames)
            : explain ? (json ? .explainJSON : .explain) : (json ? .gesturesJSON : .gestures)
        var logger = Logger(label: "gestured") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .debug : .warning
        var runner = ReplayRunner(
            recordingPath: recording, descPath: source.desc, deviceIndex: source.device,
            size: size.flatMap(SurfaceSize.init(parsing:)), mode: mode, logger: logger)
        runner.configPath = config
        var output = ProcessOutput()
        let status = runner.run(output: &output)
        output.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}

struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file, or print the built-in layout as one.",
        discussion: """
            A valid file prints a short summary (regions and their gestures) and exits 0; the first \
            mistake prints FILE:LINE:COLUMN: message and exits 2 — unknown keys, wrong types, \
            duplicate region ids, negative sizes, unknown gesture kinds, directions or edges, \
            impossible parameters.

            Examples:
              gestured check-config examples/kiosk.yaml
              gestured check-config --print-default > my-layout.yaml
            """
    )

    @Argument(help: "The configuration file (YAML).")
    var file: String?

    @Flag(name: .long, help: "Print the built-in layout as a configuration to start from.")
    var printDefault = false

    func validate() throws {
        if file == nil && !printDefault { throw ValidationError("give a configuration file, or --print-default") }
        if file != nil && printDefault { throw ValidationError("--print-default takes no file") }
    }

    func run() throws {
        var out = ProcessOutput()
        let status = CheckConfigRunner(path: file, printDefault: printDefault).run(output: &out)
        out.flush()
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
              gestured convert "fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" taps.yaml
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

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a recording as SVG: regions, each finger's trace, and the gestures recognised.",
        discussion: """
            Replays the recording like `gestured replay` and draws the layout's regions (solid: \
            the true frame; dashed: the extended hit area), each contact's trace in its own colour \
            (dot where it landed, square where it lifted, cross where it was cancelled, a tick \
            every 100 ms) and every recognised gesture labelled where it happened, with its \
            touches, direction, scale or rotation. Open the SVG in any browser.

            Examples:
              gestured render fixtures/synthetic/kiosk-session.yaml --config examples/kiosk.yaml -o kiosk.svg
              gestured render fixtures/synthetic/pinch-rotate.yaml -o pinch.svg --png
            """
    )

    @Argument(help: "A libinput record YAML or evemu file.")
    var recording: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The SVG file to write, or - for standard output.", valueName: "OUT.svg"))
    var output: String

    @OptionGroup var source: RecordingOptions

    @Option(name: .long, help: ArgumentHelp("A configuration: devices, the region layout and gestures.", valueName: "FILE"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp(
        "The surface size in millimetres, for devices that report no resolution.", valueName: "WIDTHxHEIGHT"))
    var size: String?

    @Flag(name: .long, help: "Also write OUT.png with rsvg-convert, when it is installed (apt-get install librsvg2-bin).")
    var png = false

    func validate() throws {
        if let size, SurfaceSize(parsing: size) == nil {
            throw ValidationError("--size expects WIDTHxHEIGHT in millimetres, both positive, e.g. 154x86")
        }
    }

    func run() throws {
        var runner = RenderRunner(recordingPath: recording, outputPath: output)
        runner.descPath = source.desc
        runner.deviceIndex = source.device
        runner.size = size.flatMap(SurfaceSize.init(parsing:))
        runner.configPath = config
        runner.png = png
        var out = ProcessOutput()
        let status = runner.run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the touchscreens and touchpads, and whether you may read them.",
        discussion: """
            For each touch device udev knows: node, name, kind, seat, protocol and slots, size \
            in millimetres (or that it reports none), resolution, axis ranges, and whether this \
            user may open it — and if not, what would fix that. Exits 1 when there is none.

            Examples:
              gestured devices
              gestured devices --json | jq .node
            """
    )

    @Flag(name: .long, help: "Print JSON, one object per device and line.")
    var json = false

    func run() throws {
        var out = ProcessOutput()
        let status = DevicesRunner(json: json).run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a live device as libinput record YAML (a bug report, a fixture).",
        discussion: """
            Reads DEVICE through libevdev until Ctrl-C, --duration, or the device going away, \
            and writes its description (with the current axis values) and every event as \
            libinput record YAML v1: gestured replay and libinput replay both play it. DEVICE is \
            a node or part of a touch device's name (see gestured devices).

            Examples:
              gestured record /dev/input/event5 -o swipe.yaml
              gestured record maXTouch --duration 10 -o taps.yaml && gestured replay taps.yaml
            """
    )

    @Argument(help: "A device node (/dev/input/eventN), or part of a touch device's name.")
    var device: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The YAML file to write (default: standard output).", valueName: "FILE"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Stop after this many seconds.", valueName: "S"))
    var duration: Double?

    func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be more than 0 seconds") }
    }

    func run() throws {
        var out = ProcessOutput()
        let status = RecordRunner(device: device, outputPath: output, durationSeconds: duration).run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}
