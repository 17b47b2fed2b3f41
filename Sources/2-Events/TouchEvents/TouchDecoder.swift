/// Turns a device's evdev events into ``TouchFrame``s, one per `SYN_REPORT`.
///
/// The same decoder serves live devices and recordings, so a test on a recording proves
/// the live path. It handles multitouch protocol B (slots), protocol A (anonymous contacts,
/// matched frame to frame by tracking id or nearest position) and single-touch devices;
/// `BTN_TOOL_*` finger counts; `MT_TOOL_PALM` (the contact is cancelled and never takes
/// part in a gesture); and `SYN_DROPPED`.
///
/// Time is read from the events only. Frames go to the `emit` closure; a frame passed to
/// it is valid after the call too (it is a value), but copying it costs an allocation once
/// the decoder reuses its buffer, so consumers that keep frames should keep what they need.
public struct TouchDecoder: Sendable {
    /// What to do after `SYN_DROPPED`.
    public enum DropPolicy: Sendable {
        /// Drop events up to the next `SYN_REPORT`, then cancel every contact whose state is
        /// unknown; a slot starts a new contact with its next tracking id. For recordings.
        case cancelUnknown
        /// The events after `SYN_DROPPED` are libevdev's sync deltas, which bring the slots
        /// up to date; decode them as usual. For live devices read in libevdev's sync mode.
        case resynchronize
    }

    /// At most this many protocol-A contacts in one frame: more than any real panel
    /// reports (the largest report 40), and a bound on work for corrupt input.
    public static let maximumAnonymousContacts = 64

    @usableFromInline enum Mode: Sendable { case slots, anonymous, singleTouch }

    @usableFromInline let mode: Mode
    @usableFromInline let dropPolicy: DropPolicy
    /// The device-unit to millimetre mapping used for every contact.
    public let surface: TouchSurface
    let reportsPressure: Bool
    let reportsMajor: Bool
    let reportsMinor: Bool
    /// Single-touch devices without `BTN_TOUCH` use `BTN_TOOL_FINGER` as the touch state.
    let downKey: UInt16

    @usableFromInline var lastEventTime = Instant.distantPast
    var nextContactID = 1
    @usableFromInline var dropping = false
    var toolMask: UInt8 = 0
    /// Physical buttons held: BTN_LEFT, BTN_RIGHT, BTN_MIDDLE as bits 0, 1, 2.
    var buttonMask: UInt8 = 0
    var lastEmittedToolCount = 0
    var frame: TouchFrame

    // Protocol B.
    @usableFromInline var slots: [Slot]
    /// Every slot from this one on is idle: a frame looks at the slots below it only (a
    /// touchscreen has 60 slots and uses the first few; looking at all 60 in every frame
    /// cost about 450 instructions).
    var slotsInUse = 0
    @usableFromInline var currentSlot: Int
    /// Contacts that ended or were cancelled during the current frame, in event order.
    var finishedThisFrame: [Finished] = []
    /// A contact ended in the current frame while its slot still holds one (a new tracking id
    /// on it, or `BTN_TOUCH` up): the contacts that ended are reported in a frame of their own,
    /// before the rest (``reportEndingsFirst(time:emit:)``).
    var endingsFirst = false
    /// Contacts touch only while `BTN_TOUCH` is down: a touchpad with slots but no pressure per
    /// contact, whose kernel driver sets `BTN_TOUCH` by the whole touch's pressure (libinput
    /// decides touching so there, where neither pressure nor size tells).
    let touchesByTouchKey: Bool
    /// `BTN_TOUCH` is down.
    var touchKeyDown = false
    /// The frames carry the whole touch's pressure and width (`TouchFrame.wholeTouch`): the
    /// device has ``DeviceDescription/wholeTouchAxes``.
    let reportsWholeTouch: Bool
    /// The whole touch's `ABS_PRESSURE` and `ABS_TOOL_WIDTH`, as last reported.
    @usableFromInline var wholeTouch = WholeTouch(pressure: 0, width: 0)
    /// The multitouch positions a report may have: the axis range and half as much again on
    /// either side. A value beyond is corrupt (issue 65, item 6: a first report whose y is 6
    /// times the axis maximum): dropped, and a contact whose position is only that waits for a
    /// real one before it begins. A real pad strays a little past its range (alex: 5 values
    /// a few units out); no finger is half a pad beyond its edge.
    @usableFromInline let plausibleX: ClosedRange<Int32>
    @usableFromInline let plausibleY: ClosedRange<Int32>
    /// The device has sent `BTN_TOUCH` in this session: only then does it say anything (a
    /// recording may start with it down and never send it, as the ALPS GlidePoint's do).
    var touchKeySeen = false

