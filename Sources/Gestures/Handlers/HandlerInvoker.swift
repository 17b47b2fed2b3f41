import Logging

/// The one place user closures are called: a handler that throws is logged with the
/// gesture, and the pipeline goes on.
struct HandlerInvoker {
    var logger: Logger

    func invoke(_ entry: HandlerEntry, _ gesture: Gesture) {
        guard entry.isLive, let body = entry.body else { return }
        do {
            try body(entry.owner, gesture)
        } catch {
            logger.error("a gesture handler threw", metadata: [
                "error": "\(error)", "gesture": "\(gesture)", "recognizer": "\(gesture.recognizer)",
            ])
        }
    }

    func invoke(_ entry: PressHandlerEntry, _ press: Press) {
        guard entry.isLive, let body = entry.body else { return }
        do {
            try body(entry.owner, press)
        } catch {
            logger.error("a press handler threw", metadata: ["error": "\(error)", "press": "\(press.phase)", "region": "\(press.region)"])
        }
    }
}
