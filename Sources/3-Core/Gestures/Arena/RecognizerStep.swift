import TouchEvents

/// What a recognizer asks of its arena after a frame or a deadline.
public enum RecognizerStep: Sendable, Equatable {
    /// Nothing to decide yet.
    case none
    /// It cannot be this gesture (the reason says why, with numbers).
    case fail(FailureReason)
    /// A continuous gesture wants to begin; the arena decides.
    case begin
    /// A continuous gesture wants to begin and to give way to whatever begins after it: it
    /// leaves the others possible, and ends `cancelled` the moment one of them begins or
    /// recognises (a touchpad's hold, which yields to motion as libinput's does).
    case beginYielding
    /// A continuous gesture of fewer fingers wants to begin while more may still land
    /// (``TouchTracker/staggerDeadline``): it leaves the others possible and ends `cancelled` if
    /// one of them begins or recognises before the deadline; past it, it is an ordinary winner.
    case beginTentatively
    /// A discrete gesture happened; the arena decides.
    case recognize
    /// A continuous gesture that has begun changed.
    case change
    /// A continuous gesture that has begun finished.
    case end
    /// A continuous gesture that has begun finished while its fingers stay down, and what they
    /// do next is a new gesture (a touchpad's pan that a landing finger ends, as libinput ends
    /// its gesture when the finger count changes): the arena ends it, closes (every member
    /// still possible fails) and starts over with the fingers down.
    case endAndStartOver
    /// A continuous gesture that has begun lost its touches (palm, dropped events, device gone).
    case cancel
}

/// A recognizer's answer to a frame or a deadline: its step, and the next instant at which it
/// must hear of time passing (``GestureRecognizer/deadlinePassed(_:_:)``) if no frame comes
/// first. The deadline replaces any earlier one; nil means none.
public struct RecognizerUpdate: Sendable, Equatable {
    public var step: RecognizerStep
    public var deadline: Instant?

    public init(_ step: RecognizerStep, deadline: Instant? = nil) {
        self.step = step
        self.deadline = deadline
    }

    // Computed, not stored: a stored static is initialised lazily and checked on every use.
    public static var none: RecognizerUpdate { RecognizerUpdate(.none) }
    public static var begin: RecognizerUpdate { RecognizerUpdate(.begin) }
    public static var beginYielding: RecognizerUpdate { RecognizerUpdate(.beginYielding) }
    public static var beginTentatively: RecognizerUpdate { RecognizerUpdate(.beginTentatively) }
    public static var recognize: RecognizerUpdate { RecognizerUpdate(.recognize) }
    public static var change: RecognizerUpdate { RecognizerUpdate(.change) }
    public static var end: RecognizerUpdate { RecognizerUpdate(.end) }
    public static var endAndStartOver: RecognizerUpdate { RecognizerUpdate(.endAndStartOver) }
    public static var cancel: RecognizerUpdate { RecognizerUpdate(.cancel) }

    public static func fail(_ reason: FailureReason) -> RecognizerUpdate { RecognizerUpdate(.fail(reason)) }

    /// Nothing to decide yet; call back at `deadline`.
    public static func wait(until deadline: Instant) -> RecognizerUpdate { RecognizerUpdate(.none, deadline: deadline) }
}
