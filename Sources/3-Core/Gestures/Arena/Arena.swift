import Logging
import TouchEvents

/// What the arena decided for one recognizer in the current touch sequence. Declared here so
/// that only the arena can change it: recognizers and the pipeline read it.
///
/// Read on every frame: the arena reads its fields one by one (never the whole struct, whose
/// failure reason holds strings that a copy would retain).
struct ArenaMembership {
    /// A claim to begin or recognise.
    enum Claim {
        case begin, recognize
        /// Begin, leaving the others possible, and give way to the first of them that succeeds.
        case beginYielding
        /// The same while fingers may still join (``TouchTracker/staggerDeadline``).
        case beginTentatively
    }

    /// How a winner gives way (``RecognizerStep/beginYielding``, ``RecognizerStep/beginTentatively``).
    enum Yield {
        /// It does not: it won.
        case never
        /// To whatever succeeds after it, as long as it lasts (a touchpad's hold).
        case always
        /// To a gesture of more fingers than the `fingers` it began with that succeeds before the
        /// stagger deadline; then it won.
        case whileFingersMayJoin(fingers: Int)
    }

    fileprivate(set) var state = GestureState.possible
    /// When the recognizer asked to hear of time passing (its last ``RecognizerUpdate``); nil
    /// once it is finished.
    fileprivate(set) var deadline: Instant?
    /// A claim held back until the recognizers it requires have failed.
    fileprivate(set) var deferred: Claim?
    /// When the touch sequence began.
    fileprivate(set) var sequenceStart = Instant.zero
    /// Why it failed, with numbers.
    fileprivate(set) var failure: FailureReason?
    /// Begun as a yielding winner (``RecognizerStep/beginYielding``,
    /// ``RecognizerStep/beginTentatively``): whatever succeeds next may cancel it.
    fileprivate(set) var yields = Yield.never
}

extension GestureState {
    /// True once nothing more can happen to a recognizer in this sequence.
    var isFinal: Bool {
        switch self {
        case .failed, .recognized, .ended, .cancelled: true
        case .possible, .began, .changed: false
        }
    }

    /// True while a begun continuous gesture is going on.
    var isActive: Bool { self == .began || self == .changed }

    /// True for the states of a recognizer that won.
    var isSuccess: Bool {
        switch self {
        case .began, .changed, .ended, .recognized: true
        case .possible, .failed, .cancelled: false
        }
    }
}

extension ArenaMembership.Yield {
    /// Begun tentatively, fingers may still join.
    var isTentative: Bool {
        if case .whileFingersMayJoin = self { true } else { false }
    }

    /// It won outright: it gives way to nothing.
    var isNever: Bool {
        if case .never = self { true } else { false }
    }
}

/// Hears what an arena decides: every gesture event to deliver and every recognizer rejected.
protocol ArenaListener: AnyObject {
    /// `recognizer` entered `state` (began, changed, ended, cancelled, recognized) at `time`.
    func arena(_ arena: Arena, emits state: GestureState, of recognizer: GestureRecognizer, at time: Instant)
    /// `recognizer` failed at `time`, for `reason`.
    func arena(_ arena: Arena, rejected recognizer: GestureRecognizer, because reason: FailureReason, at time: Instant)
}

