import ArgumentParser
import TouchEvents

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
              gestured render fixtures/synthetic/pinch-rotate.yaml -o pinch.svg
              gestured render session.yaml --config examples/kiosk.yaml -o kiosk.svg
              gestured render fixtures/synthetic/pinch-rotate.yaml -o pinch.svg --png
            """
    )

    @Argument(help: "A libinput record YAML or evemu file.")
    var recording: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The SVG file to write, or - for standard output.", valueName: "OUT.svg"))
    var output: String

    @OptionGroup var source: RecordingOptions

    @OptionGroup var configuration: ConfigurationOption

    @OptionGroup var quirkOptions: QuirksOptions
    var config: String? { configuration.config }

    @Option(name: .long, help: ArgumentHelp(
        "The surface size in millimetres, for devices that report no resolution.", valueName: "WIDTHxHEIGHT"))
    var size: String?

    @Flag(name: .long, help: "Also write OUT.png with rsvg-convert, when it is installed (apt-get install librsvg2-bin).")
    var png = false

    func validate() throws {
        try quirkOptions.validate()
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
        runner.quirks = quirkOptions.database(warningsTo: &out)
        runner.dmi = quirkOptions.dmi
        let status = runner.run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}
