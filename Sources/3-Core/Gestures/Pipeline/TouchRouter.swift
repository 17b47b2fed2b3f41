import Logging
import TouchEvents

/// Where touches go: each contact to its touch sequence, and each new sequence to the region
/// its first touch hits (with the recognizers of that region and its ancestors).
///
/// - A later touch joins a sequence when it lands in the owner's hit area (as it was when the
///   sequence began), or in a region the sequence's arena holds; otherwise it starts a sequence
///   of its own in the region it hits, so two buttons can be pressed at once.
/// - A touch landing beyond the device's surface (a device reporting past its declared range,
///   however far) is taken at the surface's nearest edge; mapped, it lands where
///   ``Layout/landing(_:)`` says — a little beyond the root: at its nearest point; farther out:
///   nowhere, as ``Layout/hitTest(_:)`` has it. A touch that hits no region is ignored.
/// - A sequence's arena holds the owner's and its ancestors' recognizers, deepest first,
///   leaving out regions another sequence already holds.
///
/// Finished sequences are kept for reuse (holding no region), and each owner's list of
/// recognizers is cached by the layout while it does not change: routing a frame allocates
/// nothing.
final class TouchRouter {
    let layout: Layout
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    @exclusivity(unchecked) var mapping: SurfaceMapping
    @exclusivity(unchecked) var policy: TouchPolicy
    /// The sequences going on, oldest first.
    @exclusivity(unchecked) private(set) var sequences: [TouchSequence] = []
    /// Where each contact that is down goes.
    @exclusivity(unchecked) private var routes: [Route] = []
    /// Where a contact that is down goes.
    struct Route {
        var contact: Int
        /// The contact's slot (`TouchContact.slot`): what a device's twin knows it by.
        var slot: Int
        /// nil: it hit no region and is ignored.
        var sequence: TouchSequence?
        /// It ended in this frame: the route goes once the frame is handled
        /// (``removeEndedRoutes()``), so that a gesture recognized at the lift still owns it.
        var ending = false
        /// ``touchClaim`` was told no recognizer will own it (``TouchClaim/settled(slot:contact:)``).
        var settled = false
    }
    /// Routes marked ending in this frame.
    @exclusivity(unchecked) private var endingRoutes = 0
    /// What a runtime that owns the device is told about touches (``GesturePipeline/onTouchClaim``).
    @exclusivity(unchecked) var touchClaim: ((TouchClaim) -> Void)?
    /// Whether a touch is held back or its lift withheld while an owning recognizer decides
    /// (told as undecided, then settled): on a touchscreen. A touchpad's touches are owned by
    /// their count as they land (``TouchPolicy/ownsAtFingerCount``): nothing of them waits.
    private var touchesWaitForOwners: Bool { policy.ownsAtFingerCount == nil }
    /// Finished sequences kept for reuse.
    @exclusivity(unchecked) private var spare: [TouchSequence] = []
    /// Set while debug logging is on.
    @exclusivity(unchecked) var logger: Logger?
    /// Told what each touch sequence was once it is over, and of each touch that hit no region
    /// (``GesturePipeline/sequenceObserver``).
    @exclusivity(unchecked) var sequenceObserver: ((TouchSequenceReport) -> Void)?

    /// The device's size (mm), when known.
    let surface: SurfaceSize?

    init(layout: Layout, mapping: SurfaceMapping, policy: TouchPolicy, surface: SurfaceSize?) {
        self.layout = layout
        self.surface = surface
        self.mapping = mapping
        self.policy = policy
    }

