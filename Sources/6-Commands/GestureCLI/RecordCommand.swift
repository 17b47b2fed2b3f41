import ArgumentParser

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
              gestured record maXTouch --duration 10 -o taps.yaml
              gestured replay taps.yaml
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
