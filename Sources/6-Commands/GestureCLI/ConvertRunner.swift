#if canImport(Glibc)
import Glibc
#endif
import TouchEvents
import TouchRecordings

/// `gestured convert IN OUT`: rewrites a recording (evemu or libinput record) as
/// `libinput record` YAML v1, which `libinput replay` accepts — or, when OUT ends in
/// `.evemu` or `.events`, as a single evemu 1.3 file.
public struct ConvertRunner: Sendable {
    public var inputPath: String
    /// `-` for standard output.
    public var outputPath: String
    public var descPath: String?
    public var deviceIndex: Int?

    public init(inputPath: String, outputPath: String, descPath: String? = nil, deviceIndex: Int? = nil) {
        self.inputPath = inputPath
        self.outputPath = outputPath
        self.descPath = descPath
        self.deviceIndex = deviceIndex
    }

    public func run(output: inout some CommandOutput) -> Int32 {
        do throws(RecordingError) {
            let recording = try Recording.load(path: inputPath, descPath: descPath)
            let device = try recording.device(deviceIndex)
            let evemu = outputPath.hasSuffix(".evemu") || outputPath.hasSuffix(".events")
            let yaml = evemu ? EvemuWriter().text(for: device) : LibinputRecordWriter(source: inputPath).yaml(for: device)
            if outputPath == "-" {
                output.write(yaml)
            } else {
                try writeFile(yaml, to: outputPath)
                output.warn("wrote \(outputPath): \(device.description.name), \(device.events.count) events\n")
            }
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }

    private func writeFile(_ text: String, to path: String) throws(RecordingError) {
        if realpath(path) == realpath(inputPath), fileExistsAt(path) {
            throw RecordingError(path: path, line: 0, message: "refusing to overwrite the input file")
        }
        try writeFileAtomically(text, to: path)
    }

    private func realpath(_ path: String) -> String? {
        guard let p = Glibc.realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    private func fileExistsAt(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }
}
