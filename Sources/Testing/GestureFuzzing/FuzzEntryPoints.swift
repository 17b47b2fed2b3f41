import GestureProtocol
import GestureConfiguration
import Gestures
import TouchEvents
import TouchRecordings

/// What the fuzz targets (`Fuzz/`, libFuzzer) run on each input, here so that the tests can
/// run every input that once crashed (`fixtures/fuzz/`) through exactly the same code. Each
/// takes any bytes; a thrown error is fine, a crash or a failed `precondition` is a bug.
public enum FuzzEntryPoints {
    /// The targets' names, as `scripts/fuzz.sh` and `fixtures/fuzz/` use them.
    public static let names = ["libinput-record", "evemu", "decoder", "configuration", "client-message"]

    /// The entry point of a target name, or nil.
    public static func entry(named name: String) -> (([UInt8]) -> Void)? {
        switch name {
        case "libinput-record": libinputRecord
        case "evemu": evemu
        case "decoder": decoder
        case "configuration": configuration
        case "client-message": clientMessage
        default: nil
        }
    }

    /// Any bytes as libinput record YAML; one that reads is decoded too, as replay would.
    public static func libinputRecord(_ bytes: [UInt8]) {
        recording(bytes, format: .libinputRecord)
    }

    /// Any bytes as evemu text; one that reads is decoded too.
    public static func evemu(_ bytes: [UInt8]) {
        recording(bytes, format: .evemu)
    }

    static func recording(_ bytes: [UInt8], format: RecordingFormat) {
        guard let recording = try? Recording.parse(bytes: bytes, path: "fuzz", format: format) else { return }
        for device in recording.devices where device.description.isTouchDevice {
            guard let surface = TouchSurface(device: device.description) else { continue }
            _ = try? device.decodeFrames(surface: surface, path: "fuzz") { _ in }
        }
    }

    /// Random event streams against random touch devices, through the decoder and the built-in
    /// layout's gesture pipeline — as the service reads a misbehaving device: a decoding error
    /// resets the contacts and goes on. After the last event the pipeline must hold nothing.
    ///
    /// Bytes 0–1 describe the device (slot count, protocol, kind, resolution); then every 8
    /// bytes are one event: time step (ms), type, code, and a 32-bit value.
    public static func decoder(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let device = makeDevice(bytes[0], bytes[1])
        guard let surface = TouchSurface(device: device) else { return }
        let layout = Layout.standard(size: (surface.size.width, surface.size.height), touchscreen: device.kind == .touchscreen)
        // Handlers are called too, as in the service.
        for r in layout.root.recognizers { r.addHandler { _ in } }
        let pipeline = GesturePipeline(layout: layout)
        var decoder = TouchDecoder(device: device, surface: surface)
        var time = Instant.zero + .seconds(1)
        var offset = 2
        while offset + 8 <= bytes.count {
            let e = bytes[offset..<offset + 8]
            offset += 8
            time += .milliseconds(Int(e[e.startIndex]))
            let event = InputEvent(time: time, type: eventType(e[e.startIndex + 1]), code: eventCode(e[e.startIndex + 1], e[e.startIndex + 2]),
                                   value: value(e[(e.startIndex + 3)...]))
            do throws(DecodeError) {
                try decoder.process(event) { frame in
                    precondition(frame.contacts.count <= 2 * max(device.slotCount, TouchDecoder.maximumAnonymousContacts), "a frame with \(frame.contacts.count) contacts")
                    pipeline.process(frame)
                }
            } catch {
                decoder.cancelAll(time: time) { pipeline.process($0) }
                decoder = TouchDecoder(device: device, surface: surface)
            }
            if let deadline = pipeline.nextDeadline, deadline <= time { pipeline.advance(to: time) }
        }
        decoder.cancelAll(time: time) { pipeline.process($0) }
        pipeline.finish()
        precondition(!pipeline.isTracking && pipeline.nextDeadline == nil, "the pipeline holds a sequence after the end")
    }

