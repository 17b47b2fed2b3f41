/// Where a contact is in its life, frame by frame.
public enum TouchPhase: String, Sendable, Hashable, CaseIterable {
    /// First frame of the contact.
    case began
    /// The contact moved (or its pressure or size changed) in this frame.
    case moved
    /// The contact is down and nothing about it changed in this frame.
    case stationary
    /// The finger lifted; last frame of the contact.
    case ended
    /// The contact stopped being trustworthy: it turned out to be a palm, events were
    /// dropped, or the device went away. Last frame of the contact; never a gesture.
    case cancelled

    /// True for `ended` and `cancelled`.
    @inlinable public var isFinal: Bool { self == .ended || self == .cancelled }
}

/// One finger in one frame.
public struct TouchContact: Sendable, Hashable {
    /// Stable for the contact's whole life and never reused by the same decoder (1, 2, 3, …).
    public var id: Int
    /// The protocol-B slot; for protocol A and single-touch devices, the decoder's own
    /// slot number (lowest free), stable for the contact's life.
    public var slot: Int
    public var phase: TouchPhase
    /// Position in device units.
    public var deviceX: Int32
    public var deviceY: Int32
    /// Position in millimetres from the axis minimum (x right, y down).
    public var x: Double
    public var y: Double
    /// `ABS_MT_PRESSURE` (or `ABS_PRESSURE` on single-touch devices) when the device reports it.
    public var pressure: Int32?
    /// `ABS_MT_TOUCH_MAJOR` / `ABS_MT_TOUCH_MINOR` in device units, when reported.
    public var touchMajor: Int32?
    public var touchMinor: Int32?
    /// For a contact that begins in this frame but was on the surface before, left out of the
    /// frames until now (a resting thumb or finger, a piece of a palm, that moved away; a
    /// contact that hovered and now presses): when it really landed. Nil for a contact that landed now. Such a contact may pan, but its
    /// press taps and holds nothing: it had been down all along.
    public var downSince: Instant?

    public init(
        id: Int, slot: Int, phase: TouchPhase, deviceX: Int32, deviceY: Int32, x: Double, y: Double,
        pressure: Int32? = nil, touchMajor: Int32? = nil, touchMinor: Int32? = nil, downSince: Instant? = nil
    ) {
        self.id = id
        self.slot = slot
        self.phase = phase
        self.deviceX = deviceX
        self.deviceY = deviceY
        self.x = x
        self.y = y
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.downSince = downSince
    }
}

/// The state of the surface after one `SYN_REPORT`: every contact that is down, began,
/// ended or was cancelled in that frame, in slot order.
public struct TouchFrame: Sendable, Equatable {
    /// Time of the `SYN_REPORT` (the event's own clock).
    public var time: Instant
    public var contacts: [TouchContact]
    /// Fingers the device says are down through `BTN_TOOL_FINGER` … `BTN_TOOL_QUINTTAP`
    /// (0 if it does not say, and always 0 on a protocol-A device, whose contacts are its
    /// fingers). A two-slot touchpad reports a third finger only here.
    public var toolFingerCount: Int
    /// True while a physical button is held (`BTN_LEFT`, `BTN_RIGHT` or `BTN_MIDDLE`: a
    /// clickpad's click, a touchpad's buttons).
    public var buttonDown: Bool
    /// The whole touch's pressure and width (`ABS_PRESSURE`, `ABS_TOOL_WIDTH`), on a touchpad
    /// with slots that reports neither per contact: a single contact's are its own. Nil on
    /// every other device.
    public var wholeTouch: WholeTouch?

    public init(time: Instant, contacts: [TouchContact], toolFingerCount: Int = 0, buttonDown: Bool = false,
                wholeTouch: WholeTouch? = nil) {
        self.time = time
        self.contacts = contacts
        self.toolFingerCount = toolFingerCount
        self.buttonDown = buttonDown
        self.wholeTouch = wholeTouch
    }

    /// Contacts that are down after this frame (not ended or cancelled).
    public var activeContactCount: Int {
        var n = 0
        for c in contacts where !c.phase.isFinal { n += 1 }
        return n
    }

    /// Fingers on the surface: the larger of the active contacts and ``toolFingerCount``.
    public var fingerCount: Int { max(activeContactCount, toolFingerCount) }
}

/// What a touchpad reports of the whole touch: its pressure (`ABS_PRESSURE`) and width
/// (`ABS_TOOL_WIDTH`), in the device's units.
public struct WholeTouch: Sendable, Hashable {
    public var pressure: Int32
    public var width: Int32

    public init(pressure: Int32, width: Int32) {
        self.pressure = pressure
        self.width = width
    }
}
