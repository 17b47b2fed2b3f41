import CLibevdev
import Foundation
import Testing
import TouchEvents
import TouchInput
import TouchRecordings

/// ``EvdevStateMirror`` against libevdev itself: the same events go into a libevdev device
/// through `libevdev_set_event_value` (what gestured called for every event before) and into
/// the mirror, which is then stored into a second libevdev device made alike. The two must hold
/// the same state — every key, every axis, every slot's values, the current slot — since that
/// state is what libevdev's sync compares with the kernel's after `SYN_DROPPED`.
@Suite("The state mirrored for a resynchronization")
struct EvdevStateMirrorTests {
    static let recordings = [
        // Up to ten fingers at once, in 60 slots.
        "recordings/evemu/3m.events",
        // A touchpad: BTN_TOUCH, BTN_TOOL_* and BTN_LEFT with the slots.
        "recordings/evemu-devices/touchpads/AlpsPS2-ALPS-DualPoint-TouchPad.events",
        // No slots: single touch.
        "recordings/evemu-devices/touchpads/AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.doubletap.events",
        // Protocol A: multitouch axes, no slots.
        "recordings/evemu-devices/touchscreens/N-Trig MultiTouch.2-fingers-touch-release.events",
    ]

    @Test(arguments: recordings)
    func aMirrorStoredIntoLibevdevIsLibevdevsOwn(_ name: String) throws {
        let device = try Recording.load(path: Self.fixture(name)).device(nil)
        var events: [InputEvent] = []
        try device.forEachEvent(path: Self.fixture(name)) { events.append($0) }
        let illFormed = Self.illFormed(device.description)
        try Self.expectTheSameState(device.description, events + illFormed, checkedEachEvent: illFormed.count)
    }

    /// After a sync the mirror takes libevdev's state over (`load(from:)`), whatever it held:
    /// half the long stream set on libevdev alone, then taken over by a mirror that saw none of
    /// it, and the rest into both.
    @Test func aMirrorTakesLibevdevsStateOver() throws {
        let device = try Recording.load(path: Self.fixture(Self.recordings[0])).device(nil)
        var events: [InputEvent] = []
        try device.forEachEvent(path: Self.fixture(Self.recordings[0])) { events.append($0) }
        let reference = try LibevdevHandle(description: device.description)
        let stored = try LibevdevHandle(description: device.description)
        let mirror = EvdevStateMirror(of: stored.pointer)
        let half = events.count / 2
        for event in events[..<half] {
            _ = libevdev_set_event_value(reference.pointer, UInt32(event.type), UInt32(event.code), event.value)
        }
        mirror.store(into: stored.pointer)
        #expect(Self.firstDifference(reference.pointer, stored.pointer) != nil, "half the stream changes nothing")
        mirror.load(from: reference.pointer)
        let checks = Self.expectTheSameState(events[half...], reference: reference.pointer, mirror: mirror, stored: stored.pointer)
        #expect(checks > 1_000)
    }

    /// What an owned device's twin is told of the device's slots as it is made (issue 64):
    /// each slot's values as libevdev has them.
    @Test func aMirrorSaysEachSlotsValuesAsLibevdevHasThem() throws {
        let device = try Recording.load(path: Self.fixture(Self.recordings[0])).device(nil)
        var events: [InputEvent] = []
        try device.forEachEvent(path: Self.fixture(Self.recordings[0])) { events.append($0) }
        let reference = try LibevdevHandle(description: device.description)
        for event in events.prefix(events.count / 3) {
            _ = libevdev_set_event_value(reference.pointer, UInt32(event.type), UInt32(event.code), event.value)
        }
        let rows = EvdevStateMirror(of: reference.pointer).slotValues()
        #expect(rows.count == Int(libevdev_get_num_slots(reference.pointer)))
        var compared = 0
        for (slot, row) in rows.enumerated() {
            for code in [AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID] {
                #expect(row[code] == libevdev_get_slot_value(reference.pointer, UInt32(slot), UInt32(code)))
                compared += 1
            }
        }
        #expect(rows.contains { ($0[AbsCode.mtPositionX] ?? 0) != 0 }, "some slot was touched")
        #expect(compared == 3 * rows.count)
    }

    /// libevdev's fake multitouch: a device with `ABS_RESERVED` has no slots, even with an
    /// `ABS_MT_SLOT` axis, and its slot events are kept as an axis's value (here the long
    /// stream's events on such a device).
    @Test func aFakeMultitouchDeviceHasNoSlots() throws {
        let name = Self.recordings[0]
        let device = try Recording.load(path: Self.fixture(name)).device(nil)
        var events: [InputEvent] = []
        try device.forEachEvent(path: Self.fixture(name)) { events.append($0) }
        // libevdev looks for ABS_RESERVED when ABS_MT_SLOT is enabled: ABS_MT_SLOT is enabled last.
        var description = device.description
        let slot = try #require(description.absInfo[AbsCode.mtSlot])
        description.absInfo[AbsCode.mtSlot] = nil
        description.codes[EventType.abs]?.remove(AbsCode.mtSlot)
        let illFormed = Self.illFormed(device.description)
        try Self.expectTheSameState(description, events + illFormed, checkedEachEvent: illFormed.count) { handle in
            var reserved = input_absinfo(value: 0, minimum: 0, maximum: 1, fuzz: 0, flat: 0, resolution: 0)
            libevdev_enable_event_code(handle, UInt32(EV_ABS), UInt32(ABS_RESERVED), &reserved)
            var info = input_absinfo(value: slot.value, minimum: slot.minimum, maximum: slot.maximum, fuzz: 0, flat: 0, resolution: 0)
            libevdev_enable_event_code(handle, UInt32(EV_ABS), UInt32(ABS_MT_SLOT), &info)
            #expect(libevdev_get_num_slots(handle) == -1)
        }
    }