/// The recognizers competing for one touch sequence, and the rules between them — as
/// Flutter's `GestureArenaManager`, it knows nothing of taps or drags, and it alone changes a
/// recognizer's ``GestureRecognizer/state``:
///
/// - **Accept.** The first member to begin or recognise wins; every other member still
///   possible is rejected, unless the two are simultaneous (a kind in either's
///   `simultaneousKinds`, or either's `shouldRecognizeSimultaneously` says yes). A member that
///   asks later loses to the winner, unless simultaneous with it.
/// - **Yield.** A member that begins yielding (a touchpad's hold) wins without rejecting
///   anyone; the first other member to begin or recognise after it ends it `cancelled` and
///   wins in its place (libinput's hold, cancelled when the fingers start to move). One that
///   begins tentatively (a one-finger pan while more fingers may still land) does so until
///   the stagger deadline, and is an ordinary winner from then on: the others are rejected.
/// - **Require to fail.** A member that requires others to fail (its `require(toFail:)` list,
///   or fewer taps waiting for more taps) is held back while any of them is undecided; it goes
///   ahead at the moment the last of them fails, and fails if one of them succeeds.
///   Requirements outside the arena count as failed.
/// - **Hold and sweep.** A member waiting for a deadline or a requirement holds the arena open
///   after the fingers lift; every other member still possible is then rejected (`sweep`).
/// - **Cancel.** The sequence's touches became untrustworthy: begun gestures end `cancelled`,
///   the rest fail.
///
/// Members answer frames and deadlines with a ``RecognizerUpdate``; the arena applies it
/// and tells its ``ArenaListener`` what to deliver. Transitions are logged at debug level as
/// `recognizer@region: from → to (reason)`.
///
/// One arena per touch sequence, reused (``reset(regions:members:press:time:)``) with its
/// buffers, so a new sequence allocates nothing.
final class Arena {
    /// One frame or deadline at a time, never from inside one (a handler): checked in debug
    /// builds.
    private let entry = EntryCheck()
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// The regions whose recognizers take part, deepest first.
    @exclusivity(unchecked) private(set) var regions: [Region]
    /// The recognizers taking part, deepest region first.
    @exclusivity(unchecked) private(set) var members: [GestureRecognizer]
    /// The members still in play: every member not finished, in ``members``' order (and those
    /// that finished since the last frame's walk ended, which the next walk drops once it is
    /// over). What a frame, a deadline, a sweep and the arena's other rules walk: a member that
    /// failed costs nothing from the next frame on. (The built-in layout has 24 recognizers, and
    /// a sequence usually has a few still in play after its first frames: the walks over all of
    /// them were about 300 instructions a frame.) Every walk over it skips finished members as
    /// the walk over ``members`` did, so each visits the same members in the same order — but
    /// for a recognizer moved to another region while its old sequence goes on: a member of two
    /// arenas, whose new arena makes it possible again. The old arena drove it too, and still
    /// does while it is in play there; once it finished there, or a frame's walk there found it
    /// finished, no longer. (The rare walks for members held back, by their `deferred` claim,
    /// walk every member, as before.)
    @exclusivity(unchecked) private(set) var inPlay: [GestureRecognizer] = []
    /// Which press of the sequence (1 for the first) the members were reset for.
    @exclusivity(unchecked) private(set) var press: Int
    /// True once ``cancel(_:at:)`` ran.
    @exclusivity(unchecked) private(set) var isCancelled = false
    @exclusivity(unchecked) private var winners: [GestureRecognizer] = []
    /// How many members are held back by their requirements (most of the time none).
    @exclusivity(unchecked) private var heldBack = 0
    /// A member answered ``RecognizerStep/endAndStartOver`` since the last reset: the touches go
    /// on as a new gesture (``TouchRouter/restartIfDecided(_:time:)`` starts the arena over).
    @exclusivity(unchecked) private(set) var startOverAsked = false
    /// A member finished in this arena, or a frame's walk found one finished (by the other
    /// arena of a recognizer moved to another region), since the last walk: the walk drops the
    /// finished ones from ``inPlay`` once it is over.
    @exclusivity(unchecked) private var finishedSinceWalk = false
    /// The earliest deadline of the members (``nextDeadline``), while ``deadlinesChanged`` is
    /// false: the pipeline asks for it in every frame and the loop before every wait; walking
    /// every member each time was most of the loop's 1,490 instructions a turn for its next
    /// deadline (gestured-bench's live read path under callgrind; 707 since).
    @exclusivity(unchecked) private var earliestDeadline: Instant?
    /// A member's deadline may have changed since ``earliestDeadline`` was found. Every write of
    /// a member's `membership.deadline` is in this file (it is `fileprivate(set)`; the whole
    /// membership is replaced only in ``reset(regions:members:press:time:)``) and goes through
    /// ``setDeadline(_:_:)`` — of the arena the write is made in. A recognizer moved to another
    /// region while its old sequence goes on is a member of two arenas, and the other one's
    /// writes do not reach this flag: so each ``deadlinePassed(_:)`` looks again too, and a
    /// deadline no member holds any more is never asked for twice (the pipeline's `advance`
    /// goes on while some arena answers one that has passed).
    @exclusivity(unchecked) private var deadlinesChanged = true
    /// The sequence's touches, which members read.
    let touches: TouchTracker
    /// The pipeline, which owns every arena: `unowned(unsafe)` spares a reference count on each
    /// event delivered.
    private unowned(unsafe) let listener: any ArenaListener
    /// Set while debug logging is on.
    @exclusivity(unchecked) var logger: Logger?

