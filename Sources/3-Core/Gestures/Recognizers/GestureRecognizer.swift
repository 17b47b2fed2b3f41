import TouchEvents

/// The base of every recognizer: its configuration, handlers, failure requirements and who it
/// may recognise with. Subclasses read touches and answer with a ``RecognizerUpdate`` (a step
/// and their next deadline); the arena (internal) alone decides what follows and changes ``state``.
/// One recognizer serves one region.
///
/// **Your own recognizer.** Subclass it (`init(kind: .custom)`), override ``name``,
/// ``handle(_:)`` (every frame of the sequence: read the ``TouchTracker``, answer with a
/// ``RecognizerUpdate``), ``deadlinePassed(_:_:)`` when you asked for a deadline, ``reset()``
/// for your own state and ``values(_:time:_:)`` for the values your events carry. Add it to a
/// region like any other: it takes part in the arena — it competes, can require others to fail
/// and be required, and its handlers are released like every other's. Never read a clock:
/// time comes with the tracker and the deadlines.
open class GestureRecognizer {
    public let kind: GestureKind
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
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
    /// The region it is attached to. (Unchecked exclusivity on its configuration too: read on
    /// every frame and event, changed only between them.)
    public internal(set) var region: Region? {
        @inline(__always) get { _region }
        set {
            _region = newValue
            placedIn = region.map { Unmanaged.passUnretained($0) }
            if let region {
            regionID = region.id
            regionNamespace = region.namespace
            }
        }
    }
    @exclusivity(unchecked) private weak var _region: Region?
    /// ``region``, not counted: what each gesture event reads it through
    /// (``event(_:time:_:device:)``). Loaded through the weak reference, the region was retained
    /// and released on the runtime's slow path (a region has weak references to it, so each of
    /// its reference counts goes through a side table: about 155 instructions an event). Set
    /// with ``region``, and emptied by the region's `deinit` just as the weak reference is. So a
    /// region must be read, and let go of, only where the pipeline runs, as the documentation
    /// says of regions (a gesture's ``Gesture/target`` too).
    @exclusivity(unchecked) var placedIn: Unmanaged<Region>?
    /// The id of the region it was last attached to: what a gesture of it says once it was
    /// taken off (its `cancelled`).
    @exclusivity(unchecked) var regionID = ""
    /// The namespace of that region (``Region/namespace``).
    @exclusivity(unchecked) var regionNamespace: Int?

    /// A disabled recognizer takes part in nothing.
    public var isEnabled: Bool {
        @inline(__always) get { _isEnabled }
        set { _isEnabled = newValue }
    }
    @exclusivity(unchecked) private var _isEnabled: Bool = true
    /// Asked just before the recognizer begins or recognises; `false` makes it fail.
    public var shouldBegin: ((GestureRecognizer) -> Bool)? {
        @inline(__always) get { _shouldBegin }
        set { _shouldBegin = newValue }
    }
    @exclusivity(unchecked) private var _shouldBegin: ((GestureRecognizer) -> Bool)?
    /// Asked when this recognizer and another would both succeed in one sequence; `true`
    /// lets them. Either side saying yes is enough.
    public var shouldRecognizeSimultaneously: ((GestureRecognizer, GestureRecognizer) -> Bool)? {
        @inline(__always) get { _shouldRecognizeSimultaneously }
        set { _shouldRecognizeSimultaneously = newValue }
    }
    @exclusivity(unchecked) private var _shouldRecognizeSimultaneously: ((GestureRecognizer, GestureRecognizer) -> Bool)?
    /// Kinds this recognizer may succeed together with.
    public var simultaneousKinds: Set<GestureKind> {
        @inline(__always) get { _simultaneousKinds }
        set { _simultaneousKinds = newValue }
    }
    @exclusivity(unchecked) private var _simultaneousKinds: Set<GestureKind> = []
    /// On a device whose touches gestured owns (a runtime's ``DeviceSetup/ownership``), this
    /// recognizer's touches are taken from the apps once it begins or is recognized: those the
    /// apps already had are cancelled, later ones never reach them (``GesturePipeline/onTouchClaim``).
    /// False by default: a gesture shares its touches with the apps beneath.
    public var ownsTouches: Bool {
        @inline(__always) get { _ownsTouches }
        set { _ownsTouches = newValue }
    }
    @exclusivity(unchecked) private var _ownsTouches: Bool = false
    /// Finger counts whose touches it leaves to the apps even though it owns its touches: the
    /// desktop's own gestures (GNOME and KWin animate three-finger touchscreen swipes), which a
    /// configuration did not bind. Empty by default.
    public var leavesFingerCounts: Set<Int> = []

    /// Whether its gesture takes the touches of a sequence of `fingers` fingers from the apps
    /// (``ownsTouches``, and not a count it leaves to the desktop).
    @inline(__always)
    public func takesTouches(fingers: Int) -> Bool {
        _ownsTouches && (leavesFingerCounts.isEmpty || !leavesFingerCounts.contains(fingers))
    }
    /// How many fingers down at once it can be (nil: it does not say: a recognizer of your
    /// own). On a touchpad, a sequence is owned as soon as its fingers reach a count that a
    /// recognizer owning its touches takes (three or more: ``TouchPolicy/ownsAtFingerCount``),
    /// before the desktop's own gesture for that count can begin.
    open var fingerCounts: ClosedRange<Int>? { nil }

