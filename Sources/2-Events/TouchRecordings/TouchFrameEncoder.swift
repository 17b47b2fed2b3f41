import TouchEvents

/// Touch frames turned back into the kernel events a multitouch device (protocol B) would send
/// for them: what `gestured synth` and the view's touch bench write as a recording, which then
/// replays through the decoder like any other.
///
/// Positions come from each contact's millimetres (`x`, `y`) at the device's axis resolution;
/// a contact that lands gets a new tracking id in its slot (0 to 65535, wrapping as the
/// kernel's do), one that ends or is cancelled lifts (`ABS_MT_TRACKING_ID -1`) — one that lands
/// and lifts in the same frame is sent landing, then lifting. Every frame ends with
/// `SYN_REPORT`; `BTN_TOUCH`, the `BTN_TOOL_*` finger count (none past five, as
/// `input_mt_report_finger_count` has it) and the single-touch `ABS_X`/`ABS_Y` of the lowest
/// slot down follow the contacts, as the kernel's input-mt helpers do.
public struct TouchFrameEncoder: Sendable {
    public let device: DeviceDescription
    private var trackingIDs: [Int: Int32] = [:]
    private var nextTrackingID: Int32 = 1
    /// The single-touch position last sent.
    private var pointer: (x: Int32, y: Int32)?
    private var slot: Int32 = -1
    private var lastPosition: [Int: (x: Int32, y: Int32)] = [:]
    private var fingers = 0

    public init(device: DeviceDescription) {
        self.device = device
    }

    /// The events of `frame`, in the order the kernel sends them.
    public mutating func events(for frame: TouchFrame) -> [InputEvent] {
        var events: [InputEvent] = []
        func send(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(InputEvent(time: frame.time, type: type, code: code, value: value))
        }
        let xAxis = device.absInfo[AbsCode.mtPositionX] ?? AbsInfo(minimum: 0, maximum: 0)
        let yAxis = device.absInfo[AbsCode.mtPositionY] ?? AbsInfo(minimum: 0, maximum: 0)
        func units(_ mm: Double, _ axis: AbsInfo) -> Int32 {
            let value = Double(axis.minimum) + mm * Double(max(1, axis.resolution))
            return Int32(min(max(value.rounded(), Double(axis.minimum)), Double(axis.maximum)))
        }
        for contact in frame.contacts where contact.phase != .stationary {
            if Int32(contact.slot) != slot {
                slot = Int32(contact.slot)
                send(EventType.abs, AbsCode.mtSlot, slot)
            }
            let x = units(contact.x, xAxis), y = units(contact.y, yAxis)
            // A contact that lifts in the frame it lands in is first sent landing.
            if contact.phase == .began || trackingIDs[contact.slot] == nil {
                trackingIDs[contact.slot] = nextTrackingID
                send(EventType.abs, AbsCode.mtTrackingID, nextTrackingID)
                nextTrackingID = nextTrackingID >= 0xFFFF ? 0 : nextTrackingID + 1
                lastPosition[contact.slot] = nil
            }
            let last = lastPosition[contact.slot]
            if last?.x != x { send(EventType.abs, AbsCode.mtPositionX, x) }
            if last?.y != y { send(EventType.abs, AbsCode.mtPositionY, y) }
            if let pressure = contact.pressure, device.absInfo[AbsCode.mtPressure] != nil {
                send(EventType.abs, AbsCode.mtPressure, pressure)
            }
            lastPosition[contact.slot] = (x, y)
            if contact.phase.isFinal {
                send(EventType.abs, AbsCode.mtTrackingID, -1)
                trackingIDs[contact.slot] = nil
                lastPosition[contact.slot] = nil
            }
        }
        // Single-touch emulation: the lowest slot down.
        if let first = frame.contacts.filter({ !$0.phase.isFinal }).min(by: { $0.slot < $1.slot }),
           device.absInfo[AbsCode.x] != nil, device.absInfo[AbsCode.y] != nil {
            let x = units(first.x, device.absInfo[AbsCode.x]!), y = units(first.y, device.absInfo[AbsCode.y]!)
            if pointer?.x != x { send(EventType.abs, AbsCode.x, x) }
            if pointer?.y != y { send(EventType.abs, AbsCode.y, y) }
            pointer = (x, y)
        }
        let down = frame.contacts.filter { !$0.phase.isFinal }.count
        if down != fingers {
            if (down > 0) != (fingers > 0), device.has(type: EventType.key, code: KeyCode.touch) {
                send(EventType.key, KeyCode.touch, down > 0 ? 1 : 0)
            }
            let tools = [KeyCode.toolFinger, KeyCode.toolDoubleTap, KeyCode.toolTripleTap, KeyCode.toolQuadTap, KeyCode.toolQuintTap]
            let before = fingers == 0 || fingers > 5 ? nil : tools[fingers - 1]
            let after = down == 0 || down > 5 ? nil : tools[down - 1]
            if before != after {
                if let before, device.has(type: EventType.key, code: before) { send(EventType.key, before, 0) }
                if let after, device.has(type: EventType.key, code: after) { send(EventType.key, after, 1) }
            }
            fingers = down
        }
        if !events.isEmpty { send(EventType.syn, SynCode.report, 0) }
        return events
    }
}

