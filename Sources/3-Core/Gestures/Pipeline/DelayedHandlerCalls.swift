import TouchEvents

/// Handler calls waiting for their delay (`onTap(delay:)`): each fires at its deadline, unless
/// the gesture is cancelled first or the same handler is called again (the newer call
/// replaces the waiting one).
struct DelayedHandlerCalls {
    struct Call {
        var deadline: Instant
        var entry: HandlerEntry<Gesture>
        var gesture: Gesture
        var recognizer: ObjectIdentifier
    }

    private var calls: [Call] = []

    /// The earliest deadline waiting.
    var nextDeadline: Instant? {
        var earliest: Instant?
        for call in calls where call.deadline < earliest ?? .distantFuture { earliest = call.deadline }
        return earliest
    }

    /// Calls `entry` with `gesture` at `deadline`, replacing a call of `entry` still waiting.
    mutating func schedule(_ entry: HandlerEntry<Gesture>, _ gesture: Gesture, of recognizer: GestureRecognizer, at deadline: Instant) {
        calls.removeAll { $0.entry === entry }
        calls.append(Call(deadline: deadline, entry: entry, gesture: gesture, recognizer: ObjectIdentifier(recognizer)))
    }

    /// Drops every call waiting for `recognizer`'s events (its gesture was cancelled).
    mutating func drop(callsOf recognizer: GestureRecognizer) {
        guard !calls.isEmpty else { return }
        calls.removeAll { $0.recognizer == ObjectIdentifier(recognizer) }
    }

    mutating func removeAll() {
        calls.removeAll()
    }

    /// Removes and returns the calls due by `time`, in the order they were scheduled.
    mutating func takeDue(by time: Instant) -> [Call] {
        guard calls.contains(where: { $0.deadline <= time }) else { return [] }
        let due = calls.filter { $0.deadline <= time }
        calls.removeAll { $0.deadline <= time }
        return due
    }
}
