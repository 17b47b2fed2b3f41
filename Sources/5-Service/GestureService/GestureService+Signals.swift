import SystemLoop

/// The signals the service acts on: SIGHUP reloads, SIGCHLD collects finished actions, SIGTERM
/// and SIGINT stop.
extension GestureService {
    /// What the service does on a signal.
    public enum SignalResponse: Equatable, Sendable {
        case reload, reapActions, stop, ignore
    }

    /// The signals the service handles; the loop is asked for these only.
    public static let handledSignals: [Signal] = [.hangup, .terminate, .interrupt, .child]

    /// SIGHUP reloads, SIGCHLD collects finished actions, SIGTERM and SIGINT stop; any other
    /// signal is not the service's to act on and is ignored.
    public static func response(to signal: Signal) -> SignalResponse {
        switch signal {
        case .hangup: .reload
        case .child: .reapActions
        case .terminate, .interrupt: .stop
        default: .ignore
        }
    }

    func handle(_ signal: Signal) {
        switch Self.response(to: signal) {
        case .reload: reload()
        case .reapActions: dispatcher.runner.reap()
        case .stop:
            logger.info("stopping", metadata: ["signal": "\(signal.number)"])
            loop.stop()
        case .ignore:
            logger.debug("signal ignored", metadata: ["signal": "\(signal.number)"])
        }
    }
}