    /// Any text as a configuration; one that loads is built into a layout, hit tested, and a
    /// tap is played through its pipeline.
    public static func configuration(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let configuration = try? Configuration.parse(yaml: text, path: "fuzz.yaml") else { return }
        let layout = configuration.makeLayout(rootSize: SurfaceSize(width: 800, height: 480)).layout
        for point in [Point(x: 0, y: 0), Point(x: 400, y: 240), Point(x: 799, y: 479), Point(x: -5, y: 900)] {
            _ = layout.hitTest(point)
        }
        let pipeline = GesturePipeline(layout: layout)
        let contact = TouchContact(id: 1, slot: 0, phase: .began, deviceX: 400, deviceY: 240, x: 400, y: 240)
        pipeline.process(TouchFrame(time: .zero + .seconds(1), contacts: [contact]))
        var lifted = contact
        lifted.phase = .ended
        pipeline.process(TouchFrame(time: .zero + .milliseconds(1080), contacts: [lifted]))
        pipeline.finish()
        precondition(!pipeline.isTracking && pipeline.nextDeadline == nil, "the pipeline holds a sequence after the end")
    }
}

private func makeDevice(_ a: UInt8, _ b: UInt8) -> DeviceDescription {
    let slots = Int32(a & 0x3f)  // 0: no slots
    let resolution = Int32(b >> 4)
    var abs: [UInt16: AbsInfo] = [
        AbsCode.x: AbsInfo(minimum: 0, maximum: 4095, resolution: resolution),
        AbsCode.y: AbsInfo(minimum: 0, maximum: 2047, resolution: resolution),
    ]
    if a & 0x40 != 0 {  // multitouch axes
        abs[AbsCode.mtPositionX] = AbsInfo(minimum: 0, maximum: 4095, resolution: resolution)
        abs[AbsCode.mtPositionY] = AbsInfo(minimum: 0, maximum: 2047, resolution: resolution)
        abs[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535)
        abs[AbsCode.mtPressure] = AbsInfo(minimum: 0, maximum: 255)
        abs[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: 2)
        if slots > 0 { abs[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: slots - 1) }
    }
    var keys: Set<UInt16> = [KeyCode.touch]
    if b & 1 != 0 { keys.formUnion([KeyCode.toolFinger, KeyCode.toolDoubleTap, KeyCode.toolTripleTap]) }
    return DeviceDescription(
        name: "Fuzz", id: InputID(bustype: 3, vendor: 1, product: 1, version: 1),
        codes: [EventType.syn: [0, 1, 2, 3], EventType.key: keys], absInfo: abs,
        properties: b & 2 != 0 ? [InputProperty.direct] : [InputProperty.pointer])
}

/// Mostly the types a touch device sends; sometimes anything.
private func eventType(_ t: UInt8) -> UInt16 {
    switch t & 7 {
    case 0, 1: EventType.syn
    case 2: EventType.key
    case 7: UInt16(t >> 3)
    default: EventType.abs
    }
}

/// For each type, mostly the codes that matter; sometimes anything.
private func eventCode(_ t: UInt8, _ c: UInt8) -> UInt16 {
    switch eventType(t) {
    case EventType.syn:
        return [SynCode.report, SynCode.report, SynCode.report, SynCode.mtReport, SynCode.dropped, UInt16(c)][Int(c) % 6]
    case EventType.key:
        return [KeyCode.touch, KeyCode.toolFinger, KeyCode.toolDoubleTap, KeyCode.toolTripleTap, UInt16(c) + 0x100][Int(c) % 5]
    case EventType.abs:
        let codes = [AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtPressure,
                     AbsCode.mtToolType, AbsCode.x, AbsCode.y, UInt16(c & 0x3f)]
        return codes[Int(c) % codes.count]
    default:
        return UInt16(c)
    }
}

/// Small values mostly (slots, ids, positions), any value sometimes.
private func value(_ v: ArraySlice<UInt8>) -> Int32 {
    let raw = v.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    let x = Int32(bitPattern: raw)
    switch raw & 3 {
    case 0: return Int32(bitPattern: raw >> 2) % 64 - 1   // -1 … 62: slots, lifts, BTN values
    case 1, 2: return Int32(bitPattern: (raw >> 2) % 5000)  // positions, ids
    default: return x
    }
}

extension FuzzEntryPoints {
    /// Any bytes as what a socket client sends: each line is read as a request (and as a
    /// message from the service, as the client library reads them); one that reads is written
    /// again and must read back as the same request.
    public static func clientMessage(_ bytes: [UInt8]) {
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            if let message = try? ClientMessage.parse(line) {
                let again = try? ClientMessage.parse(Array(message.jsonLine.utf8.dropLast()))
                precondition(again?.request == message.request && again?.id == message.id,
                             "a request does not read back as itself: \(message.jsonLine)")
            }
            _ = try? ServiceMessage.parse(line)
        }
    }
}
