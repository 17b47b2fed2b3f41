import ArgumentParser
import GestureProtocol
import GestureClient
import Gestures
import Logging
import SystemLoop

struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Print the gestures a running service sends, one readable line each (or JSON lines).",
        discussion: """
            Connects to the service's socket with the client library (protocol v1, see \
            docs/protocol.md), prints the greeting's devices, then every gesture the filters let \
            through; reconnects when the service restarts. Filters: KEY=VALUE[,VALUE…] with KEY \
            one of kind, state, region, device; several --filter options must all match.

            --region registers a region of this client's own, above the service's layout (a \
            tap, a double tap and a long press on it), for trying a layout from the shell: its \
            gestures come to this client only, and it goes away when listen ends. A region the \
            service refuses ends listen with status 2.

            --exclusion registers an exclusion region (protocol 1.1): touches that begin in it \
            are left to the app beneath — the service's own gestures do not take them, and on a \
            device the service owns (own: true) they reach the app whole (docs/ownership.md).

            Examples:
              gestured listen
              gestured listen --filter kind=tap,swipe --filter region=root
              gestured listen --region ok=80,40,40,20 --own-only --exit-after 1
              gestured listen --exclusion drawer=0,200,40,400 --filter kind=edge-pan
              gestured listen --json --socket /run/gestured/gestured.sock
            """
    )

    @Option(name: .long, help: ArgumentHelp("The service's socket (default: $GESTURED_SOCKET, else /run/gestured/gestured.sock).", valueName: "PATH"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("Only these gestures: kind=…, state=…, region=… or device=… (comma-separated values).", valueName: "KEY=VALUES"))
    var filter: [String] = []

    @Option(name: .long, help: ArgumentHelp("Register a region ID at X,Y with size W,H (layout units) with a tap, double tap and long press.", valueName: "ID=X,Y,W,H"))
    var region: [String] = []

    @Option(name: .long, help: ArgumentHelp("Register an exclusion region ID at X,Y with size W,H (layout units): the service's gestures leave its touches to the app.", valueName: "ID=X,Y,W,H"))
    var exclusion: [String] = []

    @Flag(name: .long, help: "Only the gestures on the --region regions, none of the service's own.")
    var ownOnly = false

    @Option(name: .long, help: ArgumentHelp("Exit after this many gestures (1 or more).", valueName: "N"))
    var exitAfter: Int?

    @Flag(name: .long, help: "Print each message as the service sent it (JSON lines), greeting included.")
    var json = false

    @Flag(name: .long, help: "Exit when the connection ends instead of reconnecting.")
    var once = false

    func run() throws {
        // Started by a program that blocked them (a test runner, a service), it must still stop
        // on SIGTERM and Ctrl-C.
        Signal.unblockAll()
        let filter: EventFilter
        let regions: [RegionRequest]
        do {
            filter = try Self.parseFilters(self.filter)
            regions = try self.region.map { try Self.parseRegion($0) } + exclusion.map { try Self.parseRegion($0, exclusion: true) }
            if let n = exitAfter, n < 1 { throw FilterError(text: "--exit-after \(n): give 1 or more (leave it out to run until stopped)") }
        } catch let message as FilterError {
            var err = ProcessOutput()
            err.warn("gestured listen: \(message.text)\n")
            throw ExitCode(CommandStatus.badInput)
        }
        var options = GestureClient.Options(socketPath: socket ?? GestureClient.defaultSocketPath(), filter: ownOnly ? nil : filter)
        options.reconnect = !once
        let client = try GestureClient(options: options, logger: Logger(label: "gestured.listen") { _ in SwiftLogNoOpLogHandler() })
        var out = ProcessOutput()
        var err = ProcessOutput()
        for r in regions {
            do throws(ProtocolError) {
                try client.register(r) { _ in }
            } catch {
                err.warn("gestured listen: --\(r.exclusion ? "exclusion" : "region") \(r.id): \(error)\n")
                throw ExitCode(CommandStatus.badInput)
            }
        }
        var connectedOnce = false
        var count = 0
        var finished = false
        var refused = false
        let json = self.json, once = self.once, exitAfter = self.exitAfter
        client.onEvent = { [unowned client] event in
            switch event {
            case .connected(let greeting):
                connectedOnce = true
                let devices = greeting.devices.map { "\($0.name) (\($0.kind))" }.joined(separator: ", ")
                err.warn("connected: gestured \(greeting.service), protocol \(greeting.version).\(greeting.minor); devices: \(devices.isEmpty ? "none yet" : devices)\n")
                if greeting.minor < 1 && regions.contains(where: \.exclusion) {
                    err.warn("this service speaks protocol 1.0: it does not know exclusion regions (--exclusion is a plain region there)\n")
                }
                if json { out.write(ServiceMessage.greeting(greeting).jsonLine) }
            case .gesture(let g):
                out.write(json ? ServiceMessage.gesture(g).jsonLine : GestureFormatter.readable(g, unit: ""))
                count += 1
                if let exitAfter, count >= exitAfter {
                    finished = true
                    client.stop()
                }
            case .error(let e):
                err.warn("the service refused a request: \(e)\n")
                if e.field?.hasPrefix("region") == true {
                    // A --region it will not have: nothing to listen for.
                    refused = true
                    finished = true
                    client.stop()
                }
            case .disconnected(let reason):
                if finished { break }
                err.warn("\(reason)\(once ? "" : "; trying again") (is gestured running? is this user in its socket group?)\n")
            }
            out.flush()
        }
        client.run()
        if !connectedOnce || refused { throw ExitCode(CommandStatus.badInput) }
    }

    struct FilterError: Error {
        var text: String
    }

    /// `ok=80,40,40,20`: a region with a tap, a double tap and a long press; with `exclusion`,
    /// an exclusion region with no gesture.
    static func parseRegion(_ item: String, exclusion: Bool = false) throws -> RegionRequest {
        let option = exclusion ? "--exclusion" : "--region"
        let usage = "\(option) \(item): write ID=X,Y,W,H (layout units), e.g. ok=80,40,40,20"
        guard let eq = item.firstIndex(of: "="), eq != item.startIndex else { throw FilterError(text: usage) }
        let numbers = item[item.index(after: eq)...].split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { throw FilterError(text: usage) }
        guard numbers[2] >= 0, numbers[3] >= 0 else { throw FilterError(text: "\(option) \(item): width and height must be 0 or more") }
        guard numbers.allSatisfy({ abs($0) <= ProtocolLimits.maximumCoordinate }) else {
            throw FilterError(text: "\(option) \(item): coordinates go up to \(Int(ProtocolLimits.maximumCoordinate))")
        }
        let frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        if exclusion { return RegionRequest(id: String(item[..<eq]), frame: frame, exclusion: true, gestures: []) }
        return RegionRequest(id: String(item[..<eq]), frame: frame,
                             gestures: [GestureRequest(kind: .tap), GestureRequest(kind: .tap, numbers: [.taps: 2]),
                                        GestureRequest(kind: .longPress)])
    }

    /// `kind=tap,swipe` and the like, into one filter.
    static func parseFilters(_ items: [String]) throws -> EventFilter {
        var f = EventFilter()
        for item in items {
            guard let eq = item.firstIndex(of: "=") else {
                throw FilterError(text: "--filter \(item): write KEY=VALUE[,VALUE…] with KEY one of kind, state, region, device")
            }
            let key = String(item[..<eq])
            let values = item[item.index(after: eq)...].split(separator: ",").map(String.init)
            guard !values.isEmpty else { throw FilterError(text: "--filter \(item): no value after =") }
            switch key {
            case "kind":
                f.kinds = try values.map { v in
                    guard let k = GestureKind(rawValue: v), k != .custom else {
                        throw FilterError(text: "--filter \(item): unknown gesture kind \"\(v)\" (known: \(GestureKind.named.map(\.rawValue).joined(separator: ", ")))")
                    }
                    return k
                }
            case "state":
                f.states = try values.map { v in
                    guard let s = GestureState(rawValue: v) else {
                        throw FilterError(text: "--filter \(item): unknown state \"\(v)\" (known: \(GestureState.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    return s
                }
            case "region": f.regions = values
            case "device": f.devices = values
            default:
                throw FilterError(text: "--filter \(item): unknown key \"\(key)\" (known: kind, state, region, device)")
            }
        }
        return f
    }
}
