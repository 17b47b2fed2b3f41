import ArgumentParser
import TouchEvents

struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Write a recording of touches described in words, to try a layout without the hardware.",
        discussion: """
            A script is one statement a line (# starts a comment); each starts half a second \
            after the one before ended, unless `wait TIME` says otherwise or `at TIME:` gives \
            it a time of its own:

              tap at X,Y [for TIME]                 (60 ms)
              double-tap at X,Y
              long-press at X,Y [for TIME]          (800 ms)
              swipe left|right|up|down from X,Y [by DISTANCE] [over TIME]
              drag from X,Y to X,Y [over TIME]      (500 ms)
              pinch in|out at X,Y [from DISTANCE to DISTANCE] [over TIME]
              rotate clockwise|counterclockwise at X,Y [by N degrees] [over TIME]
              wait TIME
            
            Any statement may start with a finger count: `3 fingers swipe left from 900,400 over \
            200 ms`. Fingers stand 15 mm apart in a row, centred on the position; a pinch's or \
            rotation's (2 to 10, 2 without a count) stand evenly around a circle on it, the \
            distances its diameter. TIME is `200 ms` or `1.5 s`. With --config, positions and distances are in \
            the layout's units and the surface maps onto it as the configuration's device rule \
            says; without, they are millimetres on the surface. A distance followed by mm is in \
            millimetres either way (`by 50 mm`). Times count from the script's first touch. A swipe goes 40 mm unless `by` \
            says otherwise, in 150 ms; a pinch spreads from 20 to 60 mm (in: 60 to 20), a \
            rotation turns 45°, both over 400 ms.

            The device is made up: a touchscreen (or --kind touchpad, or the kind the rule \
            matches) of --size, else the rule's size, else a 10.1" panel in the layout's \
            proportions (a touchpad: 100 x 60 mm), reporting every 10 ms while fingers move. The \
            recording is libinput record YAML: replay, view, render and evaluate read it.

            A mistake in the script prints SCRIPT:LINE:COLUMN: message and exits 2.

            Examples:
              gestured synth -e "3 fingers swipe left from 90,40" -o swipe.yaml
              gestured synth -e "tap at 206,420" --config examples/kiosk.yaml -o play.yaml
              gestured replay play.yaml --config examples/kiosk.yaml
            """
    )

    @Argument(help: "A script file (or give statements with -e).")
    var script: String?

    @Option(name: .customShort("e"), help: ArgumentHelp("A statement (repeatable), after the script's.", valueName: "STATEMENT"))
    var statements: [String] = []

    @OptionGroup var configuration: ConfigurationOption

    @Option(name: .long, help: ArgumentHelp("The device to make: touchscreen or touchpad.", valueName: "KIND"))
    var kind: String?

    @Option(name: .long, help: ArgumentHelp("The surface's size in millimetres.", valueName: "WIDTHxHEIGHT"))
    var size: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The recording to write, or - for standard output.", valueName: "FILE"))
    var output: String

    func validate() throws {
        if script == nil && statements.isEmpty { throw ValidationError("give a script file, or statements with -e") }
        if let kind, kind != "touchscreen" && kind != "touchpad" { throw ValidationError("--kind is touchscreen or touchpad, not \"\(kind)\"") }
        if let size, SurfaceSize(parsing: size).map({ $0.width > 10_000 || $0.height > 10_000 }) ?? true {
            throw ValidationError("--size must be WIDTHxHEIGHT in millimetres, both above 0 and at most 10000 (e.g. 218x136), not \"\(size)\"")
        }
    }

    func run() throws {
        var runner = SynthRunner(scriptPath: script, outputPath: output)
        runner.statements = statements
        runner.configPath = configuration.config
        runner.kind = kind.map { $0 == "touchpad" ? .touchpad : .touchscreen }
        runner.size = size.flatMap(SurfaceSize.init(parsing:))
        var out = ProcessOutput()
        let status = runner.run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}
