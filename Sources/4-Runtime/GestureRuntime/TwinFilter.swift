import Gestures
import TouchEvents

/// What an owned device's twin gets of its kernel frames — pure logic, no I/O and no clock:
/// the device's events come in (``add(_:)``), each frame's events for the twin come out
/// (``endFrame()``, ``deadlinePassed(_:)``, ``ownershipChanged(at:)``, ``cancelAll(at:)``), in
/// the kernel's order.
///
/// A device gestured owns is grabbed (`EVIOCGRAB`: its events reach gestured alone), and a
/// uinput twin with its description stands in for it before the compositor. Each touch
/// (a multitouch slot's contact, from its tracking id to its lift) is, on the twin:
/// - **passed** — its events go to the twin as the device sent them;
/// - **owned** (``own(slot:contact:)``: a gesture that owns its touches has it) — on a
///   touchscreen, a touch the twin has is **cancelled** there (`ABS_MT_TOOL_TYPE`
///   `MT_TOOL_PALM` in one frame, its lift in the next: libinput ends it with `TOUCH_CANCEL`,
///   never `TOUCH_UP`; or, with ``ending`` `OwnedTouchEnding.lift`, lifted where it is, for a
///   compositor that drops libinput's cancel) and the rest of its events are withheld; one the twin does not have yet
///   never reaches it. On a touchpad it stays on the twin as a palm (libinput leaves palms out
///   of pointer motion, scrolling, tapping and its own gestures), from the frame it is owned;
/// - **lift withheld** (touchscreens: ``holdLift(slot:contact:)``, a gesture that owns its
///   touches may still take it — a double tap after its first tap, a two-finger tap after its
///   first finger lifts) — the touch stays down on the twin after it lifted on the device,
///   until it is owned (then cancelled) or ``settle(slot:contact:)`` says no gesture will own
///   it (then lifted). Meanwhile the device may reuse its slot: the new contact takes another of
///   the twin's slots (the twin has as many as the device);
/// - **held back** (touchscreens, with a ``holdBack`` above zero) — a new touch is withheld
///   for up to ``holdBack``: if it is owned meanwhile, the twin never sees it; if not, its
///   events go to the twin at once, in order, positions unchanged (when the time is up, or
///   when it lifts and its lift is not withheld) — with every other touch held back then,
///   frame by frame as they came; or, alone, once it is settled (``settle(slot:contact:)``:
///   no gesture will own it). One settled in the frame it lands is not held back at all.
///
/// The gesture pipeline names each touch as it first routes it (``name(slot:contact:)``), and
/// its later word (owned, lift undecided, settled) finds the touch by that name: the device
/// may have reused the touch's slot by then.
///
/// On a touchscreen the twin's `BTN_TOUCH` and `BTN_TOOL_*` keys follow the touches the twin
/// has (not the device's), and the single-touch axes (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`: the
/// kernel's pointer emulation, which libinput does not read on a multitouch device) pass only
/// while the twin has every touch that is down. `SYN_DROPPED` is not passed: the events that
/// bring the device up to date after it (libevdev's sync deltas) are, as a frame of their own.
///
/// A contact that starts on the twin gets every per-slot value of the device's the twin lacks
/// (the kernel sends only what changed, and the twin did not get what a withheld contact
/// changed); what the twin has already is not written again. Its tool type comes before its
/// tracking id: libinput takes a touch that begins in a slot whose tool is a palm (the last
/// touch there was cancelled) as a palm from its start, and drops it.
///
/// Allocation-free per frame once its buffers have grown (the held-back touches' queue grows
/// with them).
public struct TwinFilter {
    /// Whether owned touches are cancelled and withheld (a touchscreen) or stay as palms (a
    /// touchpad).
    public let kind: DeviceKind
    /// How long a new touch on a touchscreen is withheld before it goes to the twin, unless
    /// it is owned first (zero: never held; a change applies to touches that land after it).
    public var holdBack: Duration {
        didSet { if kind != .touchscreen { holdBack = .zero } }
    }

    /// How a touchscreen touch the twin has ends when it is owned: `OwnedTouchEnding.cancel`
    /// (a palm, then its lift: libinput's `TOUCH_CANCEL`) or `OwnedTouchEnding.lift` (its
    /// lift alone, where it is: `TOUCH_UP`, for a compositor that drops libinput's cancel).
    /// `OwnedTouchEnding.automatic` is the runtime's to resolve; here it cancels.
    public var ending = OwnedTouchEnding.cancel

    /// A slot of the device.
    struct Slot {
        /// A contact is down in this slot on the device.
        var down = false
        /// The slot's latest contact (an index of `contacts`; -1: none).
        var contact = -1
    }

