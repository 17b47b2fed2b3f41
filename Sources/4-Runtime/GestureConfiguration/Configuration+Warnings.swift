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
                for child in spec.children { walk(child, origin: Point(x: absolute.x, y: absolute.y)) }
            }
            walk(root, origin: .zero)
        }
        for (i, l) in layouts.enumerated() where layouts.count > 1 {
            let driven = devices.isEmpty ? i == 0 : devices.contains { layout(for: $0).id == l.id }
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
}