    init(listener: any ArenaListener, touches: TouchTracker) {
        self.listener = listener
        self.touches = touches
        regions = []
        members = []
        press = 0
        winners.reserveCapacity(4)
        inPlay.reserveCapacity(8)
    }

    /// Makes the arena new for a sequence (or a later press of one) that began at `time`:
    /// every member back to `possible`, disabled members rejected at once.
    func reset(regions: [Region], members: [GestureRecognizer], press: Int, time: Instant) {
        self.regions = regions
        self.members = members
        // A buffer of its own (`members` is the layout's cached array, shared): dropping from
        // it never copies, and once it is as large as the largest path's, a sequence allocates nothing.
        inPlay.removeAll(keepingCapacity: true)
        inPlay.append(contentsOf: members)
        self.press = press
        winners.removeAll(keepingCapacity: true)
        isCancelled = false
        heldBack = 0
        startOverAsked = false
        finishedSinceWalk = false
        deadlinesChanged = true
        for member in members {
            member.reset()
            member.membership = ArenaMembership(sequenceStart: time)
            if !member.isEnabled { reject(member, .disabled, at: time) }
        }
        updateFrameValues()
    }

    /// The tracker computes what the members not yet finished read (``TouchTracker/computes``): asked
    /// again at a reset and whenever a member that reads something finishes.
    private func updateFrameValues() {
        var reads = TouchTracker.FrameValues()
        for member in inPlay where !member.isFinished { reads.formUnion(member.readsFrameValues) }
        touches.computes = reads
        touches.catchUp()
    }

    /// Lets go of the regions and members of a sequence that is over. (Their arrays are the
    /// layout's cached ones, shared: emptying them in place would copy them.)
    func release() {
        regions = []
        members = []
        inPlay.removeAll(keepingCapacity: true)
        winners.removeAll(keepingCapacity: true)
        heldBack = 0
        finishedSinceWalk = false
        deadlinesChanged = true
    }

    /// True once every member is decided.
    var isSettled: Bool {
        for member in inPlay where !member.isFinished { return false }
        return true
    }

    /// The earliest deadline a member asked for.
    var nextDeadline: Instant? {
        guard deadlinesChanged else { return earliestDeadline }
        var earliest: Instant?
        // A finished member has no deadline (``transition(_:to:reason:)``; one a second arena
        // made possible again is that arena's to drive).
        for member in inPlay {
            if let deadline = member.membership.deadline, deadline < earliest ?? .distantFuture { earliest = deadline }
        }
        earliestDeadline = earliest
        deadlinesChanged = false
        return earliest
    }

    /// Sets `member`'s deadline; ``nextDeadline`` looks again once one changed.
    @inline(__always)
    private func setDeadline(_ member: GestureRecognizer, _ deadline: Instant?) {
        if member.membership.deadline != deadline {
            member.membership.deadline = deadline
            deadlinesChanged = true
        }
    }

    // MARK: - Driving the members