    /// A contact of the device, from its tracking id until it is neither down on the device
    /// nor on the twin nor held back.
    struct Contact {
        var inUse = false
        /// Its slot on the device.
        var slot = 0
        /// The gesture pipeline's id for it, once the pipeline named it (-1 until then).
        var id = -1
        /// Down on the device.
        var down = false
        /// Began in the frame being read.
        var began = false
        /// What becomes of it on the twin: changed only by ``TwinFilter/setFate(_:_:at:)``.
        fileprivate(set) var fate = Fate.passed
        /// Its slot on the twin (-1: the twin does not have it).
        var twinSlot = -1
        /// Its tool type as it landed (`ABS_MT_TOOL_TYPE`; finger where the device has none).
        var tool = MTToolType.finger
        /// No gesture will own it (the pipeline settled it): it is not held back, and goes to
        /// the twin as soon as its place in the held-back queue allows.
        var settled = false

        /// Owned by a gesture: taken, or ended on the twin since.
        var owned: Bool {
            switch fate {
            case .owned, .endedByCancel, .endedByLift: true
            default: false
            }
        }
        /// Held back: since when.
        var heldSince: Instant? {
            if case .heldBack(let since, _) = fate { return since }
            return nil
        }
        /// Its lift is withheld from the twin until it is owned or settled.
        var liftHeld: Bool { liftHeldOrder != nil }
        /// When its lift was withheld (`liftsWithheld` then): the oldest goes first to make room.
        var liftHeldOrder: Int? {
            switch fate {
            case .liftWithheld(let order), .heldBack(_, let order?): order
            default: nil
            }
        }
    }

    /// What becomes of a touch on the twin — one state per touch, each change logged
    /// (``onFateChange``).
    public enum Fate: Equatable, Sendable, CustomStringConvertible {
        /// Its events go to the twin as the device sent them.
        case passed
        /// Kept from the twin since `since` (``holdBack``), while an owning gesture may take it;
        /// with `liftWithheld`, it lifted meanwhile and that lift waits too (its number, in
        /// the order lifts were withheld).
        case heldBack(since: Instant, liftWithheld: Int?)
        /// A gesture that owns its touches took it: withheld from now on; the twin, if it had
        /// it, ends it (on a touchpad it stays there as a palm until it lifts).
        case owned
        /// It lifted on the device while an owning gesture may still take it: down on the twin
        /// until it is owned or settled (`order`: the oldest goes first to make room).
        case liftWithheld(order: Int)
        /// Owned, and ended on the twin with libinput's cancel (a palm, then its lift).
        case endedByCancel
        /// Owned, and ended on the twin with a plain lift (``ending`` `OwnedTouchEnding.lift`).
        case endedByLift

        public var description: String {
            switch self {
            case .passed: "passed"
            case .heldBack(_, nil): "held back"
            case .heldBack(_, _?): "held back, lift withheld"
            case .owned: "owned"
            case .liftWithheld: "lift withheld"
            case .endedByCancel: "ended by cancel"
            case .endedByLift: "ended by lift"
            }
        }
    }

    /// Hears each touch's change of fate: the pipeline's name for it (-1: not named yet), its
    /// slot on the device, the fates before and after, when (the latest event read, or the
    /// hold-back deadline passed), and why. The runtime logs it at debug level; `replay
    /// --explain` prints it.
    public var onFateChange: ((_ contact: Int, _ slot: Int, _ from: Fate, _ to: Fate, _ time: Instant, _ why: String) -> Void)?

    /// The per-slot axes mirrored, `ABS_MT_TOUCH_MAJOR` (0x30) … `ABS_MT_TOOL_Y` (0x3d) and
    /// the rest of the multitouch range: a code's index is `code - 0x30`.
    static let axes = Int(AbsCode.max) - Int(AbsCode.mtTouchMajor) + 1
    static let toolAxis = Int(AbsCode.mtToolType - AbsCode.mtTouchMajor)
    static let trackingAxis = Int(AbsCode.mtTrackingID - AbsCode.mtTouchMajor)

    private var slots: [Slot]
    private var contacts: [Contact]
    /// Which contact each of the twin's slots has (an index of `contacts`; -1: none).
    private var twinUsers: [Int]
    /// Each device slot's axes as the device last set them, and each twin slot's as the twin
    /// last got them (slot-major, ``axes`` each): a contact that starts on the twin gets the
    /// device's values the twin lacks — the kernel sends only what changed, and what changed
    /// while the twin did not have the slot (a withheld contact's, a palm's) would otherwise
    /// be missing.
    private var deviceAxes: [Int32]
    private var twinAxes: [Int32]
    /// The per-slot axes the twin has (besides the tracking id): the device's, and the tool type.
    private let mirroredAxes: [Int]
    /// The device's current slot, as its events set it.
    private var deviceSlot: Int
    /// The twin's current slot, as the events written to it set it.
    private var twinSlot = -1
    /// The frame being read, and the contact each of its per-slot events belongs to (an index
    /// of `contacts`; -1: not a per-slot event; -2: a slot without a contact).
    private var frame: [InputEvent] = []
    private var frameContacts: [Int] = []
    /// Held-back contacts' events, all of them in the order they came, frame by frame, each
    /// with its contact (`heldContacts`, -1 for a frame's end): released together, so fingers
    /// that landed together reach the twin together.
    private var held: [InputEvent] = []
    private var heldContacts: [Int] = []
    /// What to write to the twin.
    private var out: [InputEvent] = []
    /// The keys the device has among `BTN_TOUCH`, `BTN_TOOL_FINGER` … `BTN_TOOL_QUINTTAP`.
    private let touchKeys: [UInt16]
    /// Their state on the twin.
    private var twinKeys: [Bool]
    /// The latest event time read.
    private var lastTime = Instant.zero
    /// A withheld lift was settled since the twin was last written to.
    private var liftsSettled = false
    /// The twin's slots whose touch lifted in the frame being written: libinput takes the
    /// last tracking id of a slot in a frame, so a new touch waits for the next frame there.
    private var freedInFrame: [Bool]
    /// How many lifts were withheld so far: each withheld lift's number orders them (oldest first).
    private var liftsWithheld = 0

