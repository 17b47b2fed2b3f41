import ArgumentParser

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Replay a labelled corpus of recordings and measure how many are recognised right.",
        discussion: """
            Every recording a labels file names is replayed with the built-in layout, and its \
            gestures are judged against its label: per class (label and fingers) the files, how \
            many were right (recall), how many of those recognised as that class were right \
            (precision) and the false gestures; per device (and per touch surface size where one \
            device's recordings have more than one); a confusion matrix; when swipes were decided. \
            --html also writes a web page with the confusion matrix as a heat map and every wrong \
            recording's trace beside what was expected. The labels file is a JSON list of records \
            with file (relative to FOLDER), \
            device, label, touches, repetitions, direction, flags and also (gestures the prompt also had \
            done, as kind/touches), as docs/evaluation.md describes.

            --gestures DIR judges other gestures by the same rules: for each recording FILE, the \
            JSON lines in DIR/FILE.jsonl, as gestured replay --json prints them (time in seconds \
            from the recording's first event, kind, state, region, touches, x, y; taps, dx, dy, scale, \
            direction where they apply). make libinput-vm writes libinput's gestures so.

            Examples:
              gestured evaluate fixtures/chromiumos
              gestured evaluate fixtures/chromiumos --wrong
              gestured evaluate fixtures/chromiumos --by-device
              gestured evaluate fixtures/chromiumos --json > evaluation.json
              gestured evaluate fixtures/chromiumos --html evaluation.html
              gestured evaluate fixtures/chromiumos --gestures out/libinput-vm/libinput
            """
    )

    @Argument(help: "The folder of recordings (and of labels.json).")
    var folder: String

    @Option(name: .long, help: ArgumentHelp("The labels file (default: FOLDER/labels.json).", valueName: "FILE"))
    var labels: String?

    @Flag(name: .long, help: "Print one JSON object instead of tables.")
    var json = false

    @Flag(name: .long, help: "Also list every wrong recording with why.")
    var wrong = false

    @Flag(name: .long, help: "Also print each device's class table (and each touch surface's, where a device has several): tune on one, check on the other.")
    var byDevice = false

    @Option(name: .long, help: ArgumentHelp("Also write the report as a web page, with every wrong recording's trace drawn.",
                                            valueName: "FILE"))
    var html: String?

    @Option(name: .long, help: ArgumentHelp("Judge the gestures of DIR/FILE.jsonl for each recording FILE instead of the replay's.",
                                            valueName: "DIR"))
    var gestures: String?

    @OptionGroup var quirkOptions: QuirksOptions

    func validate() throws { try quirkOptions.validate() }

    func run() throws {
        var out = ProcessOutput()
        var runner = EvaluateRunner(folder: folder, labelsPath: labels, json: json, listWrong: wrong, htmlPath: html,
                                    gesturesFolder: gestures)
        runner.byDevice = byDevice
        runner.quirks = quirkOptions.database(warningsTo: &out)
        runner.dmi = quirkOptions.dmi
        let status = runner.run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}
