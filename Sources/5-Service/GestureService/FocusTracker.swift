import Logging

/// Which app has the focus, as the last source to say so tells it — the compositor
/// (``CompositorLink``: sway, Hyprland) or a socket client's `context` (`{"app": …}`). The
/// `when: {app: …}` gestures follow it.
final class FocusTracker {
    /// The focused app (a Wayland `app_id` or an X11 class), nil when none is known.
    private(set) var app: String?
    /// Who said so last: `sway`, `hyprland`, `client 3`.
    private(set) var source: String?
    /// Called after every change.
    var onChange: (() -> Void)?
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// `source` says `app` has the focus now (nil: no app, e.g. an empty workspace).
    func report(_ app: String?, from source: String) {
        let changed = app != self.app
        self.app = app
        self.source = source
        guard changed else { return }
        // At debug, and cut short: a client may say anything here, as often as its rate
        // allows, and every window switch is one.
        let said = app.map { $0.count > 32 ? String($0.prefix(32)) + "… (\($0.count) chars)" : $0 } ?? "none"
        logger.debug("focused app", metadata: ["app": "\(said)", "from": "\(source)"])
        onChange?()
    }

    /// `source` is gone: what it said no longer holds.
    func forget(_ source: String) {
        guard self.source == source else { return }
        report(nil, from: source)
        self.source = nil
    }
}
