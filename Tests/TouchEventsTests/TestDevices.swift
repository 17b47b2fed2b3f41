import TouchEvents

/// Device descriptions and event scripts for decoder tests.
enum TestDevices {
    static let syn: Set<UInt16> = [0, 1, 2, 3]

    /// A protocol-B touchscreen, 1000 x 500 units at 10 units/mm, with pressure.
    static func touchscreen(slots: Int32 = 5, startSlot: Int32 = 0) -> DeviceDescription {
        DeviceDescription(
            name: "Test Touchscreen", id: InputID(bustype: 3, vendor: 1, product: 2, version: 0),
            codes: [EventType.syn: syn, EventType.key: [KeyCode.touch]],
            absInfo: [
                AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                AbsCode.y: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
                AbsCode.mtSlot: AbsInfo(value: startSlot, minimum: 0, maximum: slots - 1),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
                AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
                AbsCode.mtToolType: AbsInfo(minimum: 0, maximum: 2),
            ],
            properties: [InputProperty.direct])
    }

    /// A 2-slot touchpad that reports up to five fingers through BTN_TOOL_*.
    static let touchpad = DeviceDescription(
        name: "Test Touchpad", id: InputID(bustype: 0x11, vendor: 2, product: 7, version: 0),
        codes: [EventType.syn: syn, EventType.key: [KeyCode.left, KeyCode.touch, KeyCode.toolFinger,
                                                    KeyCode.toolDoubleTap, KeyCode.toolTripleTap,
                                                    KeyCode.toolQuadTap, KeyCode.toolQuintTap]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 600, resolution: 10),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 1),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 600, resolution: 10),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ],
        properties: [InputProperty.pointer, InputProperty.buttonpad])

    /// A protocol-A touchscreen (no slots, no tracking ids).
    static let anonymous = DeviceDescription(
        name: "Test Protocol A", id: InputID(bustype: 3, vendor: 3, product: 3, version: 0),
        codes: [EventType.syn: syn, EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
        ],
        properties: [InputProperty.direct])

    /// A resistive single-touch kiosk panel, 4096 units over 200 x 100 mm (no resolution).
    static let singleTouch = DeviceDescription(
        name: "Test Resistive Panel", id: InputID(bustype: 3, vendor: 4, product: 4, version: 0),
        codes: [EventType.syn: syn, EventType.key: [KeyCode.touch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4000),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 2000),
            AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255),
        ],
        properties: [InputProperty.direct])
}

/// Builds event streams: each `frame` at `ms` milliseconds, ending with SYN_REPORT.
struct Script {
    var events: [InputEvent] = []

    mutating func frame(_ ms: Int64, _ items: [(UInt16, UInt16, Int32)]) {
        for (type, code, value) in items {
            events.append(InputEvent(time: .zero + .milliseconds(ms), type: type, code: code, value: value))
        }
        events.append(InputEvent(time: .zero + .milliseconds(ms), type: EventType.syn, code: SynCode.report, value: 0))
    }

    static func slot(_ s: Int32) -> (UInt16, UInt16, Int32) { (EventType.abs, AbsCode.mtSlot, s) }
    static func id(_ v: Int32) -> (UInt16, UInt16, Int32) { (EventType.abs, AbsCode.mtTrackingID, v) }
    static func x(_ v: Int32) -> (UInt16, UInt16, Int32) { (EventType.abs, AbsCode.mtPositionX, v) }
    static func y(_ v: Int32) -> (UInt16, UInt16, Int32) { (EventType.abs, AbsCode.mtPositionY, v) }
    static func pressure(_ v: Int32) -> (UInt16, UInt16, Int32) { (EventType.abs, AbsCode.mtPressure, v) }
    static func tool(_ v: Int32) -> (UInt16, UInt16, Int32) { (EventType.abs, AbsCode.mtToolType, v) }
    static func key(_ code: UInt16, _ v: Int32) -> (UInt16, UInt16, Int32) { (EventType.key, code, v) }
    static let mtReport: (UInt16, UInt16, Int32) = (EventType.syn, SynCode.mtReport, 0)
    static let dropped: (UInt16, UInt16, Int32) = (EventType.syn, SynCode.dropped, 0)
}

/// Decodes and renders each frame as one line: `12ms f2 | 1@0 began 10.0,20.0 | 2@1 moved …`.
func decodeLog(
    _ device: DeviceDescription, _ events: [InputEvent], size: SurfaceSize? = nil,
    policy: TouchDecoder.DropPolicy = .cancelUnknown, finish: Bool = true
) throws(DecodeError) -> [String] {
    var decoder = TouchDecoder(device: device, surface: TouchSurface(device: device, size: size)!, dropPolicy: policy)
    var log: [String] = []
    let render = { (frame: TouchFrame) in
        var line = "\(frame.time.microseconds / 1000)ms f\(frame.fingerCount)"
        if frame.toolFingerCount > 0 { line += " tools\(frame.toolFingerCount)" }
        for c in frame.contacts {
            line += " | \(c.id)@\(c.slot) \(c.phase.rawValue) \(mm(c.x)),\(mm(c.y))"
            if let p = c.pressure { line += " p\(p)" }
        }
        log.append(line)
    }
    for e in events { try decoder.process(e, emit: render) }
    if finish, let last = events.last { decoder.cancelAll(time: last.time, emit: render) }
    return log
}

private func mm(_ v: Double) -> String { formatDecimal(v, places: 1, trailingZeros: .keep) }
