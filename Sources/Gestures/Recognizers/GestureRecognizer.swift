import TouchEvents

/// The base of every recognizer: its configuration, handlers, failure requirements and who it
/// may recognise with. Subclasses read touches and answer with a ``RecognizerUpdate`` (a step
/// and their next deadline); the arena (internal) alone decides what follows and changes ``state``.
/// One recognizer serves one region.
///
/// **Your own recognizer.** Subclass it (`init(kind: .custom)`), override ``name``,
/// ``handle(_:)`` (every frame of the sequence: read the ``TouchTracker``, answer with a
/// ``RecognizerUpdate``), ``deadlinePassed(_:_:)`` when you asked for a deadline, ``reset()``
/// for your own state and ``gesture(_:time:_:)`` for the values your events carry. Add it to a
/// region like any other: it takes part in the arena — it competes, can require others to fail
/// and be required, and its handlers are released like every other's. Never read a clock:
/// time comes with the tracker and the deadlines.
open class GestureRecognizer {
    public let kind: GestureKind
    /// What the arena decided for it in the current (or last) touch sequence; only the arena
    /// writes it.
    /// (`final`: read on every frame, it must not go through a getter that copies it.)
    @exclusivity(unchecked) final var membership = ArenaMembership()
    /// Where it stands in the current (or last) touch sequence.
    public final var state: GestureState { membership.state }
    /// Why it last failed, with numbers.
    public final var failure: FailureReason? { membership.failure }
    /// ``failure`` as text: "moved 4.2 mm > 3.0 mm allowed".
    public var failureReason: String? { failure?.description }
    /// The region it is attached to.
    public internal(set) weak var region: Region? {
        didSet { if let region { regionID = region.id } }
    }
    /// The id of the region it was last attached to: what a gesture of it says once it was
    /// taken off (its `cancelled`).
    var regionID = ""

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
    var handlers: [HandlerEntry<Gesture>] = []
    /// Created by a convenience method (`onTap`…): removed with its last handler.
    var ownedByHandlers = false
    @exclusivity(unchecked) private var cachedLabel = ""
    /// ``name``, built once and again only after the configuration changes.
    var label: String {
        if cachedLabel.isEmpty { cachedLabel = name }
        return cachedLabel
    }

    /// Subclasses call this when a property that appears in ``name`` changes.
    public final func configurationChanged() {
        cachedLabel = ""
    }

    /// A recognizer of `kind`; your own recognizers are `.custom` and say what they are in
    /// ``name``.
    public init(kind: GestureKind) {
        self.kind = kind
    }

    /// A short description for logs and reasons: `tap(2 taps, 1 touch)`.
    open var name: String { kind.rawValue }

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

    /// The most fingers its gesture has had down at once (from the event that began it), which
    /// every event of the gesture carries; kept by the pipeline as it delivers them.
    final var gestureTouches = 0

    /// True once the recognizer is done for this sequence.
    public final var isFinished: Bool { membership.state.isFinal }

    // MARK: - For subclasses

    /// Forgets the last sequence: subclasses reset their own phase and call super. (The
    /// arena resets its own bookkeeping.)
    open func reset() {}

    /// A frame of the sequence.
    open func handle(_ touches: TouchTracker) -> RecognizerUpdate { .none }

    /// The deadline the recognizer asked for has come (`now` is that deadline).
    open func deadlinePassed(_ now: Instant, _ touches: TouchTracker) -> RecognizerUpdate { .none }

    /// The gesture value for an event in `state` at `time`. Once the fingers have lifted,
    /// `touches` is the number it ended with.
    open func gesture(_ state: GestureState, time: Instant, _ touches: TouchTracker) -> Gesture {
        Gesture(kind: kind, state: state, time: time, startTime: membership.sequenceStart, region: region?.id ?? regionID,
                touches: touches.isDown ? touches.touches : touches.previousTouches, location: touches.centroid,
                recognizer: label)
    }
}

/// "1 touch", "2 touches".
func plural(_ n: Int, _ word: String) -> String {
    "\(n) \(word)\(n == 1 ? "" : word.hasSuffix("ch") ? "es" : "s")"
}
