import GestureView
import SystemLoop

extension GestureService {
    /// How `gestured run` was asked to run: its flags, over the configuration's settings.
    public struct Options: Sendable {
        public var configPath: String?
        /// Overrides the configuration's socket path.
        public var socketPath: String?
        /// Overrides the configuration's seat.
        public var seat: String?
        /// No client socket at all.
        public var noSocket = false
        /// Print every gesture event to stdout as a JSON line.
        public var printJSON = false
        /// Measure every frame's latency (``latency``), for `--latency-report`.
        public var measureLatency = false
        /// What all socket clients together may hold.
        public var budgets = ServiceBudgets()
        /// Serve the live view (`--view ADDRESS`): off when nil.
        public var view: LiveView.Options?
        /// Serve Prometheus metrics at `/metrics` (`--metrics ADDRESS`): off when nil.
        public var metricsAddress: ListenAddress?
        public var environment: [String: String] = [:]
        /// Read libinput's quirks files for the devices (`gestured run` does; tests leave them out).
        public var readsQuirks = false
        /// Look at the running compositor for owned touchscreens whose touches end as it needs
        /// (`end-owned-touches: auto`; `gestured run` does; tests leave it out: they find none).
        public var findsCompositor = false
        /// Offer the gestures on the system bus too (`--dbus`: `org.gestured.Gestured`,
        /// docs/dbus.md); a bus that cannot be reached is logged and the service goes on without it.
        public var dbus = false
        /// The system bus's address (`unix:path=…`), for `--dbus` and the accelerometer; nil:
        /// `$DBUS_SYSTEM_BUS_ADDRESS`, else the system's socket.
        public var systemBusAddress: String?

        public init(configPath: String? = nil) {
            self.configPath = configPath
        }
    }
}
