import GestureConfiguration
import GestureRuntime
import GestureService
import SystemLoop

/// `gestured check-config FILE`: checks a configuration; prints a short summary, or the
/// first mistake as `FILE:LINE:COLUMN: message` with status 2. A valid file may still hold
/// what `run` would refuse or never reach: each is a warning on stderr
/// (`FILE:LINE:COLUMN: warning: …`), and with `strict` an error (status 2).
public struct CheckConfigRunner: Sendable {
    public var path: String?
    public var printDefault: Bool
    /// Warnings are errors: the summary is still printed, and the status is 2.
    public var strict = false
    /// The user the check runs as (0: root), for the actions run would refuse.
    public var effectiveUserID: UInt32 = FileStatus.effectiveUserID
    /// The compositor running (GNOME's and KDE's shells animate touchpad swipes of their own).
    public var compositor: @Sendable () -> RunningCompositor? = { RunningCompositor.find(askVersion: false) }
    /// `$XDG_CURRENT_DESKTOP`, where no compositor process is found (`GNOME`, `KDE`).
    public var currentDesktop: String? = ProcessEnvironment.current["XDG_CURRENT_DESKTOP"]

    public init(path: String?, printDefault: Bool, strict: Bool = false) {
        self.path = path
        self.printDefault = printDefault
        self.strict = strict
    }

    public func run(output: inout some CommandOutput) -> Int32 {
        if printDefault {
            output.write(Configuration.defaultYAML())
            return CommandStatus.success
        }
        guard let path else {
            output.warn("check-config needs a configuration file (or --print-default for a starting point)\n")
            return CommandStatus.badInput
        }
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try Configuration.load(path: path)
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
        let warnings = self.warnings(configuration)
        if strict && !warnings.isEmpty {
            // No "OK": with --strict the file is not.
            for w in warnings { output.warn(w.description.replacingFirst(": warning: ", with: ": error: ") + "\n") }
            output.warn("\(path): \(warnings.count) error\(warnings.count == 1 ? "" : "s") (--strict: warnings are errors)\n")
            return CommandStatus.badInput
        }
        output.write(configuration.summary)
        for w in warnings { output.warn(w.description + "\n") }
        return CommandStatus.success
    }

    /// The configuration's own warnings, and what this machine says: a file others may write
    /// (run refuses it: it runs commands), `exec` actions checked as root without
    /// `service.actions-as-root: true` (run, as root, runs none of them).
    func warnings(_ configuration: Configuration) -> [ConfigurationWarning] {
        var found: [ConfigurationWarning] = []
        do throws(ServiceError) {
            try ConfigurationGuard.check(configuration.path)
        } catch {
            let why = switch error {
            case .configurationNotTrusted(_, let reason): "gestured run would refuse it: \(reason)"
            default: "gestured run could not check it: \(error)"
            }
            found.append(ConfigurationWarning(path: configuration.path, line: 0, message: why))
        }
        found += configuration.warnings
        if effectiveUserID == 0, !configuration.service.actionsAsRoot,
           let exec = configuration.layouts.flatMap(\.all).flatMap(\.gestures).first(where: { $0.action?.exec != nil }) {
            found.append(ConfigurationWarning(
                path: configuration.path, line: exec.line,
                message: "exec actions: run as root (as this check is) runs none of them, and says so only at the first "
                    + "gesture; run gestured as its own user (the package's service does), or set service.actions-as-root: true"))
        }
        if let desktop = runningDesktop {
            found += configuration.warnings(shadowing: desktop.animatedSwipeFingers(on: .touchpad), of: desktop.desktop ?? desktop.name)
        }
        return found.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// GNOME's or KDE's shell, as its process or `XDG_CURRENT_DESKTOP` says; nil for any other.
    var runningDesktop: RunningCompositor? {
        if let running = compositor(), running.desktop != nil { return running }
        let names = (currentDesktop ?? "").split(separator: ":").map { $0.uppercased() }
        if names.contains("GNOME") { return RunningCompositor(name: "gnome-shell", pid: 0) }
        if names.contains("KDE") { return RunningCompositor(name: "kwin_wayland", pid: 0) }
        return nil
    }
}

extension String {
    /// The string with the first `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
