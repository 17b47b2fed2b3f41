import TouchEvents

/// What one touch sequence was, told once it is over (``GesturePipeline/sequenceObserver``):
/// where its first touch landed, how many fingers it had, and what its recognizers did.
/// `replay` explains with it why nothing fired.
public struct TouchSequenceReport: Sendable, Equatable {
    /// One recognizer that failed in the sequence, and why.
    public struct Failure: Sendable, Equatable {
        /// The recognizer's name (`tap`, `swipe(3 touches, left)`).
        public var recognizer: String
        /// Its region's id.
        public var region: String
        public var reason: FailureReason
    }

    /// The id of the region its first touch hit; nil when the touch hit no region (or landed
    /// beyond the root), and so belongs to no sequence.
    public var region: String?
    /// When its first touch landed, and when it was over.
    public var began: Instant
    public var ended: Instant
    /// The most fingers it had down at once.
    public var fingers: Int
    /// How many recognizers its arenas held (the most of any of its presses): 0 when no region
    /// of its path has a gesture.
    public var recognizers: Int
    /// Gesture events that began or were recognized in it.
    public var gestures: Int
    /// The recognizers that failed in it, in order.
    public var failures: [Failure]

    /// Whether every recognizer that failed in it failed for the number of fingers (too few or
    /// too many): there is no gesture for this many fingers where it landed.
    public var onlyFingerCountFailed: Bool {
        !failures.isEmpty && failures.allSatisfy { f in
            switch f.reason {
            case .tooFewTouches, .tooManyTouches: true
            default: false
            }
        }
    }
}
