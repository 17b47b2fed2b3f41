import Logging

/// The one place user closures are called: a handler that throws is logged with what it was
/// called with, and the pipeline goes on.
struct HandlerInvoker {
    var logger: Logger

    func invoke(_ entry: HandlerEntry<Gesture>, _ gesture: Gesture) {
        call(entry, gesture, "a gesture handler threw") {
            ["gesture": "\(gesture)", "recognizer": "\(gesture.recognizer)"]
        }
    }

    func invoke(_ entry: HandlerEntry<Press>, _ press: Press) {
        call(entry, press, "a press handler threw") { ["press": "\(press.phase)", "region": "\(press.region)"] }
    }

    private func call<Value>(_ entry: HandlerEntry<Value>, _ value: Value, _ message: Logger.Message,
                             _ metadata: () -> Logger.Metadata) {
        guard entry.isLive, let body = entry.body else { return }
        do {
            try body(entry.owner, value)
        } catch {
            var details = metadata()
            details["error"] = "\(error)"
            logger.error(message, metadata: details)
        }
    }
}
