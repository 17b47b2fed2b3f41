import DeviceQuirks
import Foundation
import GestureReplay
import GestureRuntime
import GestureEvaluation
import Gestures
import TouchEvents
import TouchRecordings

/// `gestured evaluate FOLDER`: replays every labelled recording of a corpus with the built-in
/// layout and judges its gestures against its label (``Judgement``): a class table with recall,
/// precision and false gestures, a table per device, a confusion matrix and the swipes'
/// decision times — or the same as JSON. With a folder of gesture logs it judges those instead
/// of the replay's gestures (another recognizer's, by the same rules).
public struct EvaluateRunner: Sendable {
    public var folder: String
    /// The labels file (default: FOLDER/labels.json).
    public var labelsPath: String?
    public var json: Bool
    /// Also list every wrong recording with why.
    public var listWrong: Bool
    /// Also print each device's class table (and each touch surface's, where a device has
    /// several); with JSON, a `by_device` object.
    public var byDevice = false
    /// Also write the report as a web page, with every wrong recording's trace drawn.
    public var htmlPath: String?
    /// Judge the gestures in this folder's logs (`FILE.jsonl` for each recording `FILE`, as
    /// `gestured replay --json` prints them) instead of the replay's.
    public var gesturesFolder: String?
    /// libinput's quirks the recorded devices get (nil: none), as a live device would, matched
    /// with `dmi` or else each recording's own DMI modalias.
    public var quirks: QuirksDatabase?
    public var dmi: String?

    public init(folder: String, labelsPath: String? = nil, json: Bool = false, listWrong: Bool = false, htmlPath: String? = nil,
                gesturesFolder: String? = nil) {
        self.gesturesFolder = gesturesFolder
        self.folder = folder
        self.labelsPath = labelsPath
        self.json = json
        self.listWrong = listWrong
        self.htmlPath = htmlPath
    }

    /// The labels, or a message naming the file and the record that is wrong.
    public static func loadLabels(_ path: String) -> Result<[EvaluationLabel], LabelsError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(LabelsError(message: "\(path): cannot read the labels file"))
        }
        do {
            return .success(try JSONDecoder().decode([EvaluationLabel].self, from: data))
        } catch let error as DecodingError {
            return .failure(LabelsError(message: "\(path): \(describe(error))"))
        } catch {
            return .failure(LabelsError(message: "\(path): \(error)"))
        }
    }

    /// A labels file that cannot be used.
    public struct LabelsError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// `record 4, "touches": expected a number` (records count from 1, as a person would).
    static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            guard let first = path.first else { return "the file" }
            let record = first.intValue.map { "record \($0 + 1)" } ?? first.stringValue
            let keys = path.dropFirst().map { "\"\($0.stringValue)\"" }
            return ([record] + keys).joined(separator: ", ")
        }
        switch error {
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "not a list of records"
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath)): expected \(type == String.self ? "a string" : type == Int.self ? "a whole number" : "\(type)")"
        case .valueNotFound(_, let context):
            return "\(place(context.codingPath)): a value is required"
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath)): \"\(key.stringValue)\" is missing"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not JSON, or not a list of records" }
            // The labels' own checks say what is wrong (`"also": pan-1 is not kind/touches`).
            let own = context.debugDescription.hasSuffix("is not kind/touches")
            return "\(place(context.codingPath)): \(own ? context.debugDescription : "not valid")"
        @unknown default:
            return "\(error)"
        }
    }

    public func run(output: inout some CommandOutput) -> Int32 {
        let labelsFile = labelsPath ?? folder + "/labels.json"
        let labels: [EvaluationLabel]
        switch Self.loadLabels(labelsFile) {
        case .success(let loaded): labels = loaded
        case .failure(let error):
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
        var drawings: [String: String] = [:]
        let report: EvaluationReport
        do throws(RecordingError) {
            report = try Self.evaluate(labels, folder: folder, gesturesFolder: gesturesFolder, quirks: quirks, dmi: dmi) { label, judgement, result, gestures, frames in
                guard htmlPath != nil, !judgement.right else { return }
                drawings[label.file] = SVGRenderer(title: label.file, result: result, frames: frames, unit: "mm", gestures: gestures).render()
            }
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
        if json {
            output.write(byDevice ? String(report.json.dropLast(2)) + ", \"by_device\": \(report.deviceTablesJSON)}\n" : report.json)
        } else {
            output.write(report.text)
            if byDevice { output.write("\nby device, each on its own:\n" + report.deviceTables) }
        }
        if listWrong && !json { output.write("\nwrong:\n" + report.wrongList) }
        if let htmlPath {
            do throws(RecordingError) {
                try writeFileAtomically(EvaluationPage(report: report, drawings: drawings, folder: folder).html, to: htmlPath)
            } catch {
                output.warn("\(error)\n")
                return CommandStatus.badInput
            }
            if !json { output.write("\nwrote \(htmlPath)\n") }
        }
        return CommandStatus.success
    }

    /// Replays and judges every recording `labels` name (relative to `folder`): its replay's
    /// gestures, or with `gesturesFolder` the ones of its log there (``GestureLog``); `each`
    /// sees each recording's judgement, replay, the gestures judged and the frames. Each device
    /// gets what `quirks` say about it (none without).
    public static func evaluate(
        _ labels: [EvaluationLabel], folder: String, gesturesFolder: String? = nil, quirks: QuirksDatabase? = nil, dmi: String? = nil,
        each: (EvaluationLabel, Judgement, RecordingReplay.Result, [JudgedGesture], [TouchFrame]) -> Void = { _, _, _, _, _ in }
    ) throws(RecordingError) -> EvaluationReport {
        var report = EvaluationReport()
        // Judging another recognizer's log, the recordings are only decoded: the built-in
        // layout keeps its region (the drawings are of it) and loses its recognizers.
        let decodeOnly: ((GesturePipeline) -> Void)? = gesturesFolder == nil ? nil : { pipeline in
            for recognizer in pipeline.layout.root.recognizers { pipeline.layout.root.remove(recognizer) }
        }
        for label in labels {
            if let why = label.skipReason {
                report.skip(label.file, why: why)
                continue
            }
            var first: Instant?
            var last: Instant?
            var frames: [TouchFrame] = []
            let result = try RecordingReplay.run(path: folder + "/" + label.file, configure: decodeOnly, onFrame: { frame in
                frames.append(frame)
                guard !frame.contacts.isEmpty else { return }
                if first == nil { first = frame.time }
                last = frame.time
            }, quirks: quirks, dmi: dmi)
            let gestures = try gesturesFolder.map { folder throws(RecordingError) in
                try GestureLog.read(path: folder + "/" + label.file + ".jsonl", origin: result.device.firstEventTime)
            } ?? result.gestures.map(JudgedGesture.init)
            let stroke = first.flatMap { f in last.map { f...max(f, $0) } }
            let judgement = Judgement.judge(label, gestures: gestures, stroke: stroke, touchpad: result.device.description.kind == .touchpad)
            report.add(label, judgement, surface: result.surface.size.description)
            each(label, judgement, result, gestures, frames)
        }
        return report
    }
}