    /// A filter for a device of `kind` with `slotCount` multitouch slots, whose `EV_KEY` codes
    /// are `keys` and absolute axes `axes` (with their values when the device was opened: its
    /// current slot is `ABS_MT_SLOT`'s).
    public init(kind: DeviceKind, slotCount: Int, keys: Set<UInt16>, axes: [UInt16: AbsInfo] = [:], holdBack: Duration = .zero) {
        self.kind = kind
        self.holdBack = kind == .touchscreen ? holdBack : .zero
        let count = max(1, slotCount)
        slots = Array(repeating: Slot(), count: count)
        contacts = Array(repeating: Contact(), count: 2 * count + 2)
        twinUsers = Array(repeating: -1, count: count)
        freedInFrame = Array(repeating: false, count: count)
        let all = [KeyCode.touch, KeyCode.toolFinger, KeyCode.toolDoubleTap, KeyCode.toolTripleTap,
                   KeyCode.toolQuadTap, KeyCode.toolQuintTap]
        touchKeys = all.filter(keys.contains)
        twinKeys = Array(repeating: false, count: touchKeys.count)
        var mirrored = [Self.toolAxis]
        for code in axes.keys.sorted() where code >= AbsCode.mtTouchMajor && code <= AbsCode.max {
            let axis = Int(code - AbsCode.mtTouchMajor)
            if axis != Self.toolAxis && axis != Self.trackingAxis { mirrored.append(axis) }
        }
        mirroredAxes = mirrored
        // The twin starts where its description does (`twinDescription`): each axis at its minimum, or 0.
        var start = Array(repeating: Int32(0), count: Self.axes)
        for (code, info) in axes where code >= AbsCode.mtTouchMajor && code <= AbsCode.max {
            start[Int(code - AbsCode.mtTouchMajor)] = min(max(0, info.minimum), info.maximum)
        }
        start[Self.toolAxis] = MTToolType.finger
        deviceAxes = Array((0..<count).map { _ in start }.joined())
        twinAxes = deviceAxes
        let current = Int(axes[AbsCode.mtSlot]?.value ?? 0)
        deviceSlot = current >= 0 && current < count ? current : 0
        frame.reserveCapacity(256)
        frameContacts.reserveCapacity(256)
        out.reserveCapacity(512)
    }

    /// The device's multitouch values in each slot as it has them now (`TouchDevice.slotValues()`;
    /// by code, the slot and tracking id ignored): the kernel leaves a value out of the events
    /// to come where it does not change, so a touch that lands where the last one in its slot
    /// was brings no position of its own — the twin, made after those touches, must get it
    /// from here (without it, such a touch lands at 0 on the twin: the screen's corner).
    public mutating func seed(slotValues: [[UInt16: Int32]]) {
        for (slot, row) in slotValues.enumerated() where slot < slots.count {
            for (code, value) in row where code >= AbsCode.mtTouchMajor && code <= AbsCode.max && code != AbsCode.mtTrackingID {
                deviceAxes[slot * Self.axes + Int(code - AbsCode.mtTouchMajor)] = value
            }
        }
    }

    /// The filter for a device's description (multitouch protocol B), or nil when it has no
    /// slots: only such a device can be owned.
    public init?(description: DeviceDescription, holdBack: Duration = .zero) {
        guard case .slots(let n) = description.touchProtocol, n > 0 else { return nil }
        self.init(kind: description.kind, slotCount: n, keys: description.codes[EventType.key] ?? [],
                  axes: description.absInfo, holdBack: holdBack)
    }

    // MARK: - Reading the device

    /// One event of the device, in order. Call ``endFrame()`` after its `SYN_REPORT` (once the
    /// frame's gestures are known: a touch owned in that frame never reaches the twin).
    public mutating func add(_ event: InputEvent) {
        lastTime = event.time
        var contact = -1
        if event.type == EventType.abs && event.code == AbsCode.mtSlot {
            if event.value >= 0 && Int(event.value) < slots.count { deviceSlot = Int(event.value) }
        } else if event.type == EventType.abs && event.code >= AbsCode.mtTouchMajor && event.code <= AbsCode.max {
            let slot = deviceSlot
            if event.code == AbsCode.mtTrackingID {
                let previous = slots[slot].contact
                if event.value >= 0 && slots[slot].down && previous >= 0 {
                    // A new tracking id in a slot that is down: its contact lifted first (the
                    // twin may have it in another slot, so its lift is written out).
                    contacts[previous].down = false
                    frame.append(InputEvent(time: event.time, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1))
                    frameContacts.append(previous)
                }
                if event.value >= 0 {
                    slots[slot].contact = newContact(slot: slot)
                    slots[slot].down = true
                } else if slots[slot].down {
                    slots[slot].down = false
                    if previous >= 0 { contacts[previous].down = false }
                } else {
                    // A lift in a slot that is not down says nothing.
                    contact = -2
                }
            } else {
                deviceAxes[slot * Self.axes + Int(event.code - AbsCode.mtTouchMajor)] = event.value
            }
            if contact == -1 { contact = slots[slot].contact >= 0 ? slots[slot].contact : -2 }
        }
        frame.append(event)
        frameContacts.append(contact)
    }

