import CLibevdev
import TouchEvents

extension DeviceDescription {
    /// The description of a libevdev device: name, ids, every enabled code, axes (with the
    /// current values) and properties.
    public init(libevdev dev: OpaquePointer) {
        var codes: [UInt16: Set<UInt16>] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        for type in 0...EventType.max where libevdev_has_event_type(dev, UInt32(type)) != 0 {
            var set = Set<UInt16>()
            let maxCode = libevdev_event_type_get_max(UInt32(type))
            if maxCode >= 0 {
                for code in 0...UInt32(maxCode) where libevdev_has_event_code(dev, UInt32(type), code) != 0 {
                    set.insert(UInt16(code))
                    if type == EventType.abs, let info = libevdev_get_abs_info(dev, code) {
                        absInfo[UInt16(code)] = AbsInfo(
                            value: info.pointee.value, minimum: info.pointee.minimum, maximum: info.pointee.maximum,
                            fuzz: info.pointee.fuzz, flat: info.pointee.flat, resolution: info.pointee.resolution)
                    }
                }
            }
            codes[type] = set
        }
        var properties = Set<UInt16>()
        for p in 0...InputProperty.max where libevdev_has_property(dev, UInt32(p)) != 0 { properties.insert(p) }
        self.init(
            name: libevdev_get_name(dev).map { String(cString: $0) } ?? "",
            id: InputID(
                bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
                vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
                product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
                version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev))),
            codes: codes, absInfo: absInfo, properties: properties)
    }
}

/// An owned libevdev handle.
public final class LibevdevHandle {
    public let pointer: OpaquePointer

    /// A libevdev device with everything `description` enables — what a uinput device is
    /// created from. No kernel device is involved.
    public init(description: DeviceDescription) throws(InputError) {
        guard let dev = libevdev_new() else {
            throw InputError(path: description.name, message: "libevdev_new failed (out of memory)")
        }
        pointer = dev
        libevdev_set_name(dev, description.name)
        libevdev_set_id_bustype(dev, Int32(description.id.bustype))
        libevdev_set_id_vendor(dev, Int32(description.id.vendor))
        libevdev_set_id_product(dev, Int32(description.id.product))
        libevdev_set_id_version(dev, Int32(description.id.version))
        for (type, codes) in description.codes {
            libevdev_enable_event_type(dev, UInt32(type))
            for code in codes where type != EventType.abs {
                libevdev_enable_event_code(dev, UInt32(type), UInt32(code), nil)
            }
        }
        for (code, a) in description.absInfo {
            var info = input_absinfo(value: a.value, minimum: a.minimum, maximum: a.maximum,
                                     fuzz: a.fuzz, flat: a.flat, resolution: a.resolution)
            guard libevdev_enable_event_code(dev, UInt32(EventType.abs), UInt32(code), &info) == 0 else {
                throw InputError(path: description.name, message:
                    "libevdev refused axis \(EventCodeNames.codeName(type: EventType.abs, code: code))")
            }
        }
        for p in description.properties { libevdev_enable_property(dev, UInt32(p)) }
    }

    deinit { libevdev_free(pointer) }
}

extension InputEvent {
    /// The kernel's `struct input_event`, stamped with its `timeval`.
    init(kernel ev: inout input_event) {
        let time = Instant(seconds: Int64(gestured_input_event_sec(&ev)), microseconds: Int64(gestured_input_event_usec(&ev)))
        self.init(time: time ?? .distantFuture, type: ev.type, code: ev.code, value: ev.value)
    }

    /// As the kernel's `struct input_event`.
    var kernelEvent: input_event {
        var ev = input_event()
        let (seconds, microseconds) = time.secondsAndMicroseconds
        gestured_input_event_set_time(&ev, Int(seconds), Int(microseconds))
        ev.type = type
        ev.code = code
        ev.value = value
        return ev
    }
}

/// The kernel's `struct input_event` records as bytes — what an evdev node gives a `read` and
/// uinput takes in a `write`.
public enum KernelInputEvents {
    /// Bytes in one record (24 on 64-bit Linux).
    public static var recordSize: Int { MemoryLayout<input_event>.size }

    /// The events as records.
    public static func encode(_ events: [InputEvent]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * recordSize)
        for e in events {
            var ev = e.kernelEvent
            withUnsafeBytes(of: &ev) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// Decodes the whole records at the start of `bytes`, in order; returns the bytes used
    /// (a partial record at the end is left for the next read).
    @discardableResult
    public static func decode(_ bytes: UnsafeRawBufferPointer, _ body: (InputEvent) -> Void) -> Int {
        let size = recordSize
        let whole = bytes.count / size * size
        for offset in stride(from: 0, to: whole, by: size) {
            var ev = bytes.loadUnaligned(fromByteOffset: offset, as: input_event.self)
            body(InputEvent(kernel: &ev))
        }
        return whole
    }
}

/// libevdev's own name tables, to check gestured's against.
public enum LibevdevNames {
    /// The code libevdev gives an `EV_KEY` name (`KEY_LEFTMETA` → 125), nil if it knows none.
    public static func keyCode(named name: String) -> UInt16? {
        let code = libevdev_event_code_from_name(UInt32(EventType.key), name)
        return code >= 0 ? UInt16(code) : nil
    }
}