    /// Sorts the frame's contacts into their sequences, starting sequences for new touches
    /// (whose arenas report to `listener`). When one sequence has every contact it is returned
    /// and nothing is copied; otherwise each sequence's ``TouchSequence/frame`` gets its own
    /// contacts.
    func route(_ frame: TouchFrame, listener: any ArenaListener) -> TouchSequence? {
        // By index: iterating the array itself retains and releases it (about 45 instructions).
        for i in sequences.indices where !sequences[i].frame.contacts.isEmpty {
            sequences[i].frame.contacts.removeAll(keepingCapacity: true)
        }
        var single: TouchSequence?
        var split = false
        for n in frame.contacts.indices {
            // Its id and phase read in place: the usual contact needs nothing else, and copying
            // all of it out cost about 15 instructions.
            let id = frame.contacts[n].id
            let phase = frame.contacts[n].phase
            let sequence: TouchSequence?
            if let i = routes.firstIndex(hint: n, where: { $0.contact == id }) {
                if phase.isFinal {
                    routes[i].ending = true
                    endingRoutes += 1
                }
                // The usual case: the sequence of every contact before it. Compared where it is,
                // not copied out: a copy is a reference count (about 40 instructions a contact).
                if n > 0 && !split && routes[i].sequence === single { continue }
                sequence = routes[i].sequence
            } else if phase.isFinal {
                // Ended before we saw it: it belongs to no sequence.
                sequence = nil
            } else {
                // A contact we have not seen: it began, or was down before we listened.
                let contact = frame.contacts[n]
                sequence = self.sequence(for: Point(x: contact.x, y: contact.y), time: frame.time, listener: listener)
                routes.append(Route(contact: contact.id, slot: contact.slot, sequence: sequence))
                if let touchClaim {
                    touchClaim(.landed(slot: contact.slot, contact: contact.id))
                    // Joining a sequence that owns its touches: owned from its first frame.
                    if let sequence, sequence.owned { touchClaim(.owned(slot: contact.slot, contact: contact.id)) }
                    // Hitting no region: no gesture will have it.
                    if sequence == nil && touchesWaitForOwners {
                        routes[routes.count - 1].settled = true
                        touchClaim(.settled(slot: contact.slot, contact: contact.id))
                    }
                }
            }
            if !split {
                if n == 0 {
                    single = sequence
                } else if sequence !== single {
                    // Every contact before this one went to `single`: give them to it.
                    split = true
                    single?.frame.contacts.append(contentsOf: frame.contacts[..<n])
                }
            }
            if split { sequence?.frame.contacts.append(frame.contacts[n]) }
        }
        return split ? nil : single
    }

    /// Forgets the routes of the contacts that ended in the frame just handled. A touch that
    /// ended while a recognizer of its sequence that owns its touches may still take it is
    /// told to ``touchClaim`` as an undecided lift — on a touchscreen: a touchpad's touches are
    /// owned by their count as they land (``TouchPolicy/ownsAtFingerCount``), so its lifts never wait.
    @inline(__always)
    func removeEndedRoutes() {
        // Checked where it is called: most frames end no contact (a call cost about 18
        // instructions a frame).
        if endingRoutes > 0 { removeEndedRoutesNow() }
    }

    @inline(never)
    private func removeEndedRoutesNow() {
        if let touchClaim, touchesWaitForOwners {
            for route in routes where route.ending && !route.settled {
                guard let sequence = route.sequence, sequence.mayStillBeOwned else { continue }
                sequence.undecidedLifts.append((route.slot, route.contact))
                touchClaim(.liftUndecided(slot: route.slot, contact: route.contact))
            }
        }
        routes.removeAll(where: \.ending)
        endingRoutes = 0
    }

    /// The touches of sequences no recognizer that owns its touches can take any more — down
    /// (those not told yet) or lifted while undecided — are settled: told to ``touchClaim``.
    /// On a touchscreen: a touchpad's are owned by their count as they land, and a touch
    /// there is neither held back nor its lift withheld.
    @inline(__always)
    func settle() {
        // Checked where it is called: only a device whose touches gestured owns settles any
        // (a call cost about 20 instructions a frame).
        if touchClaim != nil && touchesWaitForOwners { settleNow() }
    }

    @inline(never)
    private func settleNow() {
        guard let touchClaim else { return }
        for sequence in sequences where !sequence.owned && !sequence.mayStillBeOwned {
            settleUndecidedLifts(of: sequence)
            for i in routes.indices where !routes[i].settled && routes[i].sequence === sequence {
                routes[i].settled = true
                touchClaim(.settled(slot: routes[i].slot, contact: routes[i].contact))
            }
        }
    }

