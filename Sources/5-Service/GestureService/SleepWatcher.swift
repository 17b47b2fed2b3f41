import Logging
import SystemBus

/// Hears the machine wake from a suspend (logind's `PrepareForSleep(false)` on the system bus:
/// `org.freedesktop.login1.Manager`), for what must be done again then: GNOME 46 and Plasma 6.1
/// stop reading a virtual touchpad after a lid close, so the `touchpad` action's is made again.
final class SleepWatcher {
    static let rule = "type='signal',sender='org.freedesktop.login1',path='/org/freedesktop/login1',"
        + "interface='org.freedesktop.login1.Manager',member='PrepareForSleep'"

    private let logger: Logger

    /// Listens on `bus`; `resumed` is called at each wake.
    init(bus: SystemBus, logger: Logger, resumed: @escaping () -> Void) throws(SystemBusError) {
        self.logger = logger
        try bus.match(Self.rule) { [logger] values in
            guard case .boolean(let sleeping)? = values.first else { return }
            logger.info(sleeping ? "the machine goes to sleep" : "the machine woke up")
            if !sleeping { resumed() }
        }
    }
}