    /// `events` into a libevdev device made from `description` and into a mirror stored into
    /// another one after each report, and after each of the last `checkedEachEvent` events: the
    /// two hold the same state each time. `prepare` changes both libevdev devices first.
    static func expectTheSameState(_ description: DeviceDescription, _ events: [InputEvent], checkedEachEvent: Int = 0,
                                   prepare: (OpaquePointer) -> Void = { _ in }) throws {
        let reference = try LibevdevHandle(description: description)
        let stored = try LibevdevHandle(description: description)
        for handle in [reference, stored] {
            prepare(handle.pointer)
            // Ill-formed events on purpose: not libevdev's "BUG" lines.
            libevdev_set_device_log_function(handle.pointer, { _, _, _, _, _, _, _, _ in }, LIBEVDEV_LOG_ERROR, nil)
        }
        let mirror = EvdevStateMirror(of: stored.pointer)
        let checks = expectTheSameState(events[...], reference: reference.pointer, mirror: mirror, stored: stored.pointer,
                                        checkedEachEvent: checkedEachEvent)
        #expect(checks > 2)
    }

    /// Each of `events` into `reference` through `libevdev_set_event_value` and into `mirror`;
    /// after each report, and after each of the last `checkedEachEvent` events (a drop can come
    /// in the middle of a frame), `mirror` stored into `stored` must hold `reference`'s state.
    /// Returns how many times it was compared, up to the first difference.
    static func expectTheSameState(_ events: ArraySlice<InputEvent>, reference: OpaquePointer, mirror: EvdevStateMirror,
                                   stored: OpaquePointer, checkedEachEvent: Int = 0) -> Int {
        var checks = 0
        for index in events.indices {
            let event = events[index]
            _ = libevdev_set_event_value(reference, UInt32(event.type), UInt32(event.code), event.value)
            mirror.apply(type: event.type, code: event.code, value: event.value)
            guard event.isReport || index >= events.endIndex - checkedEachEvent else { continue }
            checks += 1
            mirror.store(into: stored)
            let difference = firstDifference(reference, stored)
            #expect(difference == nil, "after event \(index)")
            if difference != nil { break }
        }
        return checks
    }

    /// What a device should not send, each followed by a report: a slot beyond the device's and a
    /// negative one, a touch started twice and ended twice in a slot, codes the device does not
    /// have and codes beyond every table, a key pressed and released, an event of another type.
    static func illFormed(_ description: DeviceDescription) -> [InputEvent] {
        var events: [(UInt16, UInt16, Int32)] = []
        func report() { events.append((EventType.syn, SynCode.report, 0)) }
        let slots = description.absInfo[AbsCode.mtSlot].map { Int32($0.maximum) + 1 } ?? 0
        for slot in [slots, 9_999, -1, 0] {
            events.append((EventType.abs, AbsCode.mtSlot, slot))
            events.append((EventType.abs, AbsCode.mtPositionX, 11 + slot))
            report()
        }
        for trackingID: Int32 in [41, 42, -1, -1, 43] {
            events.append((EventType.abs, AbsCode.mtTrackingID, trackingID))
            report()
        }
        events.append((EventType.abs, UInt16(ABS_MISC), 5))
        events.append((EventType.key, UInt16(KEY_MAX), 1))
        // Codes beyond any table: a key's would land in the "down" half of the key bits, or past it.
        for code in [UInt16(KEY_CNT), UInt16(KEY_CNT) + 63, 0xFFFF] { events.append((EventType.key, code, 1)) }
        for code in [UInt16(ABS_CNT), 0xFFFF] { events.append((EventType.abs, code, 7)) }
        events.append((EventType.key, UInt16(BTN_TOUCH), 1))
        events.append((EventType.abs, UInt16(ABS_X), 123))
        report()
        events.append((EventType.key, UInt16(BTN_TOUCH), 0))
        events.append((UInt16(EV_REL), UInt16(REL_X), 3))
        report()
        return events.map { InputEvent(time: .zero, type: $0.0, code: $0.1, value: $0.2) }
    }

    /// The first value libevdev holds differently in `a` and `b`, described; nil when none.
    static func firstDifference(_ a: OpaquePointer, _ b: OpaquePointer) -> String? {
        for code in 0..<UInt32(KEY_CNT) {
            let (x, y) = (libevdev_get_event_value(a, UInt32(EV_KEY), code), libevdev_get_event_value(b, UInt32(EV_KEY), code))
            if x != y { return "key \(code): \(x) against \(y)" }
        }
        for code in 0..<UInt32(ABS_CNT) {
            let (x, y) = (libevdev_get_event_value(a, UInt32(EV_ABS), code), libevdev_get_event_value(b, UInt32(EV_ABS), code))
            if x != y { return "axis \(code): \(x) against \(y)" }
        }
        for slot in 0..<UInt32(max(libevdev_get_num_slots(a), 0)) {
            for code in UInt32(ABS_MT_SLOT)...UInt32(ABS_MT_TOOL_Y) {
                let (x, y) = (libevdev_get_slot_value(a, slot, code), libevdev_get_slot_value(b, slot, code))
                if x != y { return "slot \(slot) axis \(code): \(x) against \(y)" }
            }
        }
        let (x, y) = (libevdev_get_current_slot(a), libevdev_get_current_slot(b))
        return x == y ? nil : "current slot: \(x) against \(y)"
    }

    static func fixture(_ name: String) -> String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/fixtures/" + name
    }
}
