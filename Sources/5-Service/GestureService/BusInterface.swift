import GestureProtocol
import Logging
import SystemBus
import SystemLoop
import TouchEvents

/// The service on the system bus (`gestured run --dbus`): a façade over the same gestures the
/// socket gives a client that subscribed to everything (without a configuration, all of the
/// service's own; with one, those whose action says `emit: true`), as signals, and the devices
/// and layouts as properties. The socket stays the protocol: nothing can be asked here but
/// properties, no region registered. docs/dbus.md describes the interface.
final class BusInterface {
    /// The well-known name, the object and its interface.
    static let name = "org.gestured.Gestured"
    static let path = "/org/gestured/Gestured"
    static let interface = "org.gestured.Gestured1"

    private let bus: SystemBus
    private let logger: Logger
    private var lastDropReport: Instant?
    private var droppedSinceReport = 0

    /// Takes the name on `bus` and exports the object; `greeting` says the devices and layouts.
    init(bus: SystemBus, logger: Logger, greeting: @escaping () -> Greeting) throws(SystemBusError) {
        self.bus = bus
        self.logger = logger
        try bus.requestName(Self.name)
        try bus.export(path: Self.path, interface: Self.interface) { property in
            Self.property(property, of: greeting())
        }
    }

    /// A property's value, from what a socket client's greeting says.
    static func property(_ name: String, of greeting: Greeting) -> BusValue? {
        switch name {
        case "Version": .string(greeting.service)
        case "ProtocolMinor": .uint32(UInt32(greeting.minor))
        case "Devices":
            .array(element: "(sss)", greeting.devices.map { .structure([.string($0.name), .string($0.kind), .string($0.node ?? "")]) })
        case "Layouts": .array(element: "s", greeting.layouts.map { .string($0) })
        default: nil
        }
    }

    /// The signal an event is: `GestureRecognized` (a tap, a swipe), `GestureBegin`,
    /// `GestureUpdate`, `GestureEnd`, `GestureCancel`.
    static func member(of state: GestureState) -> String? {
        switch state {
        case .recognized: "GestureRecognized"
        case .began: "GestureBegin"
        case .changed: "GestureUpdate"
        case .ended: "GestureEnd"
        case .cancelled: "GestureCancel"
        case .possible, .failed: nil
        }
    }

    /// A signal's arguments: kind, region, device (empty when unknown), touches, x, y, and the
    /// event's other keys by their protocol names (`a{sv}`: `taps`, `dx`, `direction`, `time` …;
    /// whole numbers as `i`, decimals as `d`, names as `s`).
    static func arguments(of event: GestureEvent) -> [BusValue] {
        var values: [(String, BusValue)] = []
        event.forEachField { key, value in
            guard !leadingKeys.contains(key) else { return }
            switch value {
            case .decimal(let v, _): values.append((key, .double(v)))
            case .integer(let n): values.append((key, .int32(Int32(clamping: n))))
            case .text(let s): values.append((key, .string(s)))
            }
        }
        return [.string(event.kind.rawValue), .string(event.region), .string(event.device ?? ""),
                .uint32(UInt32(clamping: event.touches)), .double(event.x), .double(event.y), .dictionary(values)]
    }

    /// The keys a signal carries as arguments of their own (or not at all: `state` is the
    /// signal, `client` is the socket's), kept out of its `a{sv}`.
    private static let leadingKeys: Set<String> = ["kind", "state", "region", "device", "touches", "x", "y", "client"]

    /// Sends `event` as its signal. Signals the bus does not take in time (it holds
    /// ``SystemBus/maximumQueuedSignals``) are dropped, and the drops logged at most once a second.
    func emit(_ event: GestureEvent, now: Instant) {
        guard let member = Self.member(of: event.state) else { return }
        if !bus.emit(path: Self.path, interface: Self.interface, member: member, arguments: Self.arguments(of: event)) {
            droppedSinceReport += 1
            if lastDropReport.map({ now - $0 >= .seconds(1) }) ?? true {
                logger.warning("signals dropped: the system bus is not reading them", metadata: ["dropped": "\(droppedSinceReport)"])
                lastDropReport = now
                droppedSinceReport = 0
            }
        }
    }

    /// The devices or layouts changed.
    func devicesChanged() {
        bus.propertiesChanged(path: Self.path, interface: Self.interface, names: ["Devices", "Layouts"])
    }

    func close() { bus.close() }
}
