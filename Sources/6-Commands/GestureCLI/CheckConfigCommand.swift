import ArgumentParser

struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file, or print the built-in layout as one.",
        discussion: """
            A valid file prints a short summary (regions and their gestures; the devices it owns, \
            and with * the gestures that then take their touches) and exits 0; the first mistake \
            prints FILE:LINE:COLUMN: message and exits 2 — unknown keys, wrong types, duplicate \
            region ids, negative sizes, unknown gesture kinds, directions or edges, impossible \
            parameters.

            What gestured run would refuse or never reach is a warning on stderr \
            (FILE:LINE:COLUMN: warning: message), and with --strict an error (no summary, exit 2): a file \
            its group or everyone may write (run refuses it: it runs commands); a region wholly \
            outside its root; a layout no device rule drives; hold-back or end-owned-touches \
            on a touchpad rule (a touchpad's touches are owned as they land, and stay as palms); exec actions when checked as root without service.actions-as-root.

            Examples:
              gestured check-config examples/kiosk.yaml
              gestured check-config --strict /etc/gestured/gestured.yaml
              gestured check-config --print-default > my-layout.yaml
            """
    )

    @Argument(help: "The configuration file (YAML).")
    var file: String?

    @Flag(name: .long, help: "Print the built-in layout as a configuration to start from.")
    var printDefault = false

    @Flag(name: .long, help: "Treat warnings as errors (exit 2).")
    var strict = false

    func validate() throws {
        if file == nil && !printDefault { throw ValidationError("give a configuration file, or --print-default") }
        if file != nil && printDefault { throw ValidationError("--print-default takes no file") }
    }

    func run() throws {
        var out = ProcessOutput()
        let status = CheckConfigRunner(path: file, printDefault: printDefault, strict: strict).run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}
