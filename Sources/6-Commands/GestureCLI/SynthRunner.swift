import Foundation
import GestureConfiguration
import Gestures
import TouchScripts
import TouchEvents
import TouchRecordings

/// `gestured synth`: a script of touches in words (`TouchScript.init(parsing:units:)`, the
/// TouchScripts library's grammar, which the test kit shares) written as a libinput-record recording of a made-up
/// device, to try a layout before the hardware arrives: positions in a configuration's layout
/// units, on a surface of its device rule's size.
public struct SynthRunner: Sendable {
    /// The script file (nil: only `statements`).
    public var scriptPath: String?
    /// Statements given on the command line (`-e`), after the file's.
    public var statements: [String] = []
    public var configPath: String?
    /// The device to make (nil: the configuration's first rule's kind, else a touchscreen).
    public var kind: DeviceKind?
    /// Its size in mm (nil: the rule's `size`, else a 10.1" panel in the layout's proportions,
    /// or a 100 × 60 mm touchpad).
    public var size: SurfaceSize?
    /// Where to write the recording (`-`: standard output).
    public var outputPath: String

    public init(scriptPath: String?, outputPath: String) {
        self.scriptPath = scriptPath
        self.outputPath = outputPath
    }

    public func run(output: inout some CommandOutput) -> Int32 {
        guard case .success(let configuration) = loadConfiguration(configPath, output: &output) else { return CommandStatus.badInput }
        var text = ""
        let name = scriptPath ?? "-e"
        if let scriptPath {
            guard let contents = try? String(contentsOfFile: scriptPath, encoding: .utf8) else {
                output.warn("\(scriptPath): cannot read the script (missing, unreadable or not UTF-8)\n")
                return CommandStatus.badInput
            }
            text = contents
        }
        // -e statements come after the file's lines, numbered on from them.
        let fileLines = text.isEmpty ? 0 : text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
        if !statements.isEmpty { text += (text.isEmpty || text.hasSuffix("\n") ? "" : "\n") + statements.joined(separator: "\n") }

        var device: DeviceDescription
        var matched: DeviceRule?
        if let configuration {
            do throws(SyntheticDeviceError) {
                (device, matched) = try configuration.syntheticDevice(kind: kind, size: size)
            } catch {
                output.warn("\(error)\n")
                return CommandStatus.badInput
            }
        } else {
            let kind = self.kind ?? .touchscreen
            device = DeviceDescription.synthetic(kind: kind, size: size ?? SurfaceSize.synthetic(kind: kind, proportions: nil))
        }
        // The size a replay reads from its axes.
        let surfaceSize = TouchSurface(device: device)?.size ?? SurfaceSize(width: 0, height: 0)
        let units: TouchScriptUnits
        if let configuration, let matched {
            let mapping = configuration.mapping(for: matched, surface: surfaceSize, kind: device.kind).mapping
            let onSurface: @Sendable (Point) -> Bool = { mm in
                mm.x >= -0.05 && mm.y >= -0.05 && mm.x <= surfaceSize.width + 0.05 && mm.y <= surfaceSize.height + 0.05
            }
            let a = mapping.point(.zero), b = mapping.point(Point(x: surfaceSize.width, y: surfaceSize.height))
            var extent = "\(formatDecimal(min(a.x, b.x), places: 1)),\(formatDecimal(min(a.y, b.y), places: 1)) to "
                + "\(formatDecimal(max(a.x, b.x), places: 1)),\(formatDecimal(max(a.y, b.y), places: 1))"
            // With several rules, which one made the surface (the first that takes the kind).
            if configuration.devices.count > 1 {
                extent += " on the \(device.kind) of the device rule on line \(matched.line); --kind chooses another"
            }
            units = TouchScriptUnits(surfacePoint: { p in
                guard let mm = mapping.surfacePoint(p), onSurface(mm) else { return nil }
                return mm
            }, perMillimetre: mapping.scale, onSurface: onSurface, extent: extent)
        } else {
            let onSurface: @Sendable (Point) -> Bool = { p in
                p.x >= 0 && p.y >= 0 && p.x <= surfaceSize.width && p.y <= surfaceSize.height
            }
            units = TouchScriptUnits(surfacePoint: { p in onSurface(p) ? p : nil }, perMillimetre: 1, onSurface: onSurface,
                                     extent: "0,0 to \(formatDecimal(surfaceSize.width, places: 1)),\(formatDecimal(surfaceSize.height, places: 1)) mm")
        }
        let script: TouchScript
        do throws(TouchScriptError) {
            script = try TouchScript(parsing: text, units: units)
        } catch {
            let (file, line) = error.line > fileLines && scriptPath != nil ? ("-e", error.line - fileLines) : (name, error.line)
            output.warn("\(file):\(line):\(error.column): \(error.message)\n")
            return CommandStatus.badInput
        }
        let frames = script.frames
        guard !frames.isEmpty else {
            output.warn("\(name): the script has no touches\n")
            return CommandStatus.badInput
        }
        var encoder = TouchFrameEncoder(device: device)
        var events: [InputEvent] = []
        for frame in frames { events += encoder.events(for: frame) }
        device.udevProperties.append("GESTURED_SYNTH=1")
        let recorded = RecordedDevice(description: device, events: events, eventLines: [])
        let yaml = LibinputRecordWriter(source: "the touch script \(name) (gestured synth)").yaml(for: recorded)
        if outputPath == "-" {
            output.write(yaml)
        } else {
            do throws(RecordingError) {
                try writeFileAtomically(yaml, to: outputPath)
            } catch {
                output.warn("\(error)\n")
                return CommandStatus.badInput
            }
        }
        let span = formatDecimal(Double((frames.last!.time - frames.first!.time).inMicroseconds) / 1_000_000, places: 3)
        let target = outputPath == "-" ? "standard output" : outputPath
        var said = "wrote \(target): \(device.name), \(surfaceSize), \(events.count) events in \(frames.count) frames over \(span) s"
        if outputPath != "-" { said += ". Try it: gestured replay \(outputPath)" + (configPath.map { " --config \($0)" } ?? "") }
        output.warn(said + "\n")
        return CommandStatus.success
    }

}
