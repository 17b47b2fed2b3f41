import Foundation
import GestureProtocol
import Gestures
import TouchEvents
import TouchRecordings

/// A gesture log read back as gestures: JSON lines as `gestured replay --json` prints them
/// (`time` in seconds from the recording's first event, `kind`, `state`, `region`, `touches`,
/// `x`, `y`, and `taps`, `dx`/`dy`, `scale`, `direction` where they apply), written by gestured or by a converter of
/// another recognizer's output (libinput's, in scripts/vm/libinput-agreement.py), so that
/// `gestured evaluate --gestures` judges them by the same rules.
enum GestureLog {
    /// The gestures of the log at `path`, their times counted from `origin`. A changed or ended
    /// event belongs to the last gesture of its kind that began. Every line that is not a gesture
    /// is an error naming the file and the line.
    static func read(path: String, origin: Instant) throws(RecordingError) -> [Gesture] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecordingError(path: path, line: 0, message: "cannot read the gesture log")
        }
        var gestures: [Gesture] = []
        var started: [GestureKind: Instant] = [:]
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let event: GestureEvent
            do throws(ProtocolError) {
                event = try GestureEvent.parse(line.utf8)
            } catch {
                throw RecordingError(path: path, line: index + 1, message: error.description)
            }
            guard event.time.isFinite, event.time >= 0, event.time < 1e9 else {
                throw RecordingError(path: path, line: index + 1, message: "\"time\" must be seconds from the recording's start, not \(event.time)")
            }
            let time = origin + .microseconds(Int64((event.time * 1e6).rounded()))
            if event.state == .began || event.state == .recognized { started[event.kind] = time }
            var gesture = Gesture(kind: event.kind, state: event.state, time: time, startTime: started[event.kind] ?? time,
                                  device: event.device, region: event.region, touches: event.touches,
                                  location: Point(x: event.x, y: event.y), recognizer: "log")
            gesture.currentTouches = event.currentTouches
            gesture.taps = event.taps
            if let dx = event.dx, let dy = event.dy { gesture.translation = Point(x: dx, y: dy) }
            gesture.scale = event.scale
            gesture.rotation = event.rotation
            gesture.direction = event.direction
            gesture.edge = event.edge
            gestures.append(gesture)
        }
        return gestures
    }
}
