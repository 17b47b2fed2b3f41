import GestureConfiguration
import GestureRuntime
import GestureView
import Logging
import SystemLoop
import TouchEvents

/// A configuration's actions run as the service runs them — programs, the virtual keyboard and
/// pointer, `when` conditions — for sessions outside the service: the touch bench's
/// `--run-actions` (`gestured view --config FILE --run-actions`). `emit` has no clients here.
///
/// Each layout the bench builds is handed over with ``register(_:)``; ``attach(_:)`` then gives
/// the session's recognizers their actions. Finished programs are collected and overdue ones
/// stopped after each wakeup of the loop.
public final class ConfiguredActions: TouchBenchActions {
    private let dispatcher: ActionDispatcher
    private let loop: SharedEventLoop

    public init(configuration: Configuration, loop: SharedEventLoop, clock: any TouchClock, logger: Logger) {
        dispatcher = ActionDispatcher(settings: configuration.service, loop: loop, clock: clock, logger: logger)
        self.loop = loop
        loop.addTimer(owner: ObjectIdentifier(self), next: { [unowned self] in dispatcher.nextDeadline })
        loop.afterEvents(owner: ObjectIdentifier(self)) { [unowned self] in dispatcher.tend() }
    }

    deinit {
        loop.removeWork(of: ObjectIdentifier(self))
        dispatcher.shutdown()
    }

    /// A layout built for a session about to begin, with its actions.
    public func register(_ built: BuiltLayout) {
        dispatcher.register(built)
    }

    /// The session began: its recognizers with actions run them.
    public func attach(_ session: DeviceSession) {
        dispatcher.attach(session)
    }

    /// Lets go of every key and button held (a session gone, the bench cleared).
    public func releaseAll() {
        dispatcher.shutdown()
    }
}
