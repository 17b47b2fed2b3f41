import ArgumentParser
import GestureService

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
              gestured view RECORDING --config examples/kiosk.yaml
            """,
        version: GestureService.version,
        subcommands: [RunCommand.self, ListenCommand.self, ReplayCommand.self, CheckConfigCommand.self, ConvertCommand.self,
                      DevicesCommand.self, RecordCommand.self, RenderCommand.self, ViewCommand.self, EvaluateCommand.self]
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
