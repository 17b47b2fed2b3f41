/// What a recognizer asks for after a frame or a deadline.
enum RecognizerStep: Equatable {
    case none
    /// It cannot be this gesture (the reason says why, with numbers).
    case fail(FailureReason)
    /// A continuous gesture wants to begin; the arena decides.
    case begin
    /// A discrete gesture happened; the arena decides.
    case recognize
    /// A continuous gesture that has begun changed.
    case change
    /// A continuous gesture that has begun finished.
    case end
    /// A continuous gesture that has begun lost its touches (palm, dropped events, device gone).
    case cancel
}

/// The base of every recognizer: it owns the state, the deadline, the handlers, the failure
/// requirements and who it may recognise with; subclasses only read touches and say what
/// they see (``RecognizerStep``). One recognizer serves one region.
public class GestureRecognizer {
    public let kind: GestureKind
    @exclusivity(unchecked) public internal(set) var state: GestureState = .possible
    /// Why it last failed, with numbers.
    @exclusivity(unchecked) public internal(set) var failure: FailureReason?
    /// ``failure`` as text: "moved 4.2 mm > 3.0 mm allowed".
    public var failureReason: String? { failure?.description }
    /// The region it is attached to.
    public internal(set) weak var region: Region?

    /// A disabled recognizer takes part in nothing.
    public var isEnabled = true
    /// Asked just before the recognizer begins or recognises; `false` makes it fail.
    public var shouldBegin: ((GestureRecognizer) -> Bool)?
    /// Asked when this recognizer and another would both succeed in one sequence; `true`
    /// lets them. Either side saying yes is enough.
    public var shouldRecognizeSimultaneously: ((GestureRecognizer, GestureRecognizer) -> Bool)?
    /// Kinds this recognizer may succeed together with.
    public var simultaneousKinds: Set<GestureKind> = []

    // Recognizers are referenced strongly throughout the pipeline, never weakly: a weak
    // reference gives an object a side table, and every retain and release then takes the
    // runtime's slow path — in the arena's loops that was most of a sequence's start.
    var requirements: [GestureRecognizer] = []
    /// Requirements the region adds by itself (fewer taps wait for more taps).
    var automaticRequirements: [GestureRecognizer] = []
    @exclusivity(unchecked) var deadline: Int64?
    /// A begin or recognize waiting for the recognizers it requires to fail.
    @exclusivity(unchecked) var deferred: RecognizerStep?
    var handlers: [HandlerEntry] = []
    /// Created by a convenience method (`onTap`…): removed with its last handler.
    var ownedByHandlers = false
    /// Start of the touch sequence it is tracking (µs).
    @exclusivity(unchecked) var sequenceStart: Int64 = 0
    @exclusivity(unchecked) private var cachedLabel = ""
    /// ``name``, built once and again only after the configuration changes.
    var label: String {
        if cachedLabel.isEmpty { cachedLabel = name }
        return cachedLabel
    }

    /// Subclasses call this when a property that appears in ``name`` changes.
    func configurationChanged() {
        cachedLabel = ""
    }

    init(kind: GestureKind) {
        self.kind = kind
    }

    /// A short description for logs and reasons: `tap(2 taps, 1 touch)`.
    public var name: String { kind.rawValue }

    /// Makes this recognizer wait until `other` fails; if `other` succeeds, this one fails.
    /// Two recognizers cannot require each other (they would wait for ever).
    public func require(toFail other: GestureRecognizer) {
        precondition(other !== self, "a recognizer cannot require itself to fail")
        precondition(!other.requirements.contains { $0 === self },
                     "\(name) and \(other.name) cannot each require the other to fail")
        guard !requirements.contains(where: { $0 === other }) else { return }
        requirements.append(other)
    }

    /// Lets this recognizer succeed together with `kinds`.
    public func recognizeSimultaneously(with kinds: GestureKind...) {
        simultaneousKinds.formUnion(kinds)
    }

    /// True once the recognizer is done for this sequence.
    public var isFinished: Bool {
        switch state {
        case .failed, .recognized, .ended, .cancelled: true
        case .possible, .began, .changed: false
        }
    }

    /// True while a begun continuous gesture is going on.
    var isActive: Bool { state == .began || state == .changed }

    /// True if it is waiting for a deadline or a requirement to decide.
    var isHolding: Bool { deadline != nil || deferred != nil }

    // MARK: - For subclasses

    /// Back to `possible` for a new sequence; subclasses reset their own state and call super.
    func reset() {
        state = .possible
        failure = nil
        deadline = nil
        deferred = nil
    }

    /// A frame of the sequence.
    func handle(_ touches: TouchTracker) -> RecognizerStep { .none }

    /// The deadline the recognizer set has passed (`now` is that deadline).
    func deadlinePassed(_ now: Int64, _ touches: TouchTracker) -> RecognizerStep { .none }

    /// The gesture value for an event in `state` at `time`. Once the fingers have lifted,
    /// `touches` is the number it ended with.
    func gesture(_ state: GestureState, time: Int64, _ touches: TouchTracker) -> Gesture {
        Gesture(kind: kind, state: state, time: time, startTime: sequenceStart, region: region?.id ?? "",
                touches: touches.isDown ? touches.touches : touches.previousTouches, location: touches.centroid,
                recognizer: label)
    }
}

/// "1 touch", "2 touches".
func plural(_ n: Int, _ word: String) -> String {
    "\(n) \(word)\(n == 1 ? "" : word.hasSuffix("ch") ? "es" : "s")"
}

/// `4.2` — one decimal, for reasons.
func one(_ v: Double) -> String {
    let tenths = (v * 10).rounded()
    let sign = tenths < 0 ? "-" : ""
    let a = abs(tenths)
    return "\(sign)\(Int(a) / 10).\(Int(a) % 10)"
}