    /// `sequence` owns its touches from now on: each of its touches (those ending in this
    /// frame, and those whose lift was undecided, too) is told to ``touchClaim``, once.
    func own(_ sequence: TouchSequence) {
        guard !sequence.owned else { return }
        sequence.owned = true
        guard let touchClaim else { return }
        for lift in sequence.undecidedLifts { touchClaim(.owned(slot: lift.slot, contact: lift.contact)) }
        sequence.undecidedLifts.removeAll(keepingCapacity: true)
        for route in routes where route.sequence === sequence { touchClaim(.owned(slot: route.slot, contact: route.contact)) }
    }

    /// The sequence a new touch at `millimetres` (on the surface) belongs to, starting one if needed.
    private func sequence(for millimetres: Point, time: Instant, listener: any ArenaListener) -> TouchSequence? {
        var onSurface = millimetres
        if let surface {
            onSurface.x = min(max(onSurface.x, 0), surface.width)
            onSurface.y = min(max(onSurface.y, 0), surface.height)
        }
        guard let point = layout.landing(mapping.point(onSurface)) else {
            logger?.debug("a touch at \(mapping.point(onSurface)) is beyond the root: ignored")
            sequenceObserver?(TouchSequenceReport(region: nil, began: time, ended: time, fingers: 1, recognizers: 0, gestures: 0, failures: []))
            return nil
        }
        if let joined = sequences.first(where: { $0.ownerArea.contains(point) }) { return joined }
        guard let hit = layout.hitTest(point) else {
            logger?.debug("a touch at \(point) hit no region: ignored")
            sequenceObserver?(TouchSequenceReport(region: nil, began: time, ended: time, fingers: 1, recognizers: 0, gestures: 0, failures: []))
            return nil
        }
        if let joined = sequences.first(where: { $0.arena.regions.contains { $0 === hit } }) { return joined }
        let sequence: TouchSequence
        if let reused = spare.popLast() {
            sequence = reused
            sequence.owner = hit
            sequence.ownerArea = hit.hitArea
            sequence.touches.reset()
        } else {
            sequence = TouchSequence(owner: hit, listener: listener)
        }
        sequence.touches.mapping = mapping
        sequence.touches.policy = policy
        // A reused sequence starts a report of its own, whoever listens (a report with no
        // failures costs nothing to make).
        sequence.report = TouchSequenceReport(region: sequenceObserver == nil ? nil : hit.id, began: time, ended: time, fingers: 0,
                                              recognizers: 0, gestures: 0, failures: [])
        // Among the sequences before its arena starts: what the arena rejects at once (a
        // disabled recognizer) is the sequence's.
        sequences.append(sequence)
        startArena(of: sequence, press: 1, time: time)
        return sequence
    }

    /// Every recognizer of `sequence` decided while a later press is down (a second tap too
    /// far from the first, say): that press starts over with fresh recognizers. When a member
    /// asked the arena to start over (``RecognizerStep/endAndStartOver``: a touchpad's pan that
    /// ended because a finger landed, ``TouchPolicy/fingerCountEndsPan``), the fingers down start
    /// over at once, as a gesture of their new count.
    @inline(__always)
    func restartIfDecided(_ sequence: TouchSequence, time: Instant) -> Bool {
        // Checked where it is called: in most frames the fingers of the arena's press are still
        // down and nothing asked to start over (a call cost about 24 instructions a frame).
        guard sequence.touches.isDown,
              sequence.arena.startOverAsked || sequence.arena.press != sequence.touches.pressIndex else { return false }
        return restartNow(sequence, time: time)
    }

    @inline(never)
    private func restartNow(_ sequence: TouchSequence, time: Instant) -> Bool {
        if sequence.arena.startOverAsked {
            settleUndecidedLifts(of: sequence)
            // What the arena still holds is over.
            sequence.arena.close(.fingerCountChanged, at: time)
            startArena(of: sequence, press: sequence.touches.pressIndex, time: time)
            return true
        }
        guard sequence.arena.press != sequence.touches.pressIndex, sequence.arena.isSettled else {
            return false
        }
        settleUndecidedLifts(of: sequence)
        startArena(of: sequence, press: sequence.touches.pressIndex, time: time)
        return true
    }

