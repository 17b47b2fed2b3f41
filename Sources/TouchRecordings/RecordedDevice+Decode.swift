import TouchEvents

extension RecordedDevice {
    /// Decodes every event into touch frames, as the live path would, and cancels any
    /// contact still down after the last event (a recording can stop mid-touch).
    /// A decoding error names the line of the event that caused it.
    public func decodeFrames(
        surface: TouchSurface, path: String, emit: (TouchFrame) -> Void
    ) throws(RecordingError) {
        var decoder = TouchDecoder(device: description, surface: surface)
        for i in events.indices {
            do throws(DecodeError) {
                try decoder.process(events[i], emit: emit)
            } catch {
                throw RecordingError(path: path, line: Int(eventLines[i]), message: error.description)
            }
        }
        if let last = events.last { decoder.cancelAll(time: last.time, emit: emit) }
    }
}
