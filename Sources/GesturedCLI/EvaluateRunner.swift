import Foundation
import GesturedRuntime
import Gestures
import TouchEvents
import TouchRecordings

/// `gestured evaluate FOLDER`: replays every labelled recording of a corpus with the built-in
/// layout and judges its gestures against its label (``Judgement``): a class table with recall,
/// precision and false gestures, a table per device, a confusion matrix and the swipes'
/// decision times — or the same as JSON.
public struct EvaluateRunner: Sendable {
    public var folder: String
    /// The labels file (default: FOLDER/labels.json).
    public var labelsPath: String?
    public var json: Bool
    /// Also list every wrong recording with why.
    public var listWrong: Bool

    public init(folder: String, labelsPath: String? = nil, json: Bool = false, listWrong: Bool = false) {
        self.folder = folder
        self.labelsPath = labelsPath
        self.json = json
        self.listWrong = listWrong
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
            return context.codingPath.isEmpty ? "not JSON, or not a list of records" : "\(place(context.codingPath)): not valid"
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
        do throws(RecordingError) {
            let report = try Self.evaluate(labels, folder: folder)
            output.write(json ? report.json : report.text)
            if listWrong && !json { output.write("\nwrong:\n" + report.wrongList) }
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }

    /// Replays and judges every recording `labels` name (relative to `folder`).
    public static func evaluate(_ labels: [EvaluationLabel], folder: String) throws(RecordingError) -> EvaluationReport {
        var report = EvaluationReport()
        for label in labels {
            if let why = label.skipReason {
                report.skip(label.file, why: why)
                continue
            }
            var first: Instant?
            var last: Instant?
            let result = try RecordingReplay.run(path: folder + "/" + label.file, onFrame: { frame in
                guard !frame.contacts.isEmpty else { return }
                if first == nil { first = frame.time }
                last = frame.time
            })
            let stroke = first.flatMap { f in last.map { f...max(f, $0) } }
            report.add(label, Judgement.judge(label, gestures: result.gestures, stroke: stroke))
        }
        return report
    }
}
