import Gestures
import TouchEvents

/// Something in a valid configuration that `gestured run` would refuse, ignore or never reach:
/// `gestured check-config` prints each (`--strict`: as errors).
public struct ConfigurationWarning: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// Where in the file (0: the file as a whole).
    public var line: Int
    public var column: Int
    public var message: String

    public init(path: String, line: Int, column: Int = 0, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: warning: message` (`FILE: warning: message` for the whole file).
    public var description: String {
        let place = line == 0 ? path : column == 0 ? "\(path):\(line)" : "\(path):\(line):\(column)"
        return "\(place): warning: \(message)"
    }
}

extension Configuration {
    /// What in the file can never take effect, by the file alone:
    /// - a region whose hit area lies wholly outside its layout's root: touches land in the
    ///   root, so none reaches it (a root without a frame is left alone: its size is the
    ///   output's);
    /// - a layout no device rule drives: its gestures never fire;
    /// - a region wholly covered by the true frame of a later sibling that is shown and enabled:
    ///   hit testing picks the front-most (the later), so no touch reaches it;
    /// - a device rule whose `output` is smaller than its layout's root frame: the device maps
    ///   onto the output's rectangle from the layout's origin, and what lies beyond is out of
    ///   reach;
    /// - `hold-back` on a rule that matches only touchpads: it applies to owned touchscreens
    ///   only (a touchpad's touches are owned by their count as they land).
    /// The service's own checks (the file's permissions, actions as root) need the machine:
    /// `gestured check-config` adds them.
    public var warnings: [ConfigurationWarning] {
        var found: [ConfigurationWarning] = []
        for root in layouts {
            guard let rootFrame = root.frame else { continue }
            func walk(_ spec: RegionSpec, origin: Point) {
                // A child without a frame covers its parent (the root's size, from its origin).
                let frame = spec.frame ?? Rect(x: 0, y: 0, width: rootFrame.width, height: rootFrame.height)
                let absolute = Rect(x: origin.x + frame.x, y: origin.y + frame.y, width: frame.width, height: frame.height)
                // Hidden or disabled regions never extend (their hit area is their frame).
                let insets = spec.hidden || !spec.enabled ? EdgeInsets.zero : spec.hitInsets
                let area = absolute.inset(by: insets)
                // Touches land in the root, its edges included (a point beyond is moved onto them).
                let overlaps = area.maxX >= rootFrame.minX && area.minX <= rootFrame.maxX
                    && area.maxY >= rootFrame.minY && area.minY <= rootFrame.maxY
                if spec.id != root.id, !overlaps {
                    found.append(ConfigurationWarning(
                        path: path, line: spec.line, column: spec.column,
                        message: "region \"\(spec.id)\" lies wholly outside its root \"\(root.id)\" "
                            + "(at \(Self.describe(area)); the root is \(Self.describe(rootFrame))): no touch can reach it"))
                }
                // A region no touch reaches past a later sibling in front of it.
                let childOrigin = Point(x: absolute.x, y: absolute.y)
                func placed(_ child: RegionSpec) -> Rect {
                    let f = child.frame ?? Rect(x: 0, y: 0, width: rootFrame.width, height: rootFrame.height)
                    return Rect(x: childOrigin.x + f.x, y: childOrigin.y + f.y, width: f.width, height: f.height)
                }
                for (i, child) in spec.children.enumerated() where !child.hidden && child.enabled {
                    let area = placed(child).inset(by: child.hitInsets)
                    guard let front = spec.children[(i + 1)...].last(where: { later in
                        guard !later.hidden, later.enabled else { return false }
                        let cover = placed(later)
                        return cover.minX <= area.minX && cover.minY <= area.minY && cover.maxX >= area.maxX && cover.maxY >= area.maxY
                    }) else { continue }
                    found.append(ConfigurationWarning(
                        path: path, line: child.line, column: child.column,
                        message: "region \"\(child.id)\" is wholly covered by \"\(front.id)\", a later sibling in front of it "
                            + "(at \(Self.describe(placed(front)))): no touch can reach it"))
                }
                for child in spec.children { walk(child, origin: childOrigin) }
            }
            walk(root, origin: .zero)
        }
        for rule in devices {
            // A screen that turns stretches its layout to the output (Screens that turn).
            guard !rule.turns(kind: .touchscreen), let output = rule.output, let rootFrame = layout(for: rule).frame,
                  output.width < rootFrame.maxX || output.height < rootFrame.maxY else { continue }
            let l = layout(for: rule)
            found.append(ConfigurationWarning(
                path: path, line: rule.line,
                message: "output [\(Self.number(output.width)), \(Self.number(output.height))] maps the device "
                    + "onto 0, 0, \(Self.number(output.width)) × \(Self.number(output.height)) of layout \"\(l.id)\", "
                    + "whose root is \(Self.describe(rootFrame)): no touch reaches beyond it"))
        }
        for (i, l) in layouts.enumerated() where layouts.count > 1 {
            let driven = devices.isEmpty ? i == 0 : devices.contains { drives($0, layout: l.id) }
            guard !driven else { continue }
            let gestures = l.all.flatMap(\.gestures).count
            found.append(ConfigurationWarning(
                path: path, line: l.line, column: l.column,
                message: "layout \"\(l.id)\" is driven by no device rule (give a rule `layout: \(l.id)`): "
                    + "its \(gestures) gesture\(gestures == 1 ? "" : "s") never fire"))
        }
        for rule in devices where rule.holdBack > .zero && rule.kind == .touchpad {
            found.append(ConfigurationWarning(
                path: path, line: rule.line,
                message: "hold-back applies only to owned touchscreens (`own: true`): "
                    + "a touchpad's touches are owned by their count as they land, so it is ignored"))
        }
        for rule in devices where rule.ending != .automatic && rule.kind == .touchpad {
            found.append(ConfigurationWarning(
                path: path, line: rule.line,
                message: "end-owned-touches applies only to owned touchscreens: a touchpad's owned touches stay on its twin "
                    + "as palms, which libinput leaves out, so it is ignored"))
        }
        return found.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// `x, y, width × height`.
    private static func describe(_ r: Rect) -> String {
        "\(formatDecimal(r.x, places: 1)), \(formatDecimal(r.y, places: 1)), \(formatDecimal(r.width, places: 1)) × \(formatDecimal(r.height, places: 1))"
    }

    /// A number as a configuration writes it: `800`, `12.5`.
    private static func number(_ value: Double) -> String {
        formatDecimal(value, places: 1, trailingZeros: .trimAll)
    }
}

extension Configuration {
    /// Gestures of an owned touchpad that take a finger count the desktop's shell animates
    /// itself (`fingers`: GNOME's and KDE Plasma's three- and four-finger swipes, for the
    /// workspaces and the overview): the touchpad's sequences of that count are gestured's as
    /// soon as the fingers land, and `desktop` never sees them. `gestured check-config` adds
    /// these when it finds that desktop running.
    public func warnings(shadowing fingers: Set<Int>, of desktop: String) -> [ConfigurationWarning] {
        var found: [ConfigurationWarning] = []
        var warned: Set<Int> = []
        for rule in devices where rule.own && rule.kind != .touchscreen {
            let ids = Set([layout(for: rule).id] + (rule.portraitLayout.map { [$0] } ?? []))
            for root in layouts where ids.contains(root.id) {
                func walk(_ spec: RegionSpec, passThrough inherited: Bool?) {
                    let passThrough = spec.passThrough ?? inherited
                    for g in spec.gestures where g.ownsTouches(inheritedPassThrough: passThrough) && !warned.contains(g.line) {
                        let recognizer = g.makeRecognizer()
                        let taken = fingers.filter { recognizer.fingerCounts?.contains($0) == true }.sorted()
                        guard !taken.isEmpty else { continue }
                        warned.insert(g.line)
                        let counts = taken.map(String.init).joined(separator: " and ")
                        found.append(ConfigurationWarning(
                            path: path, line: g.line,
                            message: "\(recognizer.name) owns \(counts)-finger touchpad touches (the touchpad is owned: line \(rule.line)), "
                                + "which \(desktop) animates itself (its workspace and overview swipes): \(desktop) never sees them; "
                                + "give the gesture other finger counts, or pass-through: true to share them"))
                    }
                    for child in spec.children { walk(child, passThrough: passThrough) }
                }
                walk(root, passThrough: nil)
            }
        }
        return found
    }
}
