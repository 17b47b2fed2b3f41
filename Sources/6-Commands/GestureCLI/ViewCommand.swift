import ArgumentParser
import Foundation
import GestureConfiguration
import GestureRuntime
import GestureService
import GestureView
import Logging
import SystemLoop
import TouchEvents
import TouchRecordings

struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Watch a recording in the browser, or touch your layout there: contacts, gestures and why recognizers failed.",
        discussion: """
            Serves the live view (as gestured run --view does) for a recording: the layout's \
            regions and hit areas, the contacts with short trails (palms, thumbs and hovers marked \
            as left out), each gesture on its region, and each recognizer's failure reason for the \
            latest touches. Play starts when the page connects, at the recording's pace (--speed), \
            or --paused, to step a frame at a time. It listens on 127.0.0.1 and prints the address \
            to open, with its token; one viewer at a time. Ctrl-C stops it.

            With --config and no recording, the page is a touch bench: drag on the layout with the \
            mouse (keys 1-5: that many fingers side by side; shift-click a pivot, then a drag moves \
            two fingers about it, to pinch and rotate), or touch it on a touchscreen. The touches \
            go through the same pipeline as a device's, on a made-up device of the rule's kind \
            (or --kind) and size (or --size; else a 10.1" panel in the layout's proportions). \
            Gestures, failures and the actions they would run appear as they happen; actions \
            run only with --run-actions (as the service runs them: programs, keys, the pointer; \
            the virtual keyboard and pointer need /dev/uinput). "save as recording" downloads what was drawn as libinput record YAML \
            (and writes it to --save FILE), which replay plays to the same gestures.

            Examples:
              gestured view session.yaml --config examples/kiosk.yaml
              gestured view RECORDING --paused --listen 127.0.0.1:8700
              gestured view --config examples/kiosk.yaml --save bench.yaml
            """
    )

    @Argument(help: "A libinput record YAML or evemu file (none, with --config: the touch bench).")
    var recording: String?

    @OptionGroup var source: RecordingOptions

    @OptionGroup var configuration: ConfigurationOption

    @OptionGroup var quirkOptions: QuirksOptions

    @Option(name: .long, help: ArgumentHelp(
        "The surface size in millimetres, e.g. 154x86; needed when the device reports no resolution.",
        valueName: "WIDTHxHEIGHT"))
    var size: String?

    @Option(name: .long, help: ArgumentHelp(
        "Where to serve the page: PORT (on 127.0.0.1), HOST:PORT or [IPV6]:PORT; port 0 picks a free one.",
        valueName: "ADDRESS"))
    var listen = "127.0.0.1:0"

    @Flag(name: .long, help: "Serve on an address other machines can reach (the page shows raw touch positions).")
    var viewAllowRemote = false

    @Flag(name: .long, help: "Start paused: step a frame at a time from the page.")
    var paused = false

    @Option(name: .long, help: ArgumentHelp("Play this many times faster than recorded.", valueName: "X"))
    var speed: Double = 1

    @Option(name: .long, help: ArgumentHelp("The touch bench's device: touchscreen or touchpad (default: the rule's kind).", valueName: "KIND"))
    var kind: String?

    @Option(name: .long, help: ArgumentHelp("The touch bench writes what was drawn here too, on save.", valueName: "FILE"))
    var save: String?

    @Flag(name: .long, help: "On the touch bench, run the actions as the service would (programs, keys, the pointer), not only show them.")
    var runActions = false

    func validate() throws {
        try quirkOptions.validate()
        if recording == nil && configuration.config == nil {
            throw ValidationError("give a recording to watch, or --config FILE for the touch bench")
        }
        if recording != nil && (kind != nil || save != nil || runActions) {
            throw ValidationError("--kind, --save and --run-actions are the touch bench's (no recording)")
        }
        if recording == nil && (paused || speed != 1) { throw ValidationError("--paused and --speed play a recording") }
        if let kind, kind != "touchscreen" && kind != "touchpad" { throw ValidationError("--kind is touchscreen or touchpad, not \"\(kind)\"") }
        if let size, SurfaceSize(parsing: size) == nil {
            throw ValidationError("--size expects WIDTHxHEIGHT in millimetres, both positive, e.g. 154x86")
        }
        if !(speed > 0 && speed <= 1000) { throw ValidationError("--speed must be more than 0 and at most 1000 (1 plays in real time)") }
        if case .failure(let error) = ListenAddress.parse(listen) { throw ValidationError("--listen \(error)") }
    }

    func run() throws {
        var output = ProcessOutput()
        guard case .success(let config) = loadConfiguration(configuration.config, output: &output) else {
            output.flush()
            throw ExitCode(CommandStatus.badInput)
        }
        var logger = Logger(label: "gestured") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = .info
        guard case .success(let address) = ListenAddress.parse(listen) else { throw ExitCode(CommandStatus.badInput) }
        let clock = MonotonicClock()
        guard let recording else {
            return try runBench(config!, address: address, clock: clock, logger: logger, output: &output)
        }
        let loop: SharedEventLoop
        let view: LiveView
        let player: RecordingPlayer
        do {
            loop = try SharedEventLoop(clock: clock)
            view = try LiveView(options: LiveView.Options(address: address, allowRemote: viewAllowRemote), loop: loop, clock: clock,
                                logger: logger, source: "recording", title: recording)
            var played = RecordingPlayer.Source(path: recording, descPath: source.desc, deviceIndex: source.device,
                                                size: size.flatMap(SurfaceSize.init(parsing:)), configuration: config)
            played.quirks = quirkOptions.database(warningsTo: &output)
            played.dmi = quirkOptions.dmi
            player = try RecordingPlayer(
                source: played,
                view: view, loop: loop, clock: clock, speed: speed, paused: paused)
            try loop.handleSignals([.interrupt, .terminate]) { _ in loop.stop() }
        } catch {
            output.warn("\(error)\n")
            output.flush()
            throw ExitCode(CommandStatus.badInput)
        }
        output.write("view: \(view.url)\n")
        output.flush()
        logger.info("view: serving the recording", metadata: ["frames": "\(player.frameCount)", "address": "\(view.address)"])
        loop.run()
        view.close()
        withExtendedLifetime(player) {}
    }

    /// The touch bench: `config`'s layout drawn, the page's touches on a made-up device.
    private func runBench(_ config: GestureConfiguration.Configuration, address: ListenAddress, clock: MonotonicClock, logger: Logger,
                          output: inout ProcessOutput) throws {
        // An unwritable --save is refused now, not at the first save.
        if let save {
            var isDirectory: ObjCBool = false
            let folder = (save as NSString).deletingLastPathComponent
            let exists = FileManager.default.fileExists(atPath: save, isDirectory: &isDirectory)
            if isDirectory.boolValue || !FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder)
                || exists && !FileManager.default.isWritableFile(atPath: save) {
                output.warn("\(save): cannot write the recording there (a folder that does not exist or is not writable, or a directory)\n")
                output.flush()
                throw ExitCode(CommandStatus.badInput)
            }
        }
        let loop: SharedEventLoop
        let view: LiveView
        let bench: TouchBench
        let actions: ConfiguredActions?
        do {
            loop = try SharedEventLoop(clock: clock)
            view = try LiveView(options: LiveView.Options(address: address, allowRemote: viewAllowRemote), loop: loop, clock: clock,
                                logger: logger, source: "bench", title: config.path)
            actions = runActions ? ConfiguredActions(configuration: config, loop: loop, clock: clock, logger: logger,
                                                     environment: ProcessInfo.processInfo.environment) : nil
            bench = try TouchBench(configuration: config, kind: kind.map { $0 == "touchpad" ? .touchpad : .touchscreen },
                                   size: size.flatMap(SurfaceSize.init(parsing:)), view: view, loop: loop, clock: clock, actions: actions)
            bench.savePath = save
            bench.onSave = { written, error, events in
                if let error { logger.error("touch bench: the recording was not written: \(error)") }
                logger.info("touch bench: saved", metadata: ["events": "\(events)", "to": "\(written ?? "the page only")"])
            }
            try loop.handleSignals([.interrupt, .terminate]) { _ in loop.stop() }
        } catch {
            output.warn("\(error)\n")
            output.flush()
            throw ExitCode(CommandStatus.badInput)
        }
        output.write("view: \(view.url)\n")
        output.flush()
        logger.info("view: the touch bench", metadata: ["device": "\(bench.device.name)", "address": "\(view.address)"])
        loop.run()
        view.close()
        withExtendedLifetime((bench, actions)) {}
    }
}
