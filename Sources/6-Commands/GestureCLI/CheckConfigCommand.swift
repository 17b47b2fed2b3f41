import ArgumentParser

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