    /// What the gesture pipeline says of a touch (`GesturePipeline.onTouchClaim`): it landed
    /// (its name from then on), is owned, lifts undecided, or is settled. False for a landing
    /// (nothing for the twin to write).
    @discardableResult
    public mutating func hear(_ claim: TouchClaim) -> Bool {
        switch claim {
        case .landed(let slot, let contact):
            name(slot: slot, contact: contact)
            return false
        case .owned(let slot, let contact):
            own(slot: slot, contact: contact)
        case .liftUndecided(let slot, let contact):
            holdLift(slot: slot, contact: contact)
        case .settled(let slot, let contact):
            settle(slot: slot, contact: contact)
        }
        return true
    }

    /// The contact the gesture pipeline named `contact` (``name(slot:contact:)``; without one,
    /// the latest in `slot`) is owned until it lifts: `GesturePipeline.onTouchClaim` says so.
    public mutating func own(slot: Int, contact id: Int = -1) {
        guard let c = find(slot: slot, id: id), !contacts[c].owned else { return }
        let wasHeld = contacts[c].heldSince != nil
        let why = wasHeld ? "a gesture that owns its touches took it: the twin never sees it"
            : contacts[c].twinSlot >= 0 ? "a gesture that owns its touches took it from the app" : "a gesture that owns its touches took it"
        setFate(c, .owned, at: lastTime, why)
        if wasHeld {
            // Never shown: the twin does not get it at all.
            dropHeld(contact: c)
        }
    }

    /// The contact in `slot` lifts in the frame being read, and a gesture that owns its touches
    /// may still take it: on a touchscreen its lift is withheld from the twin (it stays down
    /// there) until it is owned (cancelled) or settled (``settle(slot:contact:)``: lifted). A touchpad's
    /// owned touches are palms from the frame a gesture takes them: nothing is withheld there.
    public mutating func holdLift(slot: Int, contact id: Int) {
        guard kind == .touchscreen, let c = find(slot: slot, id: id), !contacts[c].owned, !contacts[c].liftHeld else { return }
        liftsWithheld += 1
        if case .heldBack(let since, _) = contacts[c].fate {
            setFate(c, .heldBack(since: since, liftWithheld: liftsWithheld), at: lastTime, "it lifted while an owning gesture may still take it")
        } else {
            setFate(c, .liftWithheld(order: liftsWithheld), at: lastTime, "it lifted while an owning gesture may still take it")
        }
    }

    /// The gesture pipeline knows the latest contact in `slot` as `id` from now on (it tells
    /// each touch it routes, as it lands): its later word on the contact finds it by that id,
    /// even once the device reuses the slot. Another contact known by `id` (before the
    /// pipeline started again: a reload, a decoding error) is not any more.
    public mutating func name(slot: Int, contact id: Int) {
        guard id >= 0, slot >= 0 && slot < slots.count, slots[slot].contact >= 0 else { return }
        for c in contacts.indices where contacts[c].id == id { contacts[c].id = -1 }
        contacts[slots[slot].contact].id = id
    }

    /// Forgets the pipeline's ids (a new pipeline reads the device: it names the touches again).
    public mutating func forgetNames() {
        for c in contacts.indices { contacts[c].id = -1 }
    }

    /// The pipeline's word on the touches it named is lost (its decoder started over after an
    /// error: its ids count again): withheld lifts go to the twin with the next events written,
    /// and the names are forgotten.
    public mutating func startOver() {
        for c in contacts.indices where contacts[c].inUse && contacts[c].liftHeld {
            releaseLift(c, at: lastTime, "the pipeline started over: its word on the touch is lost")
            liftsSettled = true
        }
        forgetNames()
    }

    /// No gesture will own the contact in `slot` the pipeline calls `id`: held back, it goes
    /// to the twin with the next events written (a contact settled in the frame it lands is
    /// not held back at all); its lift, if withheld (``holdLift(slot:contact:)``), goes too.
    public mutating func settle(slot: Int, contact id: Int) {
        guard let c = find(slot: slot, id: id), !contacts[c].owned else { return }
        contacts[c].settled = true
        if contacts[c].liftHeld {
            releaseLift(c, at: lastTime, "no gesture will own it")
            liftsSettled = true
        }
    }