    // Recognizers are referenced strongly throughout the pipeline, never weakly: a weak
    // reference gives an object a side table, and every retain and release then takes the
    // runtime's slow path — in the arena's loops that was most of a sequence's start.
    @exclusivity(unchecked) var requirements: [GestureRecognizer] = []
    /// Requirements the region adds by itself (fewer taps wait for more taps).
    @exclusivity(unchecked) var automaticRequirements: [GestureRecognizer] = []
    @exclusivity(unchecked) var handlers: [HandlerEntry<Gesture>] = []
    /// Created by a convenience method (`onTap`…): removed with its last handler.
    @exclusivity(unchecked) var ownedByHandlers = false
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
    /// every event of the gesture carries (``event(_:time:_:)``).
    @exclusivity(unchecked) final var gestureTouches = 0

    /// True once the recognizer is done for this sequence.
    public final var isFinished: Bool { membership.state.isFinal }

    // MARK: - For subclasses

    /// Forgets the last sequence: subclasses reset their own phase and call super. (The
    /// arena resets its own bookkeeping.)
    open func reset() {}

    /// A frame of the sequence.
    open func handle(_ touches: TouchTracker) -> RecognizerUpdate { .none }

    /// What this recognizer reads of the tracker's costlier per-frame values
    /// (``TouchTracker/FrameValues``): the tracker computes them only while a recognizer of the
    /// sequence that reads them is not finished (possible, begun or changing). A recognizer of
    /// your own reads all of them unless it says otherwise.
    open var readsFrameValues: TouchTracker.FrameValues { .all }

    /// Whether this recognizer's gesture, once it begins or is recognised, establishes a
    /// translation of the press (a pan's): a transform of the same press (a pinch, a rotation)
    /// must then clear ``GestureDefaults/transformBarAfterTranslation``. The arena records it
    /// when it grants the claim (``TouchTracker/translatedInPress``); no recognizer writes it.
    open var establishesTranslation: Bool { false }

    /// The deadline the recognizer asked for has come (`now` is that deadline).
    open func deadlinePassed(_ now: Instant, _ touches: TouchTracker) -> RecognizerUpdate { .none }

    /// What an event in `state` at `time` carries, measured on the surface (millimetres, as
    /// the tracker has them): each kind's own values. A recognizer of your own carries `.custom`.
    /// It only reads: it may be asked more than once, and changes nothing.
    open func values(_ state: GestureState, time: Instant, _ touches: TouchTracker) -> GestureValues { .custom }

    /// Where an event is, on the surface: the fingers' centroid (a tap's: where it tapped).
    open func location(_ touches: TouchTracker) -> Point { touches.centroid }

    /// The fingers an event reports: those down (once they have lifted, those it ended with); a
    /// tap's or swipe's, the fingers it needs. The event carries the most the gesture has had.
    open func fingers(_ touches: TouchTracker) -> Int { touches.isDown ? touches.touches : touches.previousTouches }

    /// The gesture event for `state` at `time`, made here once: its ``values(_:time:_:)`` and
    /// ``location(_:)`` mapped onto the layout (``TouchTracker/mapping``), the most fingers the
    /// gesture has had since it began (``Gesture/currentTouches`` when those down differ), its
    /// region and where in it; no device (``Gesture/device`` is nil). The pipeline has it made
    /// with its device's name and delivers it as it is.
    public final func event(_ state: GestureState, time: Instant, _ touches: TouchTracker) -> Gesture {
        event(state, time: time, touches, device: nil)
    }

    /// ``event(_:time:_:)`` stamped with the device's name (the pipeline's, a copy of which
    /// the gesture takes over). Inlined where the pipeline calls it: called, its gesture was
    /// made in a temporary and copied out (about 40 instructions an event).
    @inline(__always)
    final func event(_ state: GestureState, time: Instant, _ touches: TouchTracker, device: consuming String?) -> Gesture {
        var values = values(state, time: time, touches)
        var location = location(touches)
        let mapping = touches.mapping
        if mapping != .identity {
            location = mapping.point(location)
            values = values.mapped(by: mapping)
        }
        let fingers = fingers(touches)
        if state == .began || state == .recognized {
            gestureTouches = fingers
        } else if state == .changed && touches.isDown {
            // Fingers joining a gesture that goes on count; one landing as it ends (a
            // touchpad's pan, which a landing ends) does not.
            gestureTouches = max(gestureTouches, fingers)
        }
        // The region used once, in one call, and not counted (``placedIn``). (`regionID` is its
        // id while it has one.)
        var localLocation = location
        var reference: RegionReference?
        if let placed = placedIn?._withUnsafeGuaranteedRef({ $0.place(location) }) {
            localLocation = placed.local
            reference = placed.reference
        }
        return Gesture.made(values: values, state: state, time: time, startTime: membership.sequenceStart, device: device,
                            region: regionID, namespace: regionNamespace, touches: gestureTouches,
                            currentTouches: fingers != gestureTouches ? fingers : nil, location: location,
                            localLocation: localLocation, targetReference: reference, recognizer: label)
    }
}

/// "1 touch", "2 touches".
func plural(_ n: Int, _ word: String) -> String {
    "\(n) \(word)\(n == 1 ? "" : word.hasSuffix("ch") ? "es" : "s")"
}