extension SurfaceSize {
    /// A made-up device's size when nothing says it: a touchpad's 100 × 60 mm; a touchscreen's
    /// 10.1-inch diagonal (256.5 mm) in `proportions` (16:10 without them).
    public static func synthetic(kind: DeviceKind, proportions: SurfaceSize?) -> SurfaceSize {
        if kind == .touchpad { return SurfaceSize(width: 100, height: 60) }
        let w = proportions.map { $0.width > 0 ? $0.width : 16 } ?? 16
        let h = proportions.map { $0.height > 0 ? $0.height : 10 } ?? 10
        let diagonal = (w * w + h * h).squareRoot()
        let mm = { (v: Double) in (v / diagonal * 10.1 * 25.4 * 10).rounded() / 10 }
        return SurfaceSize(width: mm(w), height: mm(h))
    }
}

extension DeviceDescription {
    /// A made-up multitouch device of `kind`, `size` millimetres, reporting 10 units a
    /// millimetre in 10 slots (protocol B), for recordings written from scripted or drawn
    /// touches: a touchscreen (`INPUT_PROP_DIRECT`, `BTN_TOUCH`) or a touchpad
    /// (`INPUT_PROP_POINTER`, `BTN_TOOL_FINGER` to `BTN_TOOL_QUINTTAP`, a button).
    public static func synthetic(kind: DeviceKind, size: SurfaceSize, name: String? = nil) -> DeviceDescription {
        let resolution: Int32 = 10
        // At most 100 m: an axis in Int32 units.
        func units(_ mm: Double) -> Int32 { Int32(min(max((mm * Double(resolution)).rounded(), 1), 1_000_000)) }
        let width = units(size.width), height = units(size.height)
        var keys: Set<UInt16> = [KeyCode.touch]
        if kind == .touchpad {
            keys.formUnion([KeyCode.left, KeyCode.toolFinger, KeyCode.toolDoubleTap, KeyCode.toolTripleTap,
                            KeyCode.toolQuadTap, KeyCode.toolQuintTap])
        }
        return DeviceDescription(
            name: name ?? (kind == .touchpad ? "Synthetic Touchpad" : "Synthetic Touchscreen"),
            id: InputID(bustype: 3, vendor: 1, product: kind == .touchpad ? 3 : 2, version: 1),
            codes: [EventType.syn: [SynCode.report], EventType.key: keys,
                    EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: width, resolution: resolution),
                      AbsCode.y: AbsInfo(minimum: 0, maximum: height, resolution: resolution),
                      AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                      AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: width, resolution: resolution),
                      AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: height, resolution: resolution),
                      AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
            properties: kind == .touchpad ? [InputProperty.pointer, InputProperty.buttonpad] : [InputProperty.direct],
            udevProperties: ["ID_INPUT=1", kind == .touchpad ? "ID_INPUT_TOUCHPAD=1" : "ID_INPUT_TOUCHSCREEN=1"])
    }
}