    // Protocol A.
    var packet = Packet()
    var packets: [Packet] = []
    var anonymousContacts: [AnonymousContact] = []
    var sawMTReport = false
    var touchReleased = false
    var matchPairs: [(distance: Int64, old: Int, new: Int)] = []

    // Single touch.
    var single = SingleTouch()

    /// Creates a decoder for one device. Initial axis values (the slot a recording starts
    /// in, the last positions) come from the description's `AbsInfo.value`s.
    public init(device: DeviceDescription, surface: TouchSurface, dropPolicy: DropPolicy = .cancelUnknown) {
        self.surface = surface
        self.dropPolicy = dropPolicy
        let pressureAxis: UInt16
        switch device.touchProtocol {
        case .slots(let count):
            mode = .slots
            slots = Array(repeating: Slot(), count: count)
            pressureAxis = AbsCode.mtPressure
        case .anonymous:
            mode = .anonymous
            slots = []
            pressureAxis = AbsCode.mtPressure
        case .singleTouch, .none:
            mode = .singleTouch
            slots = []
            pressureAxis = AbsCode.pressure
        }
        reportsPressure = device.absInfo[pressureAxis] != nil
        touchesByTouchKey = mode == .slots && !reportsPressure && device.kind == .touchpad
            && device.has(type: EventType.key, code: KeyCode.touch)
        reportsWholeTouch = device.wholeTouchAxes != nil
        reportsMajor = mode != .singleTouch && device.absInfo[AbsCode.mtTouchMajor] != nil
        func plausible(_ code: UInt16) -> ClosedRange<Int32> {
            guard let axis = device.absInfo[code], axis.maximum > axis.minimum else { return Int32.min...Int32.max }
            let half = Int64(axis.maximum - axis.minimum) / 2
            return Int32(clamping: Int64(axis.minimum) - half)...Int32(clamping: Int64(axis.maximum) + half)
        }
        plausibleX = plausible(AbsCode.mtPositionX)
        plausibleY = plausible(AbsCode.mtPositionY)
        reportsMinor = mode != .singleTouch && device.absInfo[AbsCode.mtTouchMinor] != nil
        downKey = device.has(type: EventType.key, code: KeyCode.touch) || !device.has(type: EventType.key, code: KeyCode.toolFinger)
            ? KeyCode.touch : KeyCode.toolFinger
        frame = TouchFrame(time: .zero, contacts: [])
        frame.contacts.reserveCapacity(max(slots.count, 10))
        finishedThisFrame.reserveCapacity(4)

        let initial = { (code: UInt16) in device.absInfo[code]?.value ?? 0 }
        currentSlot = 0
        if mode == .slots {
            let slotInfo = device.absInfo[AbsCode.mtSlot]
            let start = Int(initial(AbsCode.mtSlot)) - Int(slotInfo?.minimum ?? 0)
            currentSlot = slots.indices.contains(start) ? start : 0
            // evemu and libinput record only know the current slot's axis values; they are
            // the best guess for every slot until the slot reports its own.
            for i in slots.indices {
                slots[i].x = initial(AbsCode.mtPositionX)
                slots[i].y = initial(AbsCode.mtPositionY)
                slots[i].pressure = initial(AbsCode.mtPressure)
                slots[i].major = initial(AbsCode.mtTouchMajor)
                slots[i].minor = initial(AbsCode.mtTouchMinor)
            }
        } else if mode == .singleTouch {
            single.x = initial(AbsCode.x)
            single.y = initial(AbsCode.y)
            single.pressure = initial(AbsCode.pressure)
        }
    }

    /// A live device's multitouch values in each slot as it has them when opened (by code;
    /// `ABS_MT_POSITION_X` …): the kernel leaves a value out of the events to come where it
    /// does not change, so a touch that lands where the last one in its slot was brings no
    /// position of its own. (The description's `AbsInfo.value`s say nothing of the slots: the
    /// kernel keeps a multitouch axis's values per slot, not there.) Slots in use are left alone.
    public mutating func seed(slotValues: [[UInt16: Int32]]) {
        guard mode == .slots else { return }
        for (i, row) in slotValues.enumerated() where i < slots.count && slots[i].state == .idle {
            if let v = row[AbsCode.mtPositionX] { slots[i].x = v }
            if let v = row[AbsCode.mtPositionY] { slots[i].y = v }
            if let v = row[AbsCode.mtPressure] { slots[i].pressure = v }
            if let v = row[AbsCode.mtTouchMajor] { slots[i].major = v }
            if let v = row[AbsCode.mtTouchMinor] { slots[i].minor = v }
            if let v = row[AbsCode.mtToolType] { slots[i].toolType = v }
        }
    }

