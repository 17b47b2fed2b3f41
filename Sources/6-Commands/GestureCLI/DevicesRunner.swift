import DeviceQuirks
import GestureProtocol
import GestureRuntime
import Gestures
import TouchEvents
import TouchInput

/// `gestured devices`: every touchscreen and touchpad on the machine, with what the
/// service needs to know of it, and whether this user may read it (and if not, how to fix it).
public struct DevicesRunner {
    public var json = false
    /// Where the devices come from: udev on a real machine, a list in tests.
    public var list: () throws(InputError) -> [TouchDeviceInfo]
    /// libinput's quirks (nil: not read), matched with the system's DMI modalias and device tree.
    public var quirks: QuirksDatabase?
    public var dmi: String?
    public var deviceTree: String?
    /// Finds the running compositor (``RunningCompositor/find(proc:askVersion:)``): where one is set and a
    /// touchscreen is listed, the list ends with how an owned touchscreen's touches would end
    /// here (`end-owned-touches: auto`). nil: not said.
    public var compositor: (() -> RunningCompositor?)?

    public init(json: Bool = false, list: @escaping () throws(InputError) -> [TouchDeviceInfo] = TouchDeviceInventory.list) {
        self.json = json
        self.list = list
    }

    /// What the quirks say about a device (empty: none, or no quirks read).
    func quirks(of description: DeviceDescription) -> DeviceQuirks {
        quirks?.quirks(for: QuirksDevice(description: description, dmi: dmi, deviceTree: deviceTree)) ?? DeviceQuirks()
    }

    /// 0 when at least one device was found, 1 when none was.
    public func run(output: inout some CommandOutput) -> Int32 {
        let devices: [TouchDeviceInfo]
        do throws(InputError) {
            devices = try list()
        } catch {
            output.warn("\(error)\n")
            return 1
        }
        if devices.isEmpty {
            output.warn("no touchscreen or touchpad found: udev knows none on this machine. "
                + "Check that the device is connected and that `libinput list-devices` shows it; "
                + "see docs/troubleshooting.md.\n")
            return 1
        }
        for (i, d) in devices.enumerated() {
            output.write(json ? jsonLine(d) : readable(d, first: i == 0))
        }
        if !json {
            let denied = devices.filter { $0.access != .readable }.count
            if denied > 0 { output.warn("\(denied) of \(devices.count) devices cannot be read by this user; see Access above\n") }
            if let compositor, devices.contains(where: { $0.kind == .touchscreen }) {
                output.write("\n" + Self.ownedEnding(compositor()))
            }
        }
        return 0
    }

    /// How a touchscreen's touches an owning gesture takes end with `end-owned-touches: auto`
    /// under `compositor` (nil: none running).
    static func ownedEnding(_ compositor: RunningCompositor?) -> String {
        let (ending, why) = RunningCompositor.ending(name: compositor?.name, version: compositor?.version)
        let running = compositor.map { "running: \($0)" } ?? "running: none gestured knows"
        let how = ending == .lift ? "with a lift" : "with libinput's cancel"
        return "Compositor:  \(running)\n  Owned touchscreens (own: true, end-owned-touches: auto): touches an owning gesture takes from the apps end \(how) — \(why)\n"
    }

    func readable(_ d: TouchDeviceInfo, first: Bool) -> String {
        var out = first ? "" : "\n"
        func field(_ name: String, _ value: String) { out += "  " + (name + ":").padded(to: 13) + value + "\n" }
        out += "\(d.node)\n"
        field("Name", d.name)
        field("Kind", "\(d.kind)")
        field("Seat", d.seat)
        if let desc = d.description {
            let quirks = quirks(of: desc)
            field("Protocol", protocolText(desc))
            if let s = TouchSurface(device: desc.applyingResolutionHint(quirks.resolutionHint)) {
                switch s.sizeSource {
                case .resolution:
                    field("Size", "\(s.size)" + (quirks.resolutionHint != nil && resolution(desc).0 <= 0 ? " (libinput's AttrResolutionHint)" : ""))
                case .assumed, .given:
                    if let hint = quirks.sizeHint {
                        field("Size", "\(hint) (libinput's AttrSizeHint: the device reports no resolution)")
                    } else {
                        field("Size", "unknown: the device reports no resolution (set size: in the configuration, or --size)")
                    }
                }
                field("Resolution", resolutionText(desc))
                field("Axes", "x \(s.xMinimum)…\(s.xMaximum), y \(s.yMinimum)…\(s.yMaximum)")
            }
            let lines = ReplayRunner.quirksLines(quirks, database: self.quirks, indent: "  " + "Quirks:".padded(to: 13))
            out += lines
        }
        switch d.access {
        case .readable:
            field("Access", "yes")
        case .denied(let reason, let fix):
            field("Access", "no: \(reason)")
            field("Fix", fix)
        }
        return out
    }

    func jsonLine(_ d: TouchDeviceInfo) -> String {
        var fields = ["\"node\": \(jsonString(d.node))", "\"name\": \(jsonString(d.name))",
                      "\"kind\": \"\(d.kind)\"", "\"seat\": \(jsonString(d.seat))"]
        if let desc = d.description, let s = TouchSurface(device: desc) {
            fields.append("\"protocol\": \"\(protocolName(desc))\"")
            fields.append("\"slots\": \(desc.slotCount)")
            if s.sizeSource == .resolution {
                fields.append("\"width_mm\": \(formatDecimal(s.size.width, places: 1)), \"height_mm\": \(formatDecimal(s.size.height, places: 1))")
            } else {
                fields.append("\"width_mm\": null, \"height_mm\": null")
            }
            let (x, y) = resolution(desc)
            fields.append("\"resolution\": [\(x), \(y)]")
            fields.append("\"x_range\": [\(s.xMinimum), \(s.xMaximum)], \"y_range\": [\(s.yMinimum), \(s.yMaximum)]")
            let entries = quirks(of: desc).entries.map { e in
                "{\"key\": \(jsonString(e.key)), \"value\": \(jsonString(e.value)), \"section\": \(jsonString(e.section)), "
                    + "\"file\": \(jsonString(e.file)), \"line\": \(e.line)}"
            }
            fields.append("\"quirks\": [" + entries.joined(separator: ", ") + "]")
        }
        switch d.access {
        case .readable:
            fields.append("\"readable\": true")
        case .denied(let reason, let fix):
            fields.append("\"readable\": false, \"reason\": \(jsonString(reason)), \"fix\": \(jsonString(fix))")
        }
        return "{" + fields.joined(separator: ", ") + "}\n"
    }

    private func protocolName(_ d: DeviceDescription) -> String {
        switch d.touchProtocol {
        case .slots: "slots"
        case .anonymous: "anonymous"
        case .singleTouch: "single-touch"
        case .none: "none"
        }
    }

    private func protocolText(_ d: DeviceDescription) -> String {
        switch d.touchProtocol {
        case .slots(let n): "multitouch, \(n) slots (protocol B)"
        case .anonymous: "multitouch without slots (protocol A)"
        case .singleTouch: "single touch"
        case .none: "no position axes"
        }
    }

    private func resolution(_ d: DeviceDescription) -> (Int32, Int32) {
        guard let axes = d.positionAxes else { return (0, 0) }
        return (d.absInfo[axes.x]?.resolution ?? 0, d.absInfo[axes.y]?.resolution ?? 0)
    }

    private func resolutionText(_ d: DeviceDescription) -> String {
        let (x, y) = resolution(d)
        return x > 0 && y > 0 ? "\(x) x \(y) units/mm" : "none reported"
    }
}

extension String {
    func padded(to width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
