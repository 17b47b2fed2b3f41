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

    /// Opens the virtual keyboard and pointer the actions need (uinput; without it their
    /// actions are skipped, and logged) and follows the compositor's focus for `when: {app: …}`
    /// gestures, as the service does at its start.
    public init(configuration: Configuration, loop: SharedEventLoop, clock: any TouchClock, logger: Logger,
                environment: [String: String] = [:]) {
        dispatcher = ActionDispatcher(settings: configuration.service, loop: loop, clock: clock, logger: logger)
        self.loop = loop
        dispatcher.openVirtualInput(for: configuration)
        dispatcher.followFocus(for: configuration, environment: environment)
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

    /// The session is over (the bench cleared): its keys and buttons held are let go, and its
    /// conditions forgotten.
    public func detach(_ session: DeviceSession) {
        dispatcher.sessionEnded(session)
    }

    /// Whether `action` can run here: a program unless refused as root, keys and the pointer
    /// when their virtual device is open; `emit` has no clients.
    public func canRun(_ action: ActionSpec) -> Bool {
        (action.exec != nil && (FileStatus.effectiveUserID != 0 || dispatcher.runner.allowRoot))
            || (action.usesKeyboard && dispatcher.desktop.keyboard != nil)
            || (action.usesPointer && dispatcher.desktop.pointer != nil)
    }
}
