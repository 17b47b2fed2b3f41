import ArgumentParser

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrite a recording as libinput record YAML (for libinput replay and bug reports).",
        discussion: """
            The output is libinput record YAML v1, or a single evemu 1.3 file when OUTPUT ends \
            in .evemu or .events. Event times are written relative to the first event.

            Example:
              gestured convert fixtures/recordings/evemu/3m.events 3m.yaml
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