    /// A frame of the sequence (already in ``touches``): every member still undecided reads it.
    func frameArrived() {
        let claimed = entry.enter("Arena.frameArrived()")
        defer { entry.leave(claimed) }
        let time = touches.time
        if touches.cancelled && !isCancelled {
            cancel(.cancelled("a touch was cancelled (palm, dropped events)"), at: time)
        }
        // A region with no gesture (its presses only, or nothing): nothing more to do, and
        // nothing looked at (about 30 instructions a frame).
        if members.isEmpty { return }
        if touches.bounced && heldBack > 0 {
            // A contact landed again where one just lifted: the lift was no lift, and a
            // recognition held back since it (a tap waiting for a tap of more taps) is void.
            for member in members where member.membership.deferred == .recognize { reject(member, .bounced, at: time) }
        }
        if touches.buttonPressed && touches.policy.buttonPressEndsRecognition {
            for member in inPlay where member.membership.state == .possible { reject(member, .buttonPressed, at: time) }
        }
        // Over the members in play when the frame came, through a second reference to the
        // array's storage (a `let`: changing `inPlay` meanwhile copies it first), which holds
        // every member for the whole walk. Read one by one from `inPlay` itself, each member was
        // retained and released around its step, in case the step changed `inPlay` (a handler
        // can cancel every gesture): about 140 instructions a frame with every kind. A member
        // finished before the walk reaches it (by an earlier member's step too) is skipped. Once
        // the walk is over, `inPlay` holds no member finished in this arena, nor one the walk
        // found finished. (No walk when none is left: holding the storage is a retain and a
        // release, about 40 instructions, and most frames of a swipe have every member decided.)
        if !inPlay.isEmpty {
            let walk = inPlay
            walk.forEachUnretained { member in
                if member.isFinished {
                    finishedSinceWalk = true
                } else {
                    apply(member.handle(touches), of: member, at: time)
                }
            }
        }
        // `walk` is gone: `inPlay`'s storage is its own again, and dropping copies nothing.
        if finishedSinceWalk {
            finishedSinceWalk = false
            inPlay.removeAll { $0.isFinished }
        }
        if heldTentatively { settleTentativeWinners(at: time) }
        if !touches.isDown { sweep(at: time) }
    }

    /// Some winner began tentatively and may still give way.
    private var heldTentatively: Bool { winners.contains { $0.membership.yields.isTentative } }

    /// The deadline `time` has come: the members that asked for it hear of it.
    func deadlinePassed(_ time: Instant) {
        let claimed = entry.enter("Arena.deadlinePassed(_:)")
        defer { entry.leave(claimed) }
        for member in inPlay where member.membership.deadline == time && !member.isFinished {
            setDeadline(member, nil)
            apply(member.deadlinePassed(time, touches), of: member, at: time)
        }
        deadlinesChanged = true
        if heldTentatively { settleTentativeWinners(at: time) }
        if !touches.isDown { sweep(at: time) }
    }

    /// The fingers have lifted: every member still possible and not holding the arena open
    /// (for a deadline or a requirement) fails.
    func sweep(at time: Instant) {
        for member in inPlay where member.membership.state == .possible
            && member.membership.deadline == nil && member.membership.deferred == nil {
            reject(member, .touchesLifted, at: time)
        }
    }

    /// Rejects every member still possible (waiting or not) for `reason`: the arena is over
    /// though fingers are down (a touchpad's pan ended with its finger count).
    func close(_ reason: FailureReason, at time: Instant) {
        for member in inPlay where member.membership.state == .possible { reject(member, reason, at: time) }
    }

    /// The touches can no longer be trusted: begun gestures end `cancelled`, undecided ones fail.
    func cancel(_ reason: FailureReason, at time: Instant) {
        isCancelled = true
        for member in inPlay where !member.isFinished { cancel(member, reason, at: time) }
    }