    /// The frame read since the last call ends (its `SYN_REPORT` was added): the events for
    /// the twin, as whole frames (empty when it gets nothing). Valid until the next call.
    public mutating func endFrame() -> [InputEvent] {
        out.removeAll(keepingCapacity: true)
        var starting = 0
        for c in contacts.indices where contacts[c].inUse && contacts[c].began {
            contacts[c].tool = deviceAxes[contacts[c].slot * Self.axes + Self.toolAxis]
            if !contacts[c].owned && !contacts[c].settled && holdBack > .zero {
                // (It may have lifted in this very frame, its lift withheld already.)
                setFate(c, .heldBack(since: lastTime, liftWithheld: contacts[c].liftHeldOrder), at: lastTime,
                        "it landed where an owning gesture may take it")
            }
            if passes(c) && contacts[c].twinSlot < 0 { starting += 1 }
        }
        makeRoom(for: starting, at: lastTime)
        var heldAny = false
        let everyTouch = twinHasEveryTouch
        for (i, e) in frame.enumerated() {
            // SYN_REPORT ends each frame written below; SYN_DROPPED is the device's own affair.
            if e.type == EventType.syn { continue }
            let c = frameContacts[i]
            if c == -2 || (e.type == EventType.abs && e.code == AbsCode.mtSlot) { continue }  // the twin's own slots
            if c >= 0 {
                if contacts[c].heldSince != nil {
                    held.append(e)
                    heldContacts.append(c)
                    heldAny = true
                    if e.code == AbsCode.mtTrackingID && e.value >= 0 {
                        // The device's values as the contact landed: what the twin lacks of
                        // them goes with it when it is released.
                        let base = contacts[c].slot * Self.axes
                        for a in mirroredAxes {
                            held.append(InputEvent(time: e.time, type: EventType.abs, code: AbsCode.mtTouchMajor + UInt16(a), value: deviceAxes[base + a]))
                            heldContacts.append(c)
                        }
                    }
                    continue
                }
                if passes(c) { pass(e, contact: c) }
                continue
            }
            if kind == .touchscreen {
                if e.type == EventType.key && touchKeys.contains(e.code) { continue }  // the twin's own, below
                if e.type == EventType.abs && !everyTouch { continue }
            }
            out.append(e)
        }
        if heldAny {
            held.append(report(lastTime))
            heldContacts.append(-1)
        }
        for c in contacts.indices where contacts[c].began { contacts[c].began = false }
        frame.removeAll(keepingCapacity: true)
        frameContacts.removeAll(keepingCapacity: true)
        paintOwnedPalms(at: lastTime)
        if kind == .touchscreen { updateTouchKeys(time: lastTime) }
        if !out.isEmpty { endOutFrame(lastTime) }
        // Held-back touches, once one's time is up or one lifted, follow, frame by frame as they came.
        releaseHeld(at: lastTime, lifted: true)
        finishChanges(at: lastTime)
        return out
    }

    /// Held-back touches whose time is up by `time` go to the twin (a deadline of the loop's,
    /// between frames); owned ones that the twin had are cancelled. The events for the twin.
    public mutating func deadlinePassed(_ time: Instant) -> [InputEvent] {
        out.removeAll(keepingCapacity: true)
        // The pipeline's word at this deadline (a touch settled, owned) is dated by it.
        if time > lastTime { lastTime = time }
        releaseHeld(at: time, lifted: false)
        finishChanges(at: time)
        return out
    }

    /// Touches owned or lifts settled since the last frame (a gesture recognized, or one that
    /// failed, at a deadline) take effect on the twin. The events for the twin.
    public mutating func ownershipChanged(at time: Instant) -> [InputEvent] {
        out.removeAll(keepingCapacity: true)
        paintOwnedPalms(at: time)
        if !out.isEmpty { endOutFrame(time) }
        releaseHeld(at: time, lifted: true)
        finishChanges(at: time)
        return out
    }

    /// When the held-back touches are due to go to the twin (the earliest's time), or nil.
    public var nextDeadline: Instant? {
        var earliest: Instant?
        for c in contacts where c.inUse {
            if let since = c.heldSince, since + holdBack < earliest ?? .distantFuture { earliest = since + holdBack }
        }
        return earliest
    }

    /// Every touch the twin has is cancelled (a clean stop, the device going away; lifted,
    /// with ``ending`` `OwnedTouchEnding.lift`): nothing is left down on it. The fingers still down on the
    /// device are withheld until they lift. The events for the twin.
    public mutating func cancelAll(at time: Instant) -> [InputEvent] {
        out.removeAll(keepingCapacity: true)
        for c in contacts.indices where contacts[c].inUse {
            // What the twin never got is forgotten below (its held-back events are dropped).
            if contacts[c].twinSlot >= 0 && !contacts[c].owned { setFate(c, .owned, at: time, "the device is let go") }
        }
        held.removeAll(keepingCapacity: true)
        heldContacts.removeAll(keepingCapacity: true)
        // A touchpad's palm is left out by libinput; the lift ends it.
        paintOwnedPalms(at: time)
        if !out.isEmpty { endOutFrame(time) }
        cancelOwned(at: time, force: true)
        for c in contacts.indices { contacts[c] = Contact() }
        for i in slots.indices { slots[i].contact = -1 }
        return out
    }