    /// Feeds one event. When it completes a frame (a `SYN_REPORT`), `emit` is called with
    /// it — twice when a contact began and ended within one frame, so that every contact
    /// is seen to begin before it ends. Frames with no contacts are emitted only when the
    /// `BTN_TOOL_*` finger count changed.
    /// (Inlinable: inlined into its caller, each event saves a call of about 15 instructions.)
    @inlinable @inline(__always)
    public mutating func process(_ event: InputEvent, emit: (TouchFrame) -> Void) throws(DecodeError) {
        if event.time < lastEventTime {
            throw .timeWentBackwards(previous: lastEventTime, current: event.time)
        }
        if event.time < .zero { throw .negativeTime(event.time) }
        lastEventTime = event.time
        try dispatch(event, emit: emit)
    }

    @inlinable @inline(__always)
    mutating func dispatch(_ event: InputEvent, emit: (TouchFrame) -> Void) throws(DecodeError) {
        if event.type == EventType.syn {
            switch event.code {
            case SynCode.report:
                if dropping {
                    dropping = false
                    recoverFromDrop(time: event.time, emit: emit)
                } else {
                    report(time: event.time, emit: emit)
                }
            case SynCode.dropped:
                if dropPolicy == .cancelUnknown { dropping = true }
            case SynCode.mtReport:
                if !dropping && mode == .anonymous { try closePacket() }
            default:
                break
            }
            return
        }
        if dropping { return }
        switch event.type {
        case EventType.abs:
            switch mode {
            case .slots: try slotAxis(event.code, event.value)
            case .anonymous: anonymousAxis(event.code, event.value)
            case .singleTouch: singleAxis(event.code, event.value)
            }
        case EventType.key:
            key(event.code, event.value)
        default:
            break
        }
    }

    /// Cancels every contact that is still down (end of a recording, device removed).
    /// Emits one frame at `time` if there was any.
    public mutating func cancelAll(time: Instant, emit: (TouchFrame) -> Void) {
        dropping = false
        recoverFromDrop(time: max(time, lastEventTime == .distantPast ? time : lastEventTime), emit: emit)
    }

    /// Time of the last event fed (`.zero` before any).
    public var lastTime: Instant { lastEventTime == .distantPast ? .zero : lastEventTime }

    /// Contacts currently down.
    public var activeContactCount: Int {
        switch mode {
        case .slots: slots.reduce(0) { $0 + ($1.state == .active ? 1 : 0) }
        case .anonymous: anonymousContacts.count
        case .singleTouch: single.announced ? 1 : 0
        }
    }

    // MARK: - Shared

    @usableFromInline
    mutating func key(_ code: UInt16, _ value: Int32) {
        let bit: UInt8
        switch code {
        case KeyCode.toolFinger: bit = 1 << 0
        case KeyCode.toolDoubleTap: bit = 1 << 1
        case KeyCode.toolTripleTap: bit = 1 << 2
        case KeyCode.toolQuadTap: bit = 1 << 3
        case KeyCode.toolQuintTap: bit = 1 << 4
        default: bit = 0
        }
        if bit != 0 {
            if value != 0 { toolMask |= bit } else { toolMask &= ~bit }
        }
        if code >= KeyCode.left && code <= KeyCode.middle {
            let button: UInt8 = 1 << UInt8(code - KeyCode.left)
            if value != 0 { buttonMask |= button } else { buttonMask &= ~button }
        }
        if code == KeyCode.touch {
            touchKeyDown = value != 0
            touchKeySeen = true
        }
        switch mode {
        case .anonymous:
            if code == KeyCode.touch && value == 0 { touchReleased = true }
        case .singleTouch:
            if code == downKey { singleKey(down: value != 0) }
        case .slots:
            break
        }
    }

    /// Fingers according to `BTN_TOOL_*`: the highest one pressed.
    var toolCount: Int { toolMask == 0 ? 0 : 8 - toolMask.leadingZeroBitCount }

