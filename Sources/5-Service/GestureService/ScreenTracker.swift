import GestureConfiguration
import Gestures
import Logging

/// What the service knows of the screens (``ScreenState``), as its sources tell it: the
/// compositor's outputs (``CompositorLink``) and the accelerometer (``Accelerometer``). Each
/// change is logged once, and ``onChange`` hears it with the state before, so that the devices
/// whose screen turned start over (their touches in flight cancelled, never misdelivered).
final class ScreenTracker {
    private(set) var state = ScreenState()
    /// Called after every change, with the state before it.
    var onChange: ((ScreenState) -> Void)?
    /// Who told the outputs (`sway`, `hyprland`).
    private var outputsSource: String?
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The compositor `source` says its outputs are `outputs`.
    func report(outputs: [ScreenOutput], from source: String) {
        outputsSource = source
        guard outputs != state.outputs else { return }
        let described = outputs.map { "\($0.name) \($0.transform) \(Int($0.size.width.rounded()))x\(Int($0.size.height.rounded()))" }
        logger.info("screens", metadata: ["from": "\(source)", "outputs": "\(described.joined(separator: "; "))"])
        change { $0.outputs = outputs }
    }

    /// The compositor maps touch devices to the output `name` (nil: it names none).
    func report(touchOutput name: String?) {
        guard name != state.touchOutput else { return }
        logger.info("touch devices mapped to an output", metadata: ["output": "\(name ?? "none")"])
        change { $0.touchOutput = name }
    }

    /// The accelerometer says the picture stands upright under `transform`.
    func report(accelerometer transform: OutputTransform) {
        guard transform != state.accelerometer else { return }
        logger.info("the accelerometer turned the screen", metadata: ["transform": "\(transform)"])
        change { $0.accelerometer = transform }
    }

    /// The compositor `source` is gone: its outputs no longer hold.
    func forgetOutputs(from source: String) {
        guard outputsSource == source else { return }
        outputsSource = nil
        guard !state.outputs.isEmpty || state.touchOutput != nil else { return }
        change {
            $0.outputs = []
            $0.touchOutput = nil
        }
    }

    private func change(_ body: (inout ScreenState) -> Void) {
        let before = state
        body(&state)
        onChange?(before)
    }
}