    /// True while the twin has a contact in its slot `slot`.
    public func twinHas(slot: Int) -> Bool { slot >= 0 && slot < twinUsers.count && twinUsers[slot] >= 0 }

    // MARK: - Fates

    /// The one place a touch's fate changes: told to ``onFateChange``.
    private mutating func setFate(_ c: Int, _ fate: Fate, at time: Instant, _ why: @autoclosure () -> String) {
        let from = contacts[c].fate
        guard from != fate else { return }
        contacts[c].fate = fate
        onFateChange?(contacts[c].id, contacts[c].slot, from, fate, time, why())
    }

    /// The contact's withheld lift is let go (it goes to the twin with the next lifts written,
    /// or at once to make room): held back, it stays held back.
    private mutating func releaseLift(_ c: Int, at time: Instant, _ why: @autoclosure () -> String) {
        if case .heldBack(let since, _?) = contacts[c].fate {
            setFate(c, .heldBack(since: since, liftWithheld: nil), at: time, why())
        } else if case .liftWithheld = contacts[c].fate {
            setFate(c, .passed, at: time, why())
        }
    }

    // MARK: - Contacts

    /// A contact beginning in the device's `slot`.
    private mutating func newContact(slot: Int) -> Int {
        var c = contacts.firstIndex { !$0.inUse } ?? -1
        if c < 0 {
            contacts.append(Contact())
            c = contacts.count - 1
        }
        contacts[c] = Contact(inUse: true, slot: slot, down: true, began: true)
        return c
    }

    /// The contact the pipeline named `id` (``name(slot:contact:)``); without an id (-1), the
    /// latest in the device's `slot`. nil: a contact the filter no longer has.
    private func find(slot: Int, id: Int) -> Int? {
        if id >= 0 { return contacts.firstIndex { $0.inUse && $0.id == id } }
        guard slot >= 0 && slot < slots.count, slots[slot].contact >= 0 else { return nil }
        return slots[slot].contact
    }

    /// Owned contacts are cancelled, settled lifts written, and contacts that are over forgotten.
    private mutating func finishChanges(at time: Instant) {
        cancelOwned(at: time)
        writeSettledLifts(at: time)
        for c in contacts.indices where contacts[c].inUse && !contacts[c].down && contacts[c].twinSlot < 0 && contacts[c].heldSince == nil {
            if slots[contacts[c].slot].contact == c { slots[contacts[c].slot].contact = -1 }
            contacts[c] = Contact()
        }
    }

    // MARK: - What the twin gets

    /// The contact `c`'s events pass to the twin in this frame.
    private func passes(_ c: Int) -> Bool {
        let contact = contacts[c]
        guard contact.heldSince == nil else { return false }
        if kind == .touchpad { return contact.twinSlot >= 0 || contact.began }
        return !contact.owned && (contact.twinSlot >= 0 || contact.began)
    }

    /// One per-slot event of a contact that passes: what the twin has already is left out (the
    /// kernel would drop it); a contact starting on the twin takes a slot of the twin's (its
    /// own slot's number when free) and gets its tool type before its tracking id and, after
    /// it, every other value of the device's the twin lacks, unless `fill` is false (a
    /// held-back contact's queue has them as they were). A withheld lift is not written.
    private mutating func pass(_ e: InputEvent, contact c: Int, fill: Bool = true) {
        let axis = Int(e.code - AbsCode.mtTouchMajor)
        if axis == Self.trackingAxis {
            if e.value >= 0 {
                if contacts[c].twinSlot < 0 {
                    guard let t = freeTwinSlot(preferring: contacts[c].slot) else { return }
                    twinUsers[t] = c
                    contacts[c].twinSlot = t
                }
                let t = contacts[c].twinSlot
                toSlot(t, time: e.time)
                // The tool type goes before the tracking id: libinput reads the slot's tool as
                // the touch begins, and a slot whose last touch was cancelled (palm) would
                // make the new one a palm from its start.
                if twinTool(t) != contacts[c].tool {
                    out.append(InputEvent(time: e.time, type: EventType.abs, code: AbsCode.mtToolType, value: contacts[c].tool))
                    twinAxes[t * Self.axes + Self.toolAxis] = contacts[c].tool
                }
                out.append(e)
                guard fill else { return }
                let base = t * Self.axes, device = contacts[c].slot * Self.axes
                for a in mirroredAxes where twinAxes[base + a] != deviceAxes[device + a] {
                    out.append(InputEvent(time: e.time, type: EventType.abs, code: AbsCode.mtTouchMajor + UInt16(a), value: deviceAxes[device + a]))
                    twinAxes[base + a] = deviceAxes[device + a]
                }
            } else if contacts[c].twinSlot >= 0 && !contacts[c].liftHeld {
                lift(c, time: e.time)
            }
            return
        }
        let t = contacts[c].twinSlot
        guard t >= 0, twinAxes[t * Self.axes + axis] != e.value else { return }
        toSlot(t, time: e.time)
        out.append(e)
        twinAxes[t * Self.axes + axis] = e.value
    }

