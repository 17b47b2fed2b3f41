import TouchEvents

extension RecordedDevice {
    /// Passes every event to `body` in order; a decoding error it throws is reported at the
    /// line of the event that caused it.
    public func forEachEvent(path: String, _ body: (InputEvent) throws(DecodeError) -> Void) throws(RecordingError) {
        for i in events.indices {
            do throws(DecodeError) {
                try body(events[i])
            } catch {
                throw RecordingError(path: path, line: Int(eventLines[i]), message: error.description)
            }
        }
    }

    /// Decodes every event into touch frames, as the live path would, and cancels any
    /// contact still down after the last event (a recording can stop mid-touch).
    /// A decoding error names the line of the event that caused it.
    public func decodeFrames(
        surface: TouchSurface, path: String, emit: (TouchFrame) -> Void
    ) throws(RecordingError) {
        var decoder = TouchDecoder(device: description, surface: surface)
        try forEachEvent(path: path) { event throws(DecodeError) in try decoder.process(event, emit: emit) }
        if let last = events.last { decoder.cancelAll(time: last.time, emit: emit) }
    }
}
