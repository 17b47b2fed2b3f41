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
///   when it lifts).
///
/// On a touchscreen the twin's `BTN_TOUCH` and `BTN_TOOL_*` keys follow the touches the twin
/// has (not the device's), and the single-touch axes (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`: the
/// kernel's pointer emulation, which libinput does not read on a multitouch device) pass only
/// while the twin has every touch that is down. `SYN_DROPPED` is not passed: the events that
/// bring the device up to date after it (libevdev's sync deltas) are, as a frame of their own.
///
/// Allocation-free per frame once its buffers have grown (a held-back touch's buffer grows
/// with it).
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
        /// A held-back contact's events, frame by frame (each frame's end is a `SYN_REPORT`).
        var held: [InputEvent] = []
        /// The twin's tool type for this slot.
        var twinTool = MTToolType.finger
    }

    private var slots: [Slot]
    /// The device's current slot, as its events set it.
    private var deviceSlot = 0
    /// The twin's current slot, as the events written to it set it.
    private var twinSlot = -1
    /// The frame being read.
    private var frame: [InputEvent] = []
    /// What to write to the twin.
    private var out: [InputEvent] = []
    /// The keys the device has among `BTN_TOUCH`, `BTN_TOOL_FINGER` … `BTN_TOOL_QUINTTAP`.
    private let touchKeys: [UInt16]
    /// Their state on the twin.
    private var twinKeys: [Bool]
    /// The latest event time read.
    private var lastTime = Instant.zero

    /// A filter for a device of `kind` with `slotCount` multitouch slots, whose `EV_KEY` codes
    /// are `keys`.
    public init(kind: DeviceKind, slotCount: Int, keys: Set<UInt16>, holdBack: Duration = .zero) {
        self.kind = kind
        self.holdBack = kind == .touchscreen ? holdBack : .zero
        slots = Array(repeating: Slot(), count: max(1, slotCount))
        let all = [KeyCode.touch, KeyCode.toolFinger, KeyCode.toolDoubleTap, KeyCode.toolTripleTap,
                   KeyCode.toolQuadTap, KeyCode.toolQuintTap]
        touchKeys = all.filter(keys.contains)
        twinKeys = Array(repeating: false, count: touchKeys.count)
        frame.reserveCapacity(256)
        out.reserveCapacity(512)
    }

    /// The filter for a device's description (multitouch protocol B), or nil when it has no
    /// slots: only such a device can be owned.
    public init?(description: DeviceDescription, holdBack: Duration = .zero) {
        guard case .slots(let n) = description.touchProtocol, n > 0 else { return nil }
        self.init(kind: description.kind, slotCount: n, keys: description.codes[EventType.key] ?? [], holdBack: holdBack)
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
            slots[slot].held.removeAll(keepingCapacity: true)
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
        for e in frame {
            // SYN_REPORT ends each frame written below; SYN_DROPPED is the device's own affair.
            if e.type == EventType.syn { continue }
            if e.type == EventType.abs && e.code == AbsCode.mtSlot {
                if e.value >= 0 && Int(e.value) < slots.count { slot = Int(e.value) }
                continue
            }
            if e.type == EventType.abs && e.code >= AbsCode.mtTouchMajor && e.code <= AbsCode.max {
                if slots[slot].heldSince != nil {
                    slots[slot].held.append(e)
                    continue
                }
                guard passes(slot) else { continue }
                toSlot(slot, time: e.time)
                out.append(e)
                if e.code == AbsCode.mtToolType { slots[slot].twinTool = e.value }
                if e.code == AbsCode.mtTrackingID && e.value >= 0 && slots[slot].twinTool != MTToolType.finger {
                    // The twin's slot was left a palm by a cancelled contact: a new one is a finger.
                    out.append(InputEvent(time: e.time, type: EventType.abs, code: AbsCode.mtToolType, value: MTToolType.finger))
                    slots[slot].twinTool = MTToolType.finger
                }
                continue
            }
            if kind == .touchscreen {
                if e.type == EventType.key && touchKeys.contains(e.code) { continue }  // the twin's own, below
                if e.type == EventType.abs && !twinHasEveryTouch { continue }
            }
            out.append(e)
        }
        // Where each slot stands on the twin now.
        for i in slots.indices {
            if slots[i].heldSince != nil {
                if !slots[i].held.isEmpty && slots[i].held.last?.type != EventType.syn { slots[i].held.append(report(lastTime)) }
            } else if passes(i) {
                slots[i].onTwin = slots[i].down
            }
            slots[i].began = false
        }
        slotBeforeFrame = deviceSlot
        frame.removeAll(keepingCapacity: true)
        paintOwnedPalms(at: lastTime)
        if kind == .touchscreen { updateTouchKeys(time: lastTime) }
        if !out.isEmpty { out.append(report(lastTime)) }
        // Held-back touches whose time is up, or that lifted, follow, frame by frame as they came.
        releaseHeld(at: lastTime, lifted: true)
        cancelOwned(at: lastTime)
        return out
    }

    /// The device's slot when the frame being read began.
    private var slotBeforeFrame = 0

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

    /// Touchpads: owned contacts the twin has turn palm (in the frame being written).
    private mutating func paintOwnedPalms(at time: Instant) {
        guard kind == .touchpad else { return }
        for i in slots.indices where slots[i].owned && slots[i].onTwin && slots[i].twinTool != MTToolType.palm {
            toSlot(i, time: time)
            out.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtToolType, value: MTToolType.palm))
            slots[i].twinTool = MTToolType.palm
        }
    }

    /// When the earliest held-back touch is due to go to the twin, or nil.
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
            slots[i].held.removeAll(keepingCapacity: true)
        }
        // A touchpad's palm is left out by libinput; the lift ends it.
        paintOwnedPalms(at: time)
        if !out.isEmpty { out.append(report(time)) }
        cancelOwned(at: time, force: true)
        for i in slots.indices { slots[i].down = false; slots[i].owned = false }
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

    /// Touchscreens: owned contacts the twin has are cancelled — `MT_TOOL_PALM` in one frame,
    /// the lift in the next. Touchpads: nothing (they stay as palms until they lift), unless
    /// `force` (a stop: they lift).
    private mutating func cancelOwned(at time: Instant, force: Bool = false) {
        guard kind == .touchscreen || force else { return }
        var any = false
        for i in slots.indices where slots[i].owned && slots[i].onTwin && slots[i].twinTool != MTToolType.palm {
            toSlot(i, time: time)
            out.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtToolType, value: MTToolType.palm))
            slots[i].twinTool = MTToolType.palm
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

    /// Held-back contacts whose time is up by `time` (or, with `lifted`, that lifted) go to the
    /// twin, frame by frame as they came.
    private mutating func releaseHeld(at time: Instant, lifted: Bool) {
        for i in slots.indices {
            guard let since = slots[i].heldSince else { continue }
            let due = time >= since + holdBack
            let gone = lifted && !slots[i].down
            guard due || gone else { continue }
            slots[i].heldSince = nil
            var sent = false
            for e in slots[i].held {
                if e.type == EventType.syn {
                    if sent {
                        updateTouchKeys(time: time)
                        out.append(report(time))
                    }
                    sent = false
                    continue
                }
                toSlot(i, time: time)
                out.append(InputEvent(time: time, type: e.type, code: e.code, value: e.value))
                if e.code == AbsCode.mtToolType { slots[i].twinTool = e.value }
                if e.code == AbsCode.mtTrackingID {
                    slots[i].onTwin = e.value >= 0
                    if e.value >= 0 && slots[i].twinTool != MTToolType.finger {
                        out.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtToolType, value: MTToolType.finger))
                        slots[i].twinTool = MTToolType.finger
                    }
                }
                sent = true
            }
            if sent {
                updateTouchKeys(time: time)
                out.append(report(time))
            }
            slots[i].held.removeAll(keepingCapacity: true)
        }
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
