import ArgumentParser
import Logging
import TouchEvents

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
            the region and x, y (and dx, dy, vx, vy) are in layout units, and each gesture line \
            (not the JSON) ends with the action it would run ("→ exec /usr/bin/kiosk-ctl menu"), \
            as the service decides it: nothing is run. Without it the built-in \
            layout applies: one region "root" over the whole surface with taps (1 and 2 taps, 1-5 \
            touches), long press, pan, swipe, pinch, rotate and (on touchscreens) edge pan.

            --frames prints the decoded touch frames instead ({"time": 0.0123, "contacts": [{"id": 1, \
            "slot": 0, "phase": "began", "device_x": 810, "device_y": 1650, "x": 73.6, "y": 150.0}], \
            "fingers": 1} with --json; x and y in the layout's units with --config); --summary \
            describes the device and counts what was decoded.

            When no gesture fires, stderr says what the touches hit: each touch sequence, where it \
            landed, with how many fingers, and why its recognizers failed ("2 landed on `screen` \
            with 1 finger: no gesture for 1 finger there"); the exit status stays 0. When some \
            fired, one line there says how many touch sequences fired nothing, and the commonest \
            why. --explain \
            lists every failure, and each touch that no recognizer could take; for a device \
            the configuration owns (own: true), each touch's fate on its twin (passed, held \
            back, owned, lift withheld, ended by cancel or by lift) and, at the end, what the \
            app beneath gets ("auto" endings shown as libinput's cancel).

            --uinput plays the recording into a virtual device instead (needs /dev/uinput), with \
            its original timing or --speed X; it waits until udev has the device (and, with \
            --wait-for-log FILE, until FILE names its node), and removes it --linger ms after the \
            last event. It names the node on stderr when it makes the device, and at the end says \
            how late the latest frame was written (each is written at its offset from the start, \
            so lateness does not add up). --as-played FILE also reads the device back and writes \
            what the kernel passed on to its readers, with the times it stamped, as a recording: \
            replayed, it gives what a reader of the device should have recognized, even where the \
            player fell behind (frames it owed are written, and stamped, together).

            Bad input stops with FILE:LINE: message and exit status 2.

            Examples:
              gestured replay fixtures/synthetic/desktop-touchscreen.yaml --json
              gestured replay session.yaml --config examples/kiosk.yaml --explain
              sudo gestured replay recording.yaml --uinput --speed 2
            """
    )

    @Argument(help: "A libinput record YAML or evemu file.")
    var recording: String

    @OptionGroup var source: RecordingOptions

    @OptionGroup var configuration: ConfigurationOption
    var config: String? { configuration.config }

    @OptionGroup var quirkOptions: QuirksOptions

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

    @Option(name: .long, help: ArgumentHelp(
        "With --uinput: write the events as the kernel passed them on, with its time stamps, to FILE (libinput record YAML).",
        valueName: "FILE"))
    var asPlayed: String?

    func validate() throws {
        try quirkOptions.validate()
        if let size, SurfaceSize(parsing: size) == nil {
            throw ValidationError("--size expects WIDTHxHEIGHT in millimetres, both positive, e.g. 154x86")
        }
        if uinput && (frames || json || summary || config != nil) {
            throw ValidationError("--uinput plays the recording into a device; it prints nothing else")
        }
        if !(speed > 0 && speed <= 1000) { throw ValidationError("--speed must be more than 0 (1 plays in real time)") }
        if asPlayed != nil && !uinput { throw ValidationError("--as-played is for --uinput: it writes what was played into the device") }
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
            player.asPlayedPath = asPlayed
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
        runner.quirks = quirkOptions.database(warningsTo: &output)
        runner.dmi = quirkOptions.dmi
        let status = runner.run(output: &output)
        output.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}
