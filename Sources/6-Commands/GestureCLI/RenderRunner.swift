import DeviceQuirks
#if canImport(Glibc)
import Glibc
#endif
import GestureReplay
import GestureRuntime
import GestureConfiguration
import Gestures
import TouchEvents
import TouchRecordings

/// `gestured render RECORDING -o OUT.svg`: replays a recording and draws what happened
/// (see ``SVGRenderer``); with `png`, also converts the SVG with `rsvg-convert` when it is
/// installed.
public struct RenderRunner: Sendable {
    public var recordingPath: String
    public var outputPath: String
    public var descPath: String?
    public var deviceIndex: Int?
    public var size: SurfaceSize?
    public var configPath: String?
    /// libinput's quirks for the recorded device (nil: none), matched with `dmi` or the
    /// recording's own DMI modalias.
    public var quirks: QuirksDatabase?
    public var dmi: String?
    /// Also write OUT.png beside the SVG through `rsvg-convert`.
    public var png = false

    public init(recordingPath: String, outputPath: String) {
        self.recordingPath = recordingPath
        self.outputPath = outputPath
    }

    public func run(output: inout some CommandOutput) -> Int32 {
        guard case .success(let configuration) = loadConfiguration(configPath, output: &output) else {
            return CommandStatus.badInput
        }
        do throws(RecordingError) {
            var frames: [TouchFrame] = []
            let result = try RecordingReplay.run(
                path: recordingPath, descPath: descPath, deviceIndex: deviceIndex, size: size,
                rules: configuration, onFrame: { frames.append($0) }, quirks: quirks, dmi: dmi)
            if result.surface.sizeSource == .assumed {
                output.warn(ReplayRunner.assumedSizeWarning(result.device.description, result.surface))
            }
            let title = baseName(recordingPath)
            let svg = SVGRenderer(title: title, result: result, frames: frames,
                                  unit: configuration == nil ? "mm" : "layout units").render()
            if outputPath == "-" {
                output.write(svg)
            } else {
                try writeFileAtomically(svg, to: outputPath)
                output.warn("wrote \(outputPath): \(Set(frames.flatMap { $0.contacts.map(\.id) }).count) contacts, "
                    + "\(result.gestures.count) gesture events\n")
            }
            if png {
                guard outputPath != "-" else {
                    output.warn("--png needs an output file, not -\n")
                    return CommandStatus.badInput
                }
                let pngPath = (outputPath.hasSuffix(".svg") ? String(outputPath.dropLast(4)) : outputPath) + ".png"
                switch convertToPNG(svg: outputPath, png: pngPath) {
                case .converted: output.warn("wrote \(pngPath)\n")
                case .noConverter:
                    output.warn("--png: rsvg-convert is not installed (apt-get install librsvg2-bin); the SVG is written\n")
                    return 1
                case .failed(let status):
                    output.warn("--png: rsvg-convert failed (exit \(status)); the SVG is written\n")
                    return 1
                }
            }
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }

    enum Conversion: Equatable { case converted, noConverter, failed(Int32) }

    /// Runs `rsvg-convert` found on PATH; never a dependency, only used when present.
    func convertToPNG(svg: String, png: String) -> Conversion {
        let path: String = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        guard let tool = path.split(separator: ":").map({ (dir: Substring) -> String in dir + "/rsvg-convert" }).first(where: { access($0, X_OK) == 0 })
        else { return .noConverter }
        let args = [tool, "-o", png, svg]
        var cArgs = args.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, tool, nil, nil, &cArgs, environ) == 0 else { return .failed(-1) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status >> 8) & 0xff
        return (status & 0x7f) == 0 && code == 0 ? .converted : .failed(code)
    }

    private func baseName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
