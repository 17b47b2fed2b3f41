import Gestures
import TouchEvents

/// One output (screen) as the compositor describes it.
public struct ScreenOutput: Sendable, Equatable {
    /// The compositor's name for it (`eDP-1`, `HDMI-A-1`).
    public var name: String
    /// How it is turned.
    public var transform: OutputTransform
    /// Its size as the user sees it (after the transform), in the compositor's logical units.
    public var size: SurfaceSize

    public init(name: String, transform: OutputTransform, size: SurfaceSize) {
        self.name = name
        self.transform = transform
        self.size = size
    }
}

/// What the service knows of the screens while it runs: the compositor's outputs, the output
/// it maps touch devices to, and the accelerometer's orientation. Device rules with
/// `rotation: auto` or `output-name` place their device from it (``Configuration/placement(for:kind:screen:)``).
public struct ScreenState: Sendable, Equatable {
    /// The outputs the compositor reported (empty: no compositor says).
    public var outputs: [ScreenOutput] = []
    /// The output the compositor maps touch devices to (Hyprland's `input:touchdevice:output`).
    public var touchOutput: String?
    /// How the accelerometer says the device is held (iio-sensor-proxy), as the transform that
    /// keeps the picture upright; nil: none known.
    public var accelerometer: OutputTransform?

    public init(outputs: [ScreenOutput] = [], touchOutput: String? = nil, accelerometer: OutputTransform? = nil) {
        self.outputs = outputs
        self.touchOutput = touchOutput
        self.accelerometer = accelerometer
    }

    /// The output named `name`.
    public func output(named name: String) -> ScreenOutput? { outputs.first { $0.name == name } }

    /// The one built-in panel among the outputs (its connector `eDP`, `DSI` or `LVDS`: what a
    /// tablet's or a convertible's touchscreen is on, an external screen plugged in beside it).
    public var builtIn: ScreenOutput? {
        let panels = outputs.filter { o in ["eDP", "DSI", "LVDS"].contains { o.name.hasPrefix($0) } }
        return panels.count == 1 ? panels[0] : nil
    }
}

/// Where a device rule puts its device on the screen now.
public struct ScreenPlacement: Sendable, Equatable {
    /// How the screen is turned.
    public var transform: OutputTransform
    /// The size the surface maps onto, as the user sees it; nil: as the rule alone says.
    public var output: SurfaceSize?
    /// Who said so: `configuration`, `compositor output eDP-1`, `accelerometer`.
    public var source: String

    public init(transform: OutputTransform, output: SurfaceSize?, source: String) {
        self.transform = transform
        self.output = output
        self.source = source
    }
}

extension Configuration {
    /// Where `rule` puts a device of `kind` under `screen`:
    /// - a fixed rule (no `rotation: auto`, no `output-name`), or a touchpad: its `rotation`
    ///   and `output`;
    /// - `rotation: auto`: the transform and size of its output as the compositor reports it
    ///   (`output-name`, else the output the compositor maps touch devices to, else its only
    ///   output, else its one built-in panel, ``ScreenState/builtIn``); where no compositor says, the accelerometer's transform, the rule's `output`
    ///   (given as the screen stands unturned) turned with it; where nothing says, unturned;
    /// - `output-name` with a fixed `rotation`: that rotation, on the output's size.
    public func placement(for rule: DeviceRule, kind: DeviceKind, screen: ScreenState) -> ScreenPlacement {
        let fixed = ScreenPlacement(transform: OutputTransform(rule.rotation), output: rule.output, source: "configuration")
        guard rule.turns(kind: kind) else { return fixed }
        let output = rule.outputName.map { screen.output(named: $0) }
            ?? screen.touchOutput.flatMap { screen.output(named: $0) }
            ?? (screen.outputs.count == 1 ? screen.outputs[0] : screen.builtIn)
        guard rule.followsRotation else {
            guard let output else { return fixed }
            return ScreenPlacement(transform: fixed.transform, output: rule.output ?? output.size, source: "compositor output \(output.name)")
        }
        if let output {
            return ScreenPlacement(transform: output.transform, output: rule.output.map(output.transform.seen) ?? output.size,
                                   source: "compositor output \(output.name)")
        }
        if let turned = screen.accelerometer {
            return ScreenPlacement(transform: turned, output: rule.output.map(turned.seen), source: "accelerometer")
        }
        return ScreenPlacement(transform: .normal, output: rule.output, source: "unturned: nothing says how the screen is turned")
    }
}

extension RegionSpec {
    /// The region with every frame (its own and its children's) stretched by `x` across and
    /// `y` down: a layout drawn for the screen one way, re-derived for it turned. Hit insets
    /// stay: a finger is no wider on a turned screen.
    public func stretched(x sx: Double, y sy: Double) -> RegionSpec {
        var copy = self
        copy.frame = frame.map { Rect(x: $0.x * sx, y: $0.y * sy, width: $0.width * sx, height: $0.height * sy) }
        copy.children = children.map { $0.stretched(x: sx, y: sy) }
        return copy
    }
}