    /// The arena that left these lifts undecided is over (it starts over): no recognizer of it
    /// will own them.
    private func settleUndecidedLifts(of sequence: TouchSequence) {
        guard !sequence.undecidedLifts.isEmpty else { return }
        if !sequence.owned, let touchClaim {
            for lift in sequence.undecidedLifts { touchClaim(.settled(slot: lift.slot, contact: lift.contact)) }
        }
        sequence.undecidedLifts.removeAll(keepingCapacity: true)
    }

    /// Fills the sequence's arena with its owner's path, leaving out regions other sequences
    /// hold.
    private func startArena(of sequence: TouchSequence, press: Int, time: Instant) {
        guard let owner = sequence.owner else { return }
        guard owner.isReachable(in: layout) else {
            // Its region went while the sequence lasted: later presses start nothing.
            sequence.arena.reset(regions: [], members: [], press: press, time: time)
            return
        }
        var path = layout.path(of: owner)
        // Begun in an exclusion region: only its namespace's recognizers take it.
        var region: Region? = owner
        while let r = region, !r.isGestureExclusion { region = r.parent }
        if let exclusion = region {
            path.regions = path.regions.filter { $0.namespace == exclusion.namespace }
            path.recognizers = path.regions.flatMap(\.recognizers)
        }
        if sequences.contains(where: { $0 !== sequence }) {
            path.regions = path.regions.filter { region in
                !sequences.contains { other in other !== sequence && other.arena.regions.contains { $0 === region } }
            }
            path.recognizers = path.regions.flatMap(\.recognizers)
        }
        sequence.arena.logger = logger
        sequence.arena.reset(regions: path.regions, members: path.recognizers, press: press, time: time)
        if sequenceObserver != nil { sequence.report.recognizers = max(sequence.report.recognizers, path.recognizers.count) }
        logger?.debug("touch sequence began", metadata: [
            "region": "\(owner.id)", "recognizers": "\(path.recognizers.count)",
        ])
    }

    /// The layout changed: a sequence whose region touches can no longer reach (removed,
    /// hidden, disabled, or an ancestor of it) is cancelled; so is a member that is no longer
    /// on a region of its sequence's path.
    func layoutChanged(at time: Instant) {
        for sequence in sequences where !sequence.arena.isSettled {
            guard let owner = sequence.owner, owner.isReachable(in: layout) else {
                logger?.debug("touch sequence cancelled: its region was removed, hidden or disabled",
                              metadata: ["region": "\(sequence.owner?.id ?? "-")"])
                sequence.arena.cancel(.regionGone, at: time)
                continue
            }
            let path = owner.path
            for member in sequence.arena.members where !member.isFinished {
                guard let region = member.region, path.contains(where: { $0 === region }),
                      region.recognizers.contains(where: { $0 === member }) else {
                    sequence.arena.cancel(member, .regionGone, at: time)
                    continue
                }
            }
        }
    }

    /// Drops the sequences that are over at `time`, keeping a few for reuse.
    func removeFinished(at time: Instant) {
        guard sequences.contains(where: \.isFinished) else { return }
        for sequence in sequences where sequence.isFinished {
            logger?.debug("touch sequence ended", metadata: ["region": "\(sequence.owner?.id ?? "-")"])
            if let sequenceObserver, sequence.report.region != nil {
                sequence.report.ended = time
                sequenceObserver(sequence.report)
                sequence.report.region = nil
            }
            // A kept sequence holds no region or recognizer: a removed one is not kept alive.
            sequence.release()
            if spare.count < 8 { spare.append(sequence) }
        }
        sequences.removeAll(where: \.isFinished)
    }

    /// Forgets every sequence and route (after cancelling them).
    func removeAll() {
        for sequence in sequences {
            settleUndecidedLifts(of: sequence)
            sequence.release()
        }
        sequences.removeAll()
        routes.removeAll()
        endingRoutes = 0
    }
}
