import TouchEvents

/// What an owned device's twin gets of its kernel frames — pure logic, no I/O and no clock:
/// the device's events come in (``add(_:)``), each frame's events for the twin come out
/// (``endFrame()``, ``deadlinePassed(_:)``, ``cancelAll(at:)``), in the kernel's order.
///
/// A device gestured owns is grabbed (`EVIOCGRAB`: its events reach gestured alone), and a
/// uinput twin with its description stands in for it before the compositor. Each touch
/// (a multitouch slot's contact, from its tracking id to its lift) is, on the twin:
/// - **passed** — its events go to the twin as the device sent them;
/// - **owned** (``own(slot:)``: a gesture that owns its touches has it) — on a touchscreen,
///   a touch the twin has is **cancelled** there (`ABS_MT_TOOL_TYPE` `MT_TOOL_PALM` in one
///   frame, its lift in the next: libinput ends it with `TOUCH_CANCEL`, never `TOUCH_UP`) and
///   the rest of its events are withheld; one the twin does not have yet never reaches it.
///   On a touchpad it stays on the twin as a palm (libinput leaves palms out of pointer
///   motion, scrolling, tapping and its own gestures), from the frame it is owned;
/// - **held back** (touchscreens, with a ``holdBack`` above zero) — a new touch is withheld
///   for up to ``holdBack``: if it is owned meanwhile, the twin never sees it; if not, its
///   events go to the twin at once, in order, positions unchanged (when the time is up, or
///   when it lifts) — with every other touch held back then, frame by frame as they came.
///
/// On a touchscreen the twin's `BTN_TOUCH` and `BTN_TOOL_*` keys follow the touches the twin
/// has (not the device's), and the single-touch axes (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`: the
/// kernel's pointer emulation, which libinput does not read on a multitouch device) pass only
/// while the twin has every touch that is down. `SYN_DROPPED` is not passed: the events that
/// bring the device up to date after it (libevdev's sync deltas) are, as a frame of their own.
///
/// A contact that starts on the twin gets every per-slot value of the device's the twin lacks,
/// its tool type among them (the kernel sends only what changed, and the twin did not get
/// what a withheld contact changed); what the twin has already is not written again.
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

    struct Slot {
        /// A contact is down in this slot on the device.
        var down = false
        /// The twin has a contact in this slot.
        var onTwin = false
        /// The current contact is owned.
        var owned = false
        /// The current contact began in the frame being read.
        var began = false
        /// The current contact is held back: since when.
        var heldSince: Instant?
    }

    /// The per-slot axes mirrored, `ABS_MT_TOUCH_MAJOR` (0x30) … `ABS_MT_TOOL_Y` (0x3d) and
    /// the rest of the multitouch range: a code's index is `code - 0x30`.
    static let axes = Int(AbsCode.max) - Int(AbsCode.mtTouchMajor) + 1
    static let toolAxis = Int(AbsCode.mtToolType - AbsCode.mtTouchMajor)
    static let trackingAxis = Int(AbsCode.mtTrackingID - AbsCode.mtTouchMajor)

    private var slots: [Slot]
    /// Each slot's axes as the device last set them, and as the twin last got them (slot-major,
    /// ``axes`` each): a contact that starts on the twin gets the device's values the twin
    /// lacks — the kernel sends only what changed, and what changed while the twin did not
    /// have the slot (a withheld contact's, a palm's) would otherwise be missing.
    private var deviceAxes: [Int32]
    private var twinAxes: [Int32]
    /// The per-slot axes the twin has (besides the tracking id): the device's, and the tool type.
    private let mirroredAxes: [Int]
    /// The device's current slot, as its events set it.
    private var deviceSlot: Int
    /// The device's slot when the frame being read began.
    private var slotBeforeFrame: Int
    /// The twin's current slot, as the events written to it set it.
    private var twinSlot = -1
    /// The frame being read.
    private var frame: [InputEvent] = []
    /// Held-back contacts' events, all of them in the order they came, frame by frame (a
    /// `SYN_REPORT` ends each frame), each with its slot (`heldSlots`, -1 for a frame's end):
    /// released together, so fingers that landed together reach the twin together.
    private var held: [InputEvent] = []
    private var heldSlots: [Int] = []
    /// What to write to the twin.
    private var out: [InputEvent] = []
    /// The keys the device has among `BTN_TOUCH`, `BTN_TOOL_FINGER` … `BTN_TOOL_QUINTTAP`.
    private let touchKeys: [UInt16]
    /// Their state on the twin.
    private var twinKeys: [Bool]
    /// The latest event time read.
    private var lastTime = Instant.zero

    /// A filter for a device of `kind` with `slotCount` multitouch slots, whose `EV_KEY` codes
    /// are `keys` and absolute axes `axes` (with their values when the device was opened: its
    /// current slot is `ABS_MT_SLOT`'s).
    public init(kind: DeviceKind, slotCount: Int, keys: Set<UInt16>, axes: [UInt16: AbsInfo] = [:], holdBack: Duration = .zero) {
        self.kind = kind
        self.holdBack = kind == .touchscreen ? holdBack : .zero
        let count = max(1, slotCount)
        slots = Array(repeating: Slot(), count: count)
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
        slotBeforeFrame = deviceSlot
        frame.reserveCapacity(256)
        out.reserveCapacity(512)
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
        if event.type == EventType.abs {
            if event.code == AbsCode.mtSlot {
                if event.value >= 0 && Int(event.value) < slots.count { deviceSlot = Int(event.value) }
            } else if event.code == AbsCode.mtTrackingID {
                if event.value >= 0 {
                    slots[deviceSlot].down = true
                    slots[deviceSlot].began = true
                    slots[deviceSlot].owned = false
                } else {
                    slots[deviceSlot].down = false
                }
            } else if event.code >= AbsCode.mtTouchMajor && event.code <= AbsCode.max {
                deviceAxes[deviceSlot * Self.axes + Int(event.code - AbsCode.mtTouchMajor)] = event.value
            }
        }
        frame.append(event)
    }

    /// The contact in `slot` is owned (`GesturePipeline.onTouchOwned` says so) until it lifts.
    public mutating func own(slot: Int) {
        guard slot >= 0 && slot < slots.count else { return }
        slots[slot].owned = true
        if slots[slot].heldSince != nil {
            // Never shown: the twin does not get it at all.
            slots[slot].heldSince = nil
            dropHeld(slot: slot)
        }
    }

    /// The frame read since the last call ends (its `SYN_REPORT` was added): the events for
    /// the twin, as whole frames (empty when it gets nothing). Valid until the next call.
    public mutating func endFrame() -> [InputEvent] {
        out.removeAll(keepingCapacity: true)
        for i in slots.indices where slots[i].began && !slots[i].owned && holdBack > .zero {
            slots[i].heldSince = lastTime
        }
        var slot = slotBeforeFrame
        var heldAny = false
        for e in frame {
            // SYN_REPORT ends each frame written below; SYN_DROPPED is the device's own affair.
            if e.type == EventType.syn { continue }
            if e.type == EventType.abs && e.code == AbsCode.mtSlot {
                if e.value >= 0 && Int(e.value) < slots.count { slot = Int(e.value) }
                continue
            }
            if e.type == EventType.abs && e.code >= AbsCode.mtTouchMajor && e.code <= AbsCode.max {
                if slots[slot].heldSince != nil {
                    held.append(e)
                    heldSlots.append(slot)
                    heldAny = true
                    if e.code == AbsCode.mtTrackingID && e.value >= 0 {
                        // What the twin lacks of the device's values as the contact landed (the
                        // frame's own events are the same values, and will not be written twice).
                        let base = slot * Self.axes
                        for a in mirroredAxes where twinAxes[base + a] != deviceAxes[base + a] {
                            held.append(InputEvent(time: e.time, type: EventType.abs, code: AbsCode.mtTouchMajor + UInt16(a), value: deviceAxes[base + a]))
                            heldSlots.append(slot)
                        }
                    }
                    continue
                }
                guard passes(slot) else { continue }
                pass(e, slot: slot)
                continue
            }
            if kind == .touchscreen {
                if e.type == EventType.key && touchKeys.contains(e.code) { continue }  // the twin's own, below
                if e.type == EventType.abs && !twinHasEveryTouch { continue }
            }
            out.append(e)
        }
        if heldAny {
            held.append(report(lastTime))
            heldSlots.append(-1)
        }
        // Where each slot stands on the twin now.
        for i in slots.indices {
            if slots[i].heldSince == nil && passes(i) { slots[i].onTwin = slots[i].down }
            slots[i].began = false
        }
        slotBeforeFrame = deviceSlot
        frame.removeAll(keepingCapacity: true)
        paintOwnedPalms(at: lastTime)
        if kind == .touchscreen { updateTouchKeys(time: lastTime) }
        if !out.isEmpty { out.append(report(lastTime)) }
        // Held-back touches, once one's time is up or one lifted, follow, frame by frame as they came.
        releaseHeld(at: lastTime, lifted: true)
        cancelOwned(at: lastTime)
        return out
    }

    /// Held-back touches whose time is up by `time` go to the twin (a deadline of the loop's,
    /// between frames); owned ones that the twin had are cancelled. The events for the twin.
    public mutating func deadlinePassed(_ time: Instant) -> [InputEvent] {
        out.removeAll(keepingCapacity: true)
        releaseHeld(at: time, lifted: false)
        cancelOwned(at: time)
        return out
    }

    /// Touches owned since the last frame (a gesture recognized at a deadline) are cancelled
    /// on the twin. The events for the twin.
    public mutating func ownershipChanged(at time: Instant) -> [InputEvent] {
        out.removeAll(keepingCapacity: true)
        paintOwnedPalms(at: time)
        if !out.isEmpty { out.append(report(time)) }
        cancelOwned(at: time)
        return out
    }

    /// When the held-back touches are due to go to the twin (the earliest's time), or nil.
    public var nextDeadline: Instant? {
        var earliest: Instant?
        for s in slots {
            if let since = s.heldSince, since + holdBack < earliest ?? .distantFuture { earliest = since + holdBack }
        }
        return earliest
    }

    /// Every touch the twin has is cancelled (a clean stop, the device going away): nothing
    /// is left down on it, and no touch ends as a plain lift. The events for the twin.
    public mutating func cancelAll(at time: Instant) -> [InputEvent] {
        out.removeAll(keepingCapacity: true)
        for i in slots.indices {
            if slots[i].onTwin { slots[i].owned = true }
            slots[i].heldSince = nil
        }
        held.removeAll(keepingCapacity: true)
        heldSlots.removeAll(keepingCapacity: true)
        // A touchpad's palm is left out by libinput; the lift ends it.
        paintOwnedPalms(at: time)
        if !out.isEmpty { out.append(report(time)) }
        cancelOwned(at: time, force: true)
        for i in slots.indices {
            slots[i].down = false
            slots[i].owned = false
        }
        return out
    }

    /// True while the twin has the contact in `slot`.
    public func twinHas(slot: Int) -> Bool { slot >= 0 && slot < slots.count && slots[slot].onTwin }

    // MARK: - What the twin gets

    /// The contact in `slot` passes to the twin in this frame.
    private func passes(_ slot: Int) -> Bool {
        let s = slots[slot]
        guard s.heldSince == nil else { return false }
        if kind == .touchpad { return s.onTwin || s.began }
        return !s.owned && (s.onTwin || s.began)
    }

    /// One per-slot event of a contact that passes: what the twin has already is left out (the
    /// kernel would drop it); a contact starting on the twin gets, after its tracking id, every
    /// value of the device's the twin lacks (its tool type among them) unless `fill` is false (a
    /// held-back contact's queue has them as they were).
    private mutating func pass(_ e: InputEvent, slot: Int, fill: Bool = true) {
        let base = slot * Self.axes
        let axis = Int(e.code - AbsCode.mtTouchMajor)
        if axis == Self.trackingAxis {
            toSlot(slot, time: e.time)
            out.append(e)
            guard e.value >= 0, fill else { return }
            for a in mirroredAxes where twinAxes[base + a] != deviceAxes[base + a] {
                out.append(InputEvent(time: e.time, type: EventType.abs, code: AbsCode.mtTouchMajor + UInt16(a), value: deviceAxes[base + a]))
                twinAxes[base + a] = deviceAxes[base + a]
            }
            return
        }
        guard twinAxes[base + axis] != e.value else { return }
        toSlot(slot, time: e.time)
        out.append(e)
        twinAxes[base + axis] = e.value
    }

    private var twinHasEveryTouch: Bool {
        for s in slots where s.down && !s.onTwin && !s.began { return false }
        for s in slots where s.began && (s.owned || s.heldSince != nil) { return false }
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

    private func twinTool(_ slot: Int) -> Int32 { twinAxes[slot * Self.axes + Self.toolAxis] }

    private mutating func setTwinPalm(_ slot: Int, time: Instant) {
        toSlot(slot, time: time)
        out.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtToolType, value: MTToolType.palm))
        twinAxes[slot * Self.axes + Self.toolAxis] = MTToolType.palm
    }

    /// Touchpads: owned contacts the twin has turn palm (in the frame being written).
    private mutating func paintOwnedPalms(at time: Instant) {
        guard kind == .touchpad else { return }
        for i in slots.indices where slots[i].owned && slots[i].onTwin && twinTool(i) != MTToolType.palm {
            setTwinPalm(i, time: time)
        }
    }

    /// Touchscreens: owned contacts the twin has are cancelled — `MT_TOOL_PALM` in one frame,
    /// the lift in the next. Touchpads: nothing (they stay as palms until they lift), unless
    /// `force` (a stop: they lift).
    private mutating func cancelOwned(at time: Instant, force: Bool = false) {
        guard kind == .touchscreen || force else { return }
        var any = false
        for i in slots.indices where slots[i].owned && slots[i].onTwin && twinTool(i) != MTToolType.palm {
            setTwinPalm(i, time: time)
            any = true
        }
        if any { out.append(report(time)) }
        any = false
        for i in slots.indices where slots[i].owned && slots[i].onTwin {
            toSlot(i, time: time)
            out.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1))
            slots[i].onTwin = false
            any = true
        }
        if any {
            if kind == .touchscreen { updateTouchKeys(time: time) }
            out.append(report(time))
        }
    }

    /// A held-back contact that is owned: its events leave the queue (frames left empty are
    /// skipped when it is released).
    private mutating func dropHeld(slot: Int) {
        var kept = 0
        for i in held.indices where heldSlots[i] != slot {
            held[kept] = held[i]
            heldSlots[kept] = heldSlots[i]
            kept += 1
        }
        held.removeLast(held.count - kept)
        heldSlots.removeLast(heldSlots.count - kept)
    }

    /// Once a held-back contact's time is up by `time` (or, with `lifted`, one lifted), every
    /// held-back contact goes to the twin, frame by frame in the order they came: fingers that
    /// landed together (a two-finger tap, a pinch) reach it together.
    private mutating func releaseHeld(at time: Instant, lifted: Bool) {
        var release = false
        for s in slots {
            guard let since = s.heldSince else { continue }
            if time >= since + holdBack || (lifted && !s.down) { release = true }
        }
        guard release else { return }
        var sent = false
        for (i, e) in held.enumerated() {
            let slot = heldSlots[i]
            if slot < 0 {
                if sent {
                    updateTouchKeys(time: time)
                    out.append(report(time))
                }
                sent = false
                continue
            }
            let before = out.count
            pass(InputEvent(time: time, type: e.type, code: e.code, value: e.value), slot: slot, fill: false)
            if e.code == AbsCode.mtTrackingID { slots[slot].onTwin = e.value >= 0 }
            if out.count > before { sent = true }
        }
        if sent {
            updateTouchKeys(time: time)
            out.append(report(time))
        }
        held.removeAll(keepingCapacity: true)
        heldSlots.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i].heldSince = nil }
    }

    /// `BTN_TOUCH` and the `BTN_TOOL_*` key for the number of contacts the twin has.
    private mutating func updateTouchKeys(time: Instant) {
        guard !touchKeys.isEmpty else { return }
        var count = 0
        for s in slots where s.onTwin { count += 1 }
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