    /// One member no longer takes part (its region was removed or disabled, or it was taken
    /// off its region): begun, it ends `cancelled`; undecided, it fails.
    func cancel(_ member: GestureRecognizer, _ reason: FailureReason, at time: Instant) {
        guard !member.isFinished else { return }
        if member.membership.state.isActive {
            transition(member, to: .cancelled, reason: reason)
            listener.arena(self, emits: .cancelled, of: member, at: time)
        } else {
            reject(member, reason, at: time)
        }
    }

    // MARK: - Rules

    /// `update` is taken over, and its step switched on as it is consumed: borrowed, each update
    /// was destroyed afterwards by a call that looks at its case (about 60 instructions a frame),
    /// though only a failure carries something to release.
    private func apply(_ update: consuming RecognizerUpdate, of member: GestureRecognizer, at time: Instant) {
        setDeadline(member, update.deadline)
        let step = update.step
        if member.membership.deferred != nil {
            // Held back by its requirements: only a failure, or touches ending, count now.
            switch consume step {
            case .fail(let reason): reject(member, reason, at: time)
            case .end, .cancel: reject(member, .endedWhileWaiting, at: time)
            case .endAndStartOver:
                // Whatever the member's state: the touches go on as a new gesture.
                startOverAsked = true
                reject(member, .endedWhileWaiting, at: time)
            case .none, .begin, .beginYielding, .beginTentatively, .recognize, .change: break
            }
            return
        }
        switch consume step {
        case .none:
            break
        case .fail(let reason):
            reject(member, reason, at: time)
        case .begin:
            claim(member, .begin, at: time)
        case .beginYielding:
            claim(member, .beginYielding, at: time)
        case .beginTentatively:
            claim(member, .beginTentatively, at: time)
        case .recognize:
            claim(member, .recognize, at: time)
        case .change:
            guard member.membership.state.isActive else { return }
            member.membership.state = .changed
            listener.arena(self, emits: .changed, of: member, at: time)
        case .endAndStartOver:
            startOverAsked = true
            fallthrough
        case .end:
            guard member.membership.state.isActive else { return }
            transition(member, to: .ended, reason: nil)
            listener.arena(self, emits: .ended, of: member, at: time)
        case .cancel:
            guard member.membership.state.isActive else { return }
            transition(member, to: .cancelled, reason: nil)
            if !member.membership.yields.isNever { winners.removeAll { $0 === member } }
            listener.arena(self, emits: .cancelled, of: member, at: time)
        }
    }

    /// `member` wants to begin or recognise: it wins unless a rule says otherwise.
    private func claim(_ member: GestureRecognizer, _ claim: ArenaMembership.Claim, at time: Instant) {
        if member.membership.deferred != nil {
            member.membership.deferred = nil
            heldBack -= 1
        }
        if let shouldBegin = member.shouldBegin, !shouldBegin(member) {
            return reject(member, .shouldBeginRefused, at: time)
        }
        switch requirements(of: member) {
        case .succeeded(let other):
            return reject(member, .requirementSucceeded(other.label), at: time)
        case .pending:
            heldBack += 1
            member.membership.deferred = claim
            logger?.debug("\(member.label)@\(member.region?.id ?? "-"): waits for the recognizers it requires to fail")
            return
        case .allFailed:
            break
        }
        if claim != .beginYielding && claim != .beginTentatively {
            // A yielding winner gives way to the first other member to succeed after it.
            for winner in winners where gives(winner, at: time) && !simultaneous(member, winner) {
                yield(winner, to: member, at: time)
            }
        }
        if let winner = winners.first(where: { !simultaneous(member, $0) }) {
            return reject(member, .lostTo(winner.label), at: time)
        }
        winners.append(member)
        let state: GestureState = claim == .recognize ? .recognized : .began
        member.membership.yields = switch claim {
        case .beginYielding: .always
        case .beginTentatively where time < touches.staggerDeadline: .whileFingersMayJoin(fingers: touches.touches)
        case .begin, .recognize, .beginTentatively: .never
        }
        transition(member, to: state, reason: nil)
        // What a transform of the same press must outweigh from now on.
        if member.establishesTranslation { touches.recordTranslation() }
        listener.arena(self, emits: state, of: member, at: time)
        guard member.membership.yields.isNever else { return }
        for other in inPlay where other !== member && other.membership.state == .possible && !simultaneous(other, member) {
            reject(other, .lostTo(member.label), at: time)
        }
    }