    /// A slot of the twin's for a contact starting there: `preferred` when free, else the
    /// first free one — never one whose touch lifted in the frame being written. nil: none
    /// (the contact does not reach the twin; ``makeRoom(for:at:)`` frees slots beforehand).
    private func freeTwinSlot(preferring preferred: Int) -> Int? {
        if preferred < twinUsers.count && isFree(preferred) { return preferred }
        return twinUsers.indices.first(where: isFree)
    }

    /// The twin's slot `t` has no touch, and had none lift in the frame being written.
    private func isFree(_ t: Int) -> Bool { twinUsers[t] < 0 && !freedInFrame[t] }

    /// How many of the twin's slots are free (``isFree(_:)``).
    private var freeTwinSlots: Int {
        var free = 0
        for t in twinUsers.indices where isFree(t) { free += 1 }
        return free
    }

    /// `count` contacts are about to start on the twin: while it has fewer free slots, what
    /// was to leave it after this frame leaves before it — settled lifts, then owned touches
    /// (cancelled) — and then the oldest withheld lift (a plain lift: the app reads it, its
    /// gesture undecided), in frames of their own before theirs.
    private mutating func makeRoom(for count: Int, at time: Instant) {
        guard count > 0, freeTwinSlots < count else { return }
        writeSettledLifts(at: time)
        cancelOwned(at: time)
        var free = freeTwinSlots
        var lifted = false
        while free < count {
            var oldest = -1
            for t in twinUsers.indices where twinUsers[t] >= 0 {
                let c = twinUsers[t]
                guard contacts[c].liftHeld && !contacts[c].owned && !contacts[c].down else { continue }
                if oldest < 0 || contacts[c].liftHeldOrder ?? 0 < contacts[oldest].liftHeldOrder ?? 0 { oldest = c }
            }
            guard oldest >= 0 else { break }
            releaseLift(oldest, at: time, "every slot of the twin is taken: the oldest withheld lift makes room")
            lift(oldest, time: time)
            lifted = true
            free += 1
        }
        if lifted {
            if kind == .touchscreen { updateTouchKeys(time: time) }
            endOutFrame(time)
        }
    }

