import Foundation
import GestureProtocol
import Gestures
import TouchEvents
import TouchRecordings

/// A gesture log read back as gestures: JSON lines as `gestured replay --json` prints them
/// (`time` in seconds from the recording's first event, `kind`, `state`, `region`, `touches`,
/// `x`, `y`, and `taps`, `dx`/`dy`, `scale`, `direction`, `edge` where they apply), written by gestured or by a converter of
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
            let startTime = started[event.kind] ?? time
            let values = try Self.values(of: event, heldFor: time - startTime, path: path, line: index + 1)
            var gesture = Gesture(values: values, state: event.state, time: time, startTime: startTime,
                                  device: event.device, region: event.region, touches: event.touches,
                                  location: Point(x: event.x, y: event.y), recognizer: "log")
            gesture.currentTouches = event.currentTouches
            gestures.append(gesture)
        }
        return gestures
    }

    /// What a logged event of its kind carries. A log (a libinput one among them) may leave
    /// values out where a judgement needs none: a pan's or pinch's start says only that it
    /// began; what is left out is nothing (no movement, no change of scale, one tap). A swipe or
    /// an edge pan says which way; without it the line is bad input.
    static func values(of event: GestureEvent, heldFor: Duration, path: String, line: Int) throws(RecordingError) -> GestureValues {
        let translation = Point(x: event.dx ?? 0, y: event.dy ?? 0)
        let velocity = Point(x: event.vx ?? 0, y: event.vy ?? 0)
        switch event.kind {
        case .tap: return .tap(.init(taps: event.taps ?? 1))
        case .longPress: return .longPress(.init(duration: heldFor))
        case .pan: return .pan(.init(translation: translation, velocity: velocity))
        case .swipe:
            guard let direction = event.direction else {
                throw RecordingError(path: path, line: line, message: "a swipe needs its \"direction\"")
            }
            return .swipe(GestureValues.Swipe(direction: direction, translation: translation, velocity: velocity,
                                              decidedAfterMillimetres: event.decidedMM ?? 0,
                                              decidedAfter: .microseconds(Int64(((event.decidedMS ?? 0) * 1000).rounded()))))
        case .pinch: return .pinch(.init(scale: event.scale ?? 1, spanMillimetres: 0, scalePerSecond: event.scaleVelocity ?? 0))
        case .rotate: return .rotate(.init(degrees: event.rotation ?? 0, degreesPerSecond: event.rotationVelocity ?? 0))
        case .edgePan:
            guard let edge = event.edge else {
                throw RecordingError(path: path, line: line, message: "an edge pan needs its \"edge\"")
            }
            return .edgePan(.init(edge: edge, translation: translation, velocity: velocity))
        case .custom: return .custom
        }
    }
}
