import TouchEvents

/// One touch sequence: from a first finger landing in a region (its owner) until no finger of
/// it is down and its arena has decided every recognizer — a double tap's sequence lasts
/// through both taps. It has its own touches and its own arena.
///
/// Reused from sequence to sequence, with its tracker, arena and buffers (see ``TouchRouter``).
final class TouchSequence {
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// The region its first touch hit (nil once the sequence is over and kept for reuse).
    @exclusivity(unchecked) var owner: Region?
    /// The owner's hit area when the sequence began: where later touches join it.
    @exclusivity(unchecked) var ownerArea: Rect
    let touches = TouchTracker()
    let arena: Arena
    /// This frame's contacts for the sequence, when a frame's contacts are split between
    /// sequences (a reused buffer).
    @exclusivity(unchecked) var frame = TouchFrame(time: .zero, contacts: [])

    /// The regions of the owner's path with press handlers, from `down` until `up` or
    /// `cancelled` was delivered to them.
    @exclusivity(unchecked) var pressRegions: [Region] = []
    /// True once the sequence's `down` was delivered.
    @exclusivity(unchecked) var pressAnnounced = false
    /// True once a recognizer that owns its touches (``GestureRecognizer/ownsTouches``) began
    /// or was recognized in it: every touch of it, and every touch that joins it, is owned.
    @exclusivity(unchecked) var owned = false
    /// Touches of it that lifted while a recognizer of it that owns its touches could still
    /// take them (``TouchClaim/liftUndecided(slot:contact:)``), until it owns them or none can.
    @exclusivity(unchecked) var undecidedLifts: [(slot: Int, contact: Int)] = []
    /// What it was, for ``TouchRouter/sequenceObserver`` (kept only while one listens): when it
    /// began, the most fingers and recognizers it had, its gestures and failures.
    @exclusivity(unchecked) var report = TouchSequenceReport(region: nil, began: .zero, ended: .zero, fingers: 0, recognizers: 0,
                                                             gestures: 0, failures: [])

    /// No recognizer of it that owns its touches is still deciding.
    var mayStillBeOwned: Bool {
        !owned && arena.inPlay.contains { $0.takesTouches(fingers: touches.touches) && !$0.isFinished }
    }

    init(owner: Region, listener: any ArenaListener) {
        self.owner = owner
        ownerArea = owner.hitArea
        arena = Arena(listener: listener, touches: touches)
        frame.contacts.reserveCapacity(10)
        undecidedLifts.reserveCapacity(10)
    }

    /// Lets go of the regions and recognizers of a sequence that is over.
    func release() {
        owner = nil
        pressRegions.removeAll(keepingCapacity: true)
        pressAnnounced = false
        owned = false
        undecidedLifts.removeAll(keepingCapacity: true)
        if !report.failures.isEmpty { report.failures.removeAll() }
        arena.release()
        frame.contacts.removeAll(keepingCapacity: true)
    }

    /// Its tracker takes in `frame` (``TouchTracker/update(_:_:)``). Called on the sequence, not
    /// on its tracker read from outside: from here the tracker is borrowed, there it was
    /// retained and released for the call (about 45 instructions a frame).
    @inline(never)
    func track(_ frame: TouchFrame, _ filtered: FilteredFrame) {
        touches.update(frame, filtered)
    }

    /// No finger down and every recognizer decided.
    var isFinished: Bool { !touches.isDown && arena.isSettled }
}
