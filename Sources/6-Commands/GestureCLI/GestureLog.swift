import Foundation
import GestureEvaluation
import GestureProtocol
import Gestures
import TouchEvents
import TouchRecordings

/// A gesture log read back for judging: JSON lines as `gestured replay --json` prints them
/// (`time` in seconds from the recording's first event, `kind`, `state`, `region`, `touches`,
/// `x`, `y`, and `taps`, `dx`/`dy`, `scale`, `direction`, `edge` where they apply), written by
/// gestured or by a converter of another recognizer's output (libinput's, in
/// scripts/vm/libinput-agreement.py), so that `gestured evaluate --gestures` judges them by the
/// same rules.
enum GestureLog {
    /// The gestures of the log at `path`, their times counted from `origin`. A changed or ended
    /// event belongs to the last gesture of its kind that began. Every line that is not a
    /// gesture, or lacks a value the judgement reads (``JudgedGesture/requiredValues(kind:state:)``),
    /// is an error naming the file and the line: nothing is made up for it.
    static func read(path: String, origin: Instant) throws(RecordingError) -> [JudgedGesture] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecordingError(path: path, line: 0, message: "cannot read the gesture log")
        }
        var gestures: [JudgedGesture] = []
        var started: [GestureKind: Instant] = [:]
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let event: GestureEvent
            let object: JSONObject
            do throws(ProtocolError) {
                object = try JSONObject.line(line.utf8, mustBe: "a gesture must be a JSON object")
                event = try GestureEvent(json: object, partialValues: true)
            } catch {
                throw RecordingError(path: path, line: index + 1, message: error.description)
            }
            guard event.time.isFinite, event.time >= 0, event.time < 1e9 else {
                throw RecordingError(path: path, line: index + 1, message: "\"time\" must be seconds from the recording's start, not \(event.time)")
            }
            if let missing = Self.missing(in: event, carrying: object) {
                throw RecordingError(path: path, line: index + 1, message: missing)
            }
            let time = origin + .microseconds(Int64((event.time * 1e6).rounded()))
            if event.state == .began || event.state == .recognized { started[event.kind] = time }
            gestures.append(JudgedGesture(kind: event.kind, state: event.state, time: time, startTime: started[event.kind] ?? time,
                                          touches: event.touches, region: event.region, recognizer: "log",
                                          location: Point(x: event.x, y: event.y), values: event.values))
        }
        return gestures
    }

    /// What the event (read from `object`) lacks of what its kind and state must carry (`a
    /// swipe needs its "direction"`), or nil.
    static func missing(in event: GestureEvent, carrying object: JSONObject) -> String? {
        let lacking = JudgedGesture.requiredValues(kind: event.kind, state: event.state).filter { (object[$0] ?? .null) == .null }
        guard !lacking.isEmpty else { return nil }
        let what: String = switch event.kind {
        case .tap: "a tap"
        case .longPress: "a long press"
        case .pan: "a pan"
        case .swipe: "a swipe"
        case .pinch: "a pinch"
        case .rotate: "a rotation"
        case .edgePan: "an edge pan"
        case .custom: "a custom gesture"
        }
        let state = event.state == .began || event.state == .recognized ? "" : " \(event.state.rawValue)"
        return "\(what)\(state) needs its " + lacking.map { "\"\($0)\"" }.joined(separator: " and ")
    }
}
