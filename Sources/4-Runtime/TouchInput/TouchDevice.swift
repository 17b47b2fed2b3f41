import TouchEvents

/// Something the service reads touches from: a live evdev node, or (in tests) a pipe
/// carrying the same `struct input_event` records.
public protocol TouchDevice: AnyObject {
    /// The device node (`/dev/input/event5`), the device's identity for the service.
    var node: String { get }
    var description: DeviceDescription { get }
    /// Readable when events are waiting (non-blocking).
    var fileDescriptor: Int32 { get }
    /// True when the events after `SYN_DROPPED` are sync deltas (libevdev's sync mode) rather
    /// than a gap: the decoder's ``TouchDecoder/DropPolicy``.
    var resynchronizesAfterDrops: Bool { get }
    /// Reads every pending event; returns false when the device is gone.
    func readPending(_ body: (InputEvent) -> Void) throws(InputError) -> Bool
    /// Takes the device's events for this reader alone (`EVIOCGRAB`), or lets them go: what
    /// owning a device starts with.
    func setGrabbed(_ grabbed: Bool) throws(InputError)
    /// Each multitouch slot's values (`ABS_MT_*` but the slot, by code) as the device has them
    /// now — what the kernel leaves out of the events to come where they do not change (an
    /// owned device's twin, made now, must be told them). Empty where not known.
    func slotValues() -> [[UInt16: Int32]]
}

extension TouchDevice {
    /// A device of your own that does not say how to grab it cannot be owned: a grab fails
    /// (and the runtime reads the device without owning it); letting go does nothing.
    public func setGrabbed(_ grabbed: Bool) throws(InputError) {
        if grabbed { throw InputError(path: node, message: "cannot grab: this kind of device cannot be grabbed") }
    }

    /// Not known for a device of your own: none.
    public func slotValues() -> [[UInt16: Int32]] { [] }
}

extension EvdevDevice: TouchDevice {
    public var node: String { path }
    public var resynchronizesAfterDrops: Bool { true }
    public func slotValues() -> [[UInt16: Int32]] { stateMirror.slotValues() }
}

/// What the service hears about devices.
public enum DeviceChange {
    /// A touchscreen or touchpad to use, opened.
    case added(any TouchDevice)
    /// The device at this node went away.
    case removed(node: String)
}

/// Tells the service about touch devices coming and going.
public protocol DeviceMonitor: AnyObject {
    /// Readable when there is news.
    var fileDescriptor: Int32 { get }
    /// What happened since the last call (devices present at start come as `added`).
    func changes() -> [DeviceChange]
}