    /// The contact `c` lifts on the twin.
    private mutating func lift(_ c: Int, time: Instant) {
        let t = contacts[c].twinSlot
        toSlot(t, time: time)
        out.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1))
        twinUsers[t] = -1
        freedInFrame[t] = true
        contacts[c].twinSlot = -1
    }

    /// Lifts no gesture will own, that the twin still has, go to it.
    private mutating func writeSettledLifts(at time: Instant) {
        guard liftsSettled else { return }
        liftsSettled = false
        var any = false
        for c in contacts.indices where contacts[c].inUse && contacts[c].twinSlot >= 0 && !contacts[c].down
            && !contacts[c].liftHeld && !contacts[c].owned && contacts[c].heldSince == nil {
            lift(c, time: time)
            any = true
        }
        if any {
            if kind == .touchscreen { updateTouchKeys(time: time) }
            endOutFrame(time)
        }
    }

    /// The device's fingers that are down are all on the twin (as of the frame's end).
    private var twinHasEveryTouch: Bool {
        for s in slots where s.down {
            guard s.contact >= 0 else { return false }
            let c = contacts[s.contact]
            if c.owned || c.heldSince != nil || (c.twinSlot < 0 && !c.began) { return false }
        }
        return true
    }

    private mutating func toSlot(_ slot: Int, time: Instant) {
        guard twinSlot != slot else { return }
        out.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: Int32(slot)))
        twinSlot = slot
    }

    private func report(_ time: Instant) -> InputEvent {
        InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0)
    }

    /// Ends a frame written to the twin: a slot freed in it may take a new touch from the next.
    private mutating func endOutFrame(_ time: Instant) {
        out.append(report(time))
        for t in freedInFrame.indices where freedInFrame[t] { freedInFrame[t] = false }
    }

    private func twinTool(_ twinSlot: Int) -> Int32 { twinAxes[twinSlot * Self.axes + Self.toolAxis] }

    private mutating func setTwinPalm(_ twinSlot: Int, time: Instant) {
        toSlot(twinSlot, time: time)
        out.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtToolType, value: MTToolType.palm))
        twinAxes[twinSlot * Self.axes + Self.toolAxis] = MTToolType.palm
    }

    /// Touchpads: owned contacts the twin has turn palm (in the frame being written).
    private mutating func paintOwnedPalms(at time: Instant) {
        guard kind == .touchpad else { return }
        for c in contacts.indices where contacts[c].inUse && contacts[c].owned {
            let t = contacts[c].twinSlot
            if t >= 0 && twinTool(t) != MTToolType.palm { setTwinPalm(t, time: time) }
        }
    }

    /// Touchscreens: owned contacts the twin has are cancelled — `MT_TOOL_PALM` in one frame,
    /// the lift in the next — or, with ``ending`` `OwnedTouchEnding.lift`, lifted where they
    /// are. Touchpads: nothing (they stay as palms until they lift), unless `force` (a stop:
    /// they lift).
    private mutating func cancelOwned(at time: Instant, force: Bool = false) {
        guard kind == .touchscreen || force else { return }
        var any = false
        if kind == .touchpad || ending != .lift {
            for t in twinUsers.indices where twinUsers[t] >= 0 && contacts[twinUsers[t]].owned && twinTool(t) != MTToolType.palm {
                setTwinPalm(t, time: time)
                any = true
            }
        }
        if any { endOutFrame(time) }
        any = false
        for t in twinUsers.indices where twinUsers[t] >= 0 && contacts[twinUsers[t]].owned {
            let c = twinUsers[t]
            lift(c, time: time)
            if kind == .touchscreen && contacts[c].fate == .owned {
                if ending == .lift {
                    setFate(c, .endedByLift, at: time, "a plain lift: end-owned-touches, for a compositor that drops libinput's cancel")
                } else {
                    setFate(c, .endedByCancel, at: time, "libinput's cancel")
                }
            }
            any = true
        }
        if any {
            if kind == .touchscreen { updateTouchKeys(time: time) }
            endOutFrame(time)
        }
    }

    /// A held-back contact that is owned: its events leave the queue (frames left empty are
    /// skipped when it is released).
    private mutating func dropHeld(contact c: Int) {
        var kept = 0
        for i in held.indices where heldContacts[i] != c {
            held[kept] = held[i]
            heldContacts[kept] = heldContacts[i]
            kept += 1
        }
        held.removeLast(held.count - kept)
        heldContacts.removeLast(heldContacts.count - kept)
        forgetHeldFramesIfNoneIsHeld()
    }

    /// Once a held-back contact's time is up by `time` (or, with `lifted`, one lifted and its
    /// lift is not withheld), every held-back contact goes to the twin, frame by frame in the
    /// order they came: fingers that landed together (a two-finger tap, a pinch) reach it
    /// together. A withheld lift among them stays withheld. Otherwise the settled ones go.
    private mutating func releaseHeld(at time: Instant, lifted: Bool) {
        var all = false, someSettled = false
        for c in contacts where c.inUse {
            guard let since = c.heldSince else { continue }
            if time >= since + holdBack || (lifted && !c.down && !c.liftHeld && !c.settled) { all = true }
            if c.settled { someSettled = true }
        }
        guard all || someSettled else { return }
        // Settled contacts alone (no gesture will own them: the others may still be owned) go
        // in the order they came; what stays keeps its order.
        var starting = 0
        for c in contacts.indices where contacts[c].inUse && contacts[c].heldSince != nil && contacts[c].twinSlot < 0
            && (all || contacts[c].settled) && !contacts[c].owned {
            starting += 1
        }
        makeRoom(for: starting, at: time)
        var sent = false, kept = 0
        for i in held.indices {
            let e = held[i], c = heldContacts[i]
            if c < 0 {
                if sent {
                    updateTouchKeys(time: time)
                    endOutFrame(time)
                }
                sent = false
            } else if all || contacts[c].settled {
                let before = out.count
                pass(InputEvent(time: time, type: e.type, code: e.code, value: e.value), contact: c, fill: false)
                if out.count > before { sent = true }
                continue
            }
            if !all {
                held[kept] = e
                heldContacts[kept] = c
                kept += 1
            }
        }
        if sent {
            updateTouchKeys(time: time)
            endOutFrame(time)
        }
        held.removeLast(held.count - kept)
        heldContacts.removeLast(heldContacts.count - kept)
        for c in contacts.indices where contacts[c].inUse && (all || contacts[c].settled) {
            guard case .heldBack(_, let order) = contacts[c].fate else { continue }
            let why = all ? "its hold-back is over" : "no gesture will own it"
            if let order { setFate(c, .liftWithheld(order: order), at: time, why) } else { setFate(c, .passed, at: time, why) }
        }
        forgetHeldFramesIfNoneIsHeld()
    }

    /// With no contact held back, the queue's frame ends (all that can be left) go.
    private mutating func forgetHeldFramesIfNoneIsHeld() {
        guard !held.isEmpty, !contacts.contains(where: { $0.inUse && $0.heldSince != nil }) else { return }
        held.removeAll(keepingCapacity: true)
        heldContacts.removeAll(keepingCapacity: true)
    }

    /// `BTN_TOUCH` and the `BTN_TOOL_*` key for the number of contacts the twin has.
    private mutating func updateTouchKeys(time: Instant) {
        guard !touchKeys.isEmpty else { return }
        var count = 0
        for c in twinUsers where c >= 0 { count += 1 }
        for (n, code) in touchKeys.enumerated() {
            let down: Bool = switch code {
            case KeyCode.touch: count > 0
            case KeyCode.toolFinger: count == 1
            case KeyCode.toolDoubleTap: count == 2
            case KeyCode.toolTripleTap: count == 3
            case KeyCode.toolQuadTap: count == 4
            default: count >= 5
            }
            if down != twinKeys[n] {
                out.append(InputEvent(time: time, type: EventType.key, code: code, value: down ? 1 : 0))
                twinKeys[n] = down
            }
        }
    }
}