    /// Whether `winner` still gives way to another that succeeds at `time`.
    private func gives(_ winner: GestureRecognizer, at time: Instant) -> Bool {
        switch winner.membership.yields {
        case .never: false
        case .always: true
        case .whileFingersMayJoin(let fingers): time < touches.staggerDeadline && touches.touches > fingers
        }
    }

    /// A winner that began tentatively and whose fingers can no longer be joined has won: the
    /// members still possible beside it are rejected, as at an ordinary win.
    private func settleTentativeWinners(at time: Instant) {
        for winner in winners where winner.membership.yields.isTentative && time >= touches.staggerDeadline {
            winner.membership.yields = .never
            guard winner.membership.state.isActive else { continue }
            for other in inPlay where other !== winner && other.membership.state == .possible && !simultaneous(other, winner) {
                reject(other, .lostTo(winner.label), at: time)
            }
        }
    }

    /// `winner`, begun yielding, gives way to `member`: it ends `cancelled` and is no winner.
    private func yield(_ winner: GestureRecognizer, to member: GestureRecognizer, at time: Instant) {
        winners.removeAll { $0 === winner }
        guard winner.membership.state.isActive else { return }
        logger?.debug("\(winner.label)@\(winner.region?.id ?? "-"): gives way to \(member.label)")
        transition(winner, to: .cancelled, reason: nil)
        listener.arena(self, emits: .cancelled, of: winner, at: time)
    }

    private func reject(_ member: GestureRecognizer, _ reason: FailureReason, at time: Instant) {
        guard member.membership.state == .possible else { return }
        member.membership.failure = reason
        setDeadline(member, nil)
        if member.membership.deferred != nil {
            member.membership.deferred = nil
            heldBack -= 1
        }
        transition(member, to: .failed, reason: reason)
        listener.arena(self, rejected: member, because: reason, at: time)
        // Those held back for `member` to fail may go ahead now — unless the whole arena is
        // being cancelled, where nothing succeeds.
        guard heldBack > 0, !isCancelled else { return }
        for waiting in members {
            guard let claim = waiting.membership.deferred else { continue }
            if case .pending = requirements(of: waiting) { continue }
            self.claim(waiting, claim, at: time)
        }
    }

    private enum Requirements {
        case allFailed
        case pending
        case succeeded(GestureRecognizer)
    }

    /// Where the recognizers `member` requires to fail stand (those outside this arena count as failed).
    private func requirements(of member: GestureRecognizer) -> Requirements {
        var pending = false
        for list in [member.requirements, member.automaticRequirements] {
            for required in list {
                guard members.contains(where: { $0 === required }) else { continue }
                if required.membership.state.isSuccess { return .succeeded(required) }
                if !required.isFinished { pending = true }
            }
        }
        return pending ? .pending : .allFailed
    }

    private func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.simultaneousKinds.contains(b.kind) || b.simultaneousKinds.contains(a.kind)
            || a.shouldRecognizeSimultaneously?(a, b) == true || b.shouldRecognizeSimultaneously?(b, a) == true
    }

    private func transition(_ member: GestureRecognizer, to state: GestureState, reason: FailureReason?) {
        if let logger {
            var line = "\(member.label)@\(member.region?.id ?? "-"): \(member.membership.state) → \(state)"
            if let reason { line += " (\(reason))" }
            logger.debug("\(line)")
        }
        member.membership.state = state
        if state.isFinal {
            finishedSinceWalk = true
            setDeadline(member, nil)
            if !member.readsFrameValues.isEmpty { updateFrameValues() }
        }
    }
}