    /// ``toolCount`` where it may say more than the contacts: on a single-touch device, and on a
    /// slotted one (a two-slot touchpad's third finger; the alex touchpad's second finger of a
    /// quick two-finger tap, which it reports by `BTN_TOOL_DOUBLETAP` alone). 0 on a protocol-A
    /// device, whose contacts are as many as the fingers: hid-ntrig's touchscreens report every
    /// finger with `BTN_TOOL_DOUBLETAP`.
    var extraFingerCount: Int { mode == .anonymous ? 0 : toolCount }

    mutating func newContactID() -> Int {
        defer { nextContactID += 1 }
        return nextContactID
    }

    @inline(__always)
    func contact(id: Int, slot: Int, phase: TouchPhase, x: Int32, y: Int32, pressure: Int32, major: Int32, minor: Int32) -> TouchContact {
        TouchContact(
            id: id, slot: slot, phase: phase, deviceX: x, deviceY: y,
            x: surface.millimetresX(x), y: surface.millimetresY(y),
            pressure: reportsPressure ? pressure : nil,
            touchMajor: reportsMajor ? major : nil,
            touchMinor: reportsMinor ? minor : nil)
    }

    /// The contact in slot `i`, in `phase`.
    @inline(__always)
    func slotContact(_ i: Int, _ phase: TouchPhase) -> TouchContact {
        let s = slots[i]
        return contact(id: s.contactID, slot: i, phase: phase, x: s.x, y: s.y, pressure: s.pressure, major: s.major, minor: s.minor)
    }

    /// A protocol-A contact in `phase`.
    func anonymousContact(_ c: AnonymousContact, _ phase: TouchPhase) -> TouchContact {
        contact(id: c.id, slot: c.slot, phase: phase, x: c.x, y: c.y, pressure: c.pressure, major: c.major, minor: c.minor)
    }

    /// Emits `frame` (already filled) if it says anything.
    mutating func emitFrame(time: Instant, emit: (TouchFrame) -> Void) {
        let tools = extraFingerCount
        guard !frame.contacts.isEmpty || tools != lastEmittedToolCount else { return }
        frame.time = time
        frame.toolFingerCount = tools
        frame.buttonDown = buttonMask != 0
        if reportsWholeTouch { frame.wholeTouch = wholeTouch }
        lastEmittedToolCount = tools
        emit(frame)
    }

    @usableFromInline
    mutating func report(time: Instant, emit: (TouchFrame) -> Void) {
        switch mode {
        case .slots: reportSlots(time: time, emit: emit)
        case .anonymous: reportAnonymous(time: time, emit: emit)
        case .singleTouch: reportSingle(time: time, emit: emit)
        }
    }

    /// After dropped events (or on request): every announced contact is cancelled, and the
    /// slots wait for a new tracking id before they report again.
    @usableFromInline
    mutating func recoverFromDrop(time: Instant, emit: (TouchFrame) -> Void) {
        frame.contacts.removeAll(keepingCapacity: true)
        switch mode {
        case .slots:
            for f in finishedThisFrame where f.announced {
                frame.contacts.append(f.contact.with(phase: .cancelled))
            }
            for i in slots.indices {
                let s = slots[i]
                if s.state == .active && s.announced { frame.contacts.append(slotContact(i, .cancelled)) }
                if s.state != .idle { slots[i].state = .unknown }
                slots[i].began = false
                slots[i].changed = false
            }
            finishedThisFrame.removeAll(keepingCapacity: true)
            endingsFirst = false
            frame.contacts.sort { ($0.slot, $0.id) < ($1.slot, $1.id) }
        case .anonymous:
            for c in anonymousContacts { frame.contacts.append(anonymousContact(c, .cancelled)) }
            anonymousContacts.removeAll(keepingCapacity: true)
            packets.removeAll(keepingCapacity: true)
            packet = Packet()
            sawMTReport = false
            touchReleased = false
        case .singleTouch:
            if single.announced {
                frame.contacts.append(contact(id: single.contactID, slot: 0, phase: .cancelled, x: single.x, y: single.y,
                                              pressure: single.pressure, major: 0, minor: 0))
            }
            single.announced = false
            single.unknown = true
            single.changed = false
        }
        toolMask = 0
        buttonMask = 0
        emitFrame(time: time, emit: emit)
    }
}

extension TouchContact {
    func with(phase: TouchPhase) -> TouchContact {
        var c = self
        c.phase = phase
        return c
    }
}
