import GestureProtocol
import GestureConfiguration
import GestureRuntime
import GestureView
import SystemLoop
import TouchInput

/// What the service holds at the moment, for tests and tools, and what it tells clients.
extension GestureService {
    /// The service's version, as the greeting tells it (`gestured --version` says the same).
    public static let version = "0.1.0"

    /// Devices in use, by node.
    public var devicesInUse: [String] { runtime.sessions.compactMap(\.node) }
    /// The app the `when: {app: …}` gestures compare with (nil: none known).
    public var focusedApp: String? { dispatcher.focus.app }
    /// Keys the virtual keyboard holds for `hold` actions now.
    public var heldKeys: [UInt16] { dispatcher.desktop.heldKeys }
    /// Connected socket clients.
    public var clientCount: Int { hub.clientCount }
    /// Every connected client's context (`app` and whatever else clients say), by client.
    public var clientContexts: [Int: [String: String]] { hub.clientContexts }
    /// Regions registered by clients, over all clients.
    public var clientRegionCount: Int { hub.clientRegionCount }
    /// Actions running.
    public var runningActions: Int { dispatcher.runner.running.count }
    /// The socket's path, when there is one.
    public var socketPath: String? { hub.server?.path }
    /// What the frames' latency has been so far (with ``Options/measureLatency``).
    public var latency: LatencyMeter? { runtime.latency }
    /// The live view, when served (``Options/view``).
    public var view: LiveView? { observability.view }
    /// Where the metrics are served (with the port chosen, for port 0), when they are
    /// (``Options/metricsAddress``).
    public var metricsAddress: ListenAddress? { observability.metricsAddress }
    /// Makes the virtual keyboard and pointer (uinput); tests put recorders in its place.
    public var makeVirtualInput: (VirtualInputKind) throws(InputError) -> any VirtualInputWriter {
        get { dispatcher.makeVirtualInput }
        set { dispatcher.makeVirtualInput = newValue }
    }

    /// What a new client is told: the service's version, the devices in use and the layouts.
    var greeting: Greeting {
        let devices = runtime.sessions.map { s in
            Greeting.Device(name: s.description.name, kind: s.description.kind == .touchpad ? "touchpad" : "touchscreen", node: s.node)
        }
        let layouts = configuration.map { $0.layouts.map(\.id) } ?? ["root"]
        return Greeting(service: Self.version, devices: devices, layouts: layouts)
    }

    /// The seat a configuration names (seat0 without one).
    public static func configuredSeat(_ path: String?) throws(ServiceError) -> String {
        guard let path else { return "seat0" }
        return try loadConfiguration(path).service.seat
    }

    /// Where the socket is when nothing says otherwise.
    public static func defaultSocketPath(environment: [String: String]) -> String {
        ClientServer.defaultPath(environment: environment)
    }

    /// The configuration at `path`, refused when others may write it.
    static func loadConfiguration(_ path: String) throws(ServiceError) -> Configuration {
        try ConfigurationGuard.check(path)
        do throws(ConfigurationError) {
            return try Configuration.load(path: path)
        } catch {
            throw .configurationInvalid(error)
        }
    }
}
