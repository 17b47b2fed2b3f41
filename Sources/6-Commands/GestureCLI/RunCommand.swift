#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureRuntime
import GestureService
import GestureView
import Logging
import SystemLoop
import TouchInput
import TouchRecordings

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the gesture service on the touchscreens and touchpads of a seat.",
        discussion: """
            Discovers touch devices through libinput (following hotplug), recognises gestures \
            with the layout each device's rule names (or the built-in one), runs their actions, and \
            streams gesture events as JSON lines to socket clients (gestured listen). Only \
            touchscreens and touchpads are ever opened. Key, hold, button, scroll and pointer \
            actions drive a virtual keyboard and pointer made through /dev/uinput; when: {app: …} \
            gestures follow the focused app from sway ($SWAYSOCK), Hyprland or a socket client. \
            SIGHUP reloads the configuration (a broken file is reported and the old one stays); \
            SIGTERM and SIGINT stop it.

            The socket is $RUNTIME_DIRECTORY/gestured.sock under systemd, else \
            /run/gestured/gestured.sock, unless --socket or the configuration's service.socket \
            says otherwise.

            Examples:
              gestured run --config /etc/gestured/gestured.yaml
              gestured run --json --no-socket
              gestured run --view 8700 --metrics 9464
            """
    )

    @OptionGroup var configuration: ConfigurationOption
    var config: String? { configuration.config }

    @Flag(name: .long, help: "Print every gesture event to stdout as a JSON line.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("The client socket's path.", valueName: "PATH"))
    var socket: String?

    @Flag(name: .long, help: "Do not open a client socket.")
    var noSocket = false

    @Flag(name: .long, help: "Offer the gestures on the system bus too, as org.gestured.Gestured ($DBUS_SYSTEM_BUS_ADDRESS, else the system's bus); without a bus the service goes on without it.")
    var dbus = false

    @Option(name: .long, help: ArgumentHelp("The libinput seat (default: the configuration's, else seat0).", valueName: "NAME"))
    var seat: String?

    @Option(name: .long, help: ArgumentHelp(
        "Read no seat: play RECORDING (libinput record or evemu) as a live device instead, at its own pace, again and again a second apart: to try a configuration or a socket client without the hardware.",
        valueName: "RECORDING"))
    var play: String?

    @Option(name: .long, help: ArgumentHelp(
        "On exit, write every frame's latency (kernel time stamp → handled, p50/p99/max in µs) as JSON to FILE.",
        valueName: "FILE"))
    var latencyReport: String?

    @Option(name: .long, help: ArgumentHelp(
        "Serve the live view (layout, contacts, gestures, failures) at ADDRESS: PORT (on 127.0.0.1), HOST:PORT or [IPV6]:PORT. The address to open, with its token, is logged.",
        valueName: "ADDRESS"))
    var view: String?

    @Flag(name: .long, help: "Let --view listen on an address other machines can reach (it shows raw touch positions).")
    var viewAllowRemote = false

    @Option(name: .long, help: ArgumentHelp(
        "Serve Prometheus metrics at http://ADDRESS/metrics: PORT (on 127.0.0.1), HOST:PORT or [IPV6]:PORT. They carry no positions.",
        valueName: "ADDRESS"))
    var metrics: String?

    @Flag(name: .shortAndLong, help: "Log every recognizer transition and refused device (debug level).")
    var verbose = false

    func run() throws {
        var logger = Logger(label: "gestured") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .debug : .info
        var options = GestureService.Options(configPath: config)
        options.socketPath = socket
        options.noSocket = noSocket
        options.dbus = dbus
        options.printJSON = json
        options.measureLatency = latencyReport != nil
        options.environment = ProcessEnvironment.current
        options.readsQuirks = true
        options.findsCompositor = true
        if let view {
            guard case .success(let address) = ListenAddress.parse(view) else {
                if case .failure(let e) = ListenAddress.parse(view) { throw Self.refuse("--view \(e)") }
                return
            }
            guard address.isLoopback || viewAllowRemote else {
                throw Self.refuse("--view \(LiveView.SetupError.remoteNotAllowed(address))")
            }
            options.view = LiveView.Options(address: address, allowRemote: viewAllowRemote)
        } else if viewAllowRemote {
            throw Self.refuse("--view-allow-remote is for --view ADDRESS, which is not given")
        }
        if let metrics {
            switch ListenAddress.parse(metrics) {
            case .success(let address): options.metricsAddress = address
            case .failure(let e): throw Self.refuse("--metrics \(e)")
            }
        }
        var latency: LatencyMeter?
        if let latencyReport {
            // Refused now, not after a long run.
            if let reason = FileStatus.cannotCreate(at: latencyReport) {
                throw Self.refuse("\(latencyReport): cannot write the latency report there: \(reason)")
            }
            if (try? FileStatus(path: latencyReport))?.isDirectory == true {
                throw Self.refuse("\(latencyReport): cannot write the latency report there: it is a directory")
            }
        }
        if play != nil, seat != nil { throw Self.refuse("--play reads no seat: give --seat or --play, not both") }
        var played: PlayedDevice?
        if let play {
            let recording: Recording
            do throws(RecordingError) {
                recording = try Recording.load(path: play)
            } catch {
                throw Self.refuse("\(error)")
            }
            guard let device = recording.devices.first(where: { !$0.events.isEmpty }) else {
                throw Self.refuse("\(play): the recording has no events to play")
            }
            let name = play.split(separator: "/").last.map(String.init) ?? play
            do throws(InputError) {
                played = try PlayedDevice(node: "played:" + name, description: device.description, events: device.events)
            } catch {
                throw Self.refuse("\(error)")
            }
        }
        do throws(ServiceError) {
            let monitor: any DeviceMonitor
            if let played {
                do throws(SystemError) {
                    monitor = try PlayedDeviceMonitor(played)
                } catch {
                    throw .system(error)
                }
            } else {
                var seatName = "seat0"
                if let seat { seatName = seat } else { seatName = try GestureService.configuredSeat(config) }
                do throws(InputError) {
                    monitor = try LibinputSeat(seat: seatName, logger: logger)
                } catch {
                    throw .seat(error)
                }
            }
            let service = try GestureService(options: options, monitor: monitor, clock: MonotonicClock(), logger: logger) { line in
                _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            }
            try service.run()
            latency = service.latency
        } catch {
            throw Self.refuse("\(error)")
        }
        if let latencyReport, let latency {
            do throws(RecordingError) {
                try writeFileAtomically(latency.json + "\n", to: latencyReport)
            } catch {
                throw Self.refuse("\(error)")
            }
        }
    }

    /// Says `message` on stderr; the exit to throw for bad input.
    private static func refuse(_ message: String) -> ExitCode {
        var err = ProcessOutput()
        err.warn(message + "\n")
        return ExitCode(CommandStatus.badInput)
    }
}
