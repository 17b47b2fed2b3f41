#if canImport(Glibc)
import Glibc
#endif
import CLibevdev

/// A device's state as libevdev mirrors it — each key's state, each axis's value, each slot's
/// multitouch values and the current slot — kept event by event at a small part of what
/// libevdev's own `libevdev_set_event_value` costs, and handed to libevdev only when its sync
/// needs it: at `SYN_DROPPED`, where libevdev compares the kernel's state with its mirror
/// (``store(into:)``).
///
/// Why not libevdev's call for each event: it asks `libevdev_has_event_type` and
/// `libevdev_has_event_code` several times an event. Over the long stream's 40,044 key and axis
/// events that was 25.4 million instructions (about 635 an event, 7,430 a frame of ten fingers:
/// more than decoding and the whole gesture pipeline together). Here the device's codes are bits
/// read once, when the device opens, and an event is a mask test and a store.
///
/// ``apply(type:code:value:)`` follows `libevdev_set_event_value` rule by rule for keys and
/// axes (read in libevdev 1.11's source; checked against the 1.13 the tests link), so libevdev's
/// sync emits the same events after a drop as with libevdev's own bookkeeping:
/// - an event of a code the device does not have changes nothing;
/// - an `ABS_MT_SLOT` outside the device's slots changes nothing;
/// - a tracking ID that neither starts a touch (−1 to an ID) nor ends one (an ID to −1)
///   changes nothing (libevdev's "double tracking ID");
/// - a multitouch value goes to the current slot; a device without slots (protocol A, or
///   libevdev's fake multitouch) keeps only the last value of each axis.
///
/// Switches and LEDs are not kept (nor were they before): libevdev's values for them stay as
/// its last sync left them. The test `aMirrorStoredIntoLibevdevIsLibevdevsOwn` replays
/// recordings and ill-formed events into both and compares every key, axis and slot value and
/// the current slot.
public final class EvdevStateMirror {
    /// Two halves of `KEY_CNT` bits each: which keys the device has, then which are down.
    private static let keyWords = (Int(KEY_CNT) + 63) / 64
    private let keys: UnsafeMutablePointer<UInt64>
    /// Which `ABS_*` codes the device has, one bit each (`ABS_CNT` is 64).
    private let axes: UInt64
    /// Each axis's last value, by code.
    private let values: UnsafeMutablePointer<Int32>
    /// libevdev's slot count: −1 for a device without slots.
    private let slotCount: Int32
    /// `slotCount` rows of `mtCodes` values, by `code − ABS_MT_SLOT`.
    private let slots: UnsafeMutablePointer<Int32>
    private static let mtCodes = Int(ABS_MT_TOOL_Y - ABS_MT_SLOT + 1)
    /// The slot multitouch values go to: −1 for none.
    @exclusivity(unchecked) private var currentSlot: Int32

    /// The mirror of `device`'s state as libevdev holds it now (for a device just opened: its
    /// keys, axes and slots as the kernel reported them then).
    public init(of device: OpaquePointer) {
        keys = .allocate(capacity: 2 * Self.keyWords)
        keys.initialize(repeating: 0, count: 2 * Self.keyWords)
        var axes: UInt64 = 0
        for code in 0..<UInt32(ABS_CNT) where libevdev_has_event_code(device, UInt32(EV_ABS), code) != 0 {
            axes |= 1 << UInt64(code)
        }
        self.axes = axes
        for code in 0..<UInt32(KEY_CNT) where libevdev_has_event_code(device, UInt32(EV_KEY), code) != 0 {
            keys[Int(code) / 64] |= 1 << UInt64(code % 64)
        }
        values = .allocate(capacity: Int(ABS_CNT))
        values.initialize(repeating: 0, count: Int(ABS_CNT))
        slotCount = libevdev_get_num_slots(device)
        let rows = max(Int(slotCount), 0)
        slots = .allocate(capacity: max(rows * Self.mtCodes, 1))
        slots.initialize(repeating: 0, count: max(rows * Self.mtCodes, 1))
        currentSlot = -1
        load(from: device)
    }

    deinit {
        keys.deallocate()
        values.deallocate()
        slots.deallocate()
    }

    /// Takes libevdev's state over again: after its sync, libevdev's mirror is the kernel's.
    public func load(from device: OpaquePointer) {
        for code in 0..<Int(KEY_CNT) where has(key: code) {
            set(key: code, down: libevdev_get_event_value(device, UInt32(EV_KEY), UInt32(code)) != 0)
        }
        for code in 0..<Int(ABS_CNT) where has(axis: code) {
            values[code] = libevdev_get_event_value(device, UInt32(EV_ABS), UInt32(code))
        }
        for slot in 0..<max(Int(slotCount), 0) {
            for i in 1..<Self.mtCodes where has(axis: Int(ABS_MT_SLOT) + i) {
                slots[slot * Self.mtCodes + i] = libevdev_get_slot_value(device, UInt32(slot), UInt32(Int(ABS_MT_SLOT) + i))
            }
        }
        currentSlot = libevdev_get_current_slot(device)
    }

    /// Each slot's multitouch values (`ABS_MT_*` but `ABS_MT_SLOT`, by code) as the device has
    /// them now; empty for a device without slots.
    public func slotValues() -> [[UInt16: Int32]] {
        (0..<max(Int(slotCount), 0)).map { slot in
            var row: [UInt16: Int32] = [:]
            for i in 1..<Self.mtCodes where has(axis: Int(ABS_MT_SLOT) + i) {
                row[UInt16(Int(ABS_MT_SLOT) + i)] = slots[slot * Self.mtCodes + i]
            }
            return row
        }
    }

    /// One event read from the device, as `libevdev_set_event_value` would take it; only key
    /// and axis events are kept (libevdev would keep switches and LEDs too).
    @inline(__always)
    public func apply(type: UInt16, code: UInt16, value: Int32) {
        if type == UInt16(EV_ABS) {
            applyAxis(Int(code), value)
        } else if type == UInt16(EV_KEY) {
            let code = Int(code)
            if code < Int(KEY_CNT) && has(key: code) { set(key: code, down: value != 0) }
        }
    }

    @inline(__always)
    private func applyAxis(_ code: Int, _ value: Int32) {
        guard code < Int(ABS_CNT), has(axis: code) else { return }
        if slotCount >= 0 && code >= Int(ABS_MT_SLOT) && code <= Int(ABS_MT_TOOL_Y) {
            if code == Int(ABS_MT_SLOT) {
                guard value >= 0 && value < slotCount else { return }
                currentSlot = value
            } else if currentSlot >= 0 && currentSlot < slotCount {
                let row = slots + Int(currentSlot) * Self.mtCodes
                let i = code - Int(ABS_MT_SLOT)
                if code == Int(ABS_MT_TRACKING_ID) && (value == -1) == (row[i] == -1) { return }
                row[i] = value
            }
        }
        values[code] = value
    }

    /// Makes libevdev's mirror of `device` this one: every key, axis and slot value and the
    /// current slot. What a sync after `SYN_DROPPED` compares with the kernel's state.
    public func store(into device: OpaquePointer) {
        for code in 0..<Int(KEY_CNT) where has(key: code) {
            _ = libevdev_set_event_value(device, UInt32(EV_KEY), UInt32(code), isDown(key: code) ? 1 : 0)
        }
        let slotted = slotCount >= 0
        for code in 0..<Int(ABS_CNT) where has(axis: code) {
            if slotted && code >= Int(ABS_MT_SLOT) && code <= Int(ABS_MT_TOOL_Y) { continue }
            _ = libevdev_set_event_value(device, UInt32(EV_ABS), UInt32(code), values[code])
        }
        guard slotted else { return }
        for slot in 0..<Int(slotCount) {
            for i in 1..<Self.mtCodes where has(axis: Int(ABS_MT_SLOT) + i) {
                _ = libevdev_set_slot_value(device, UInt32(slot), UInt32(Int(ABS_MT_SLOT) + i), slots[slot * Self.mtCodes + i])
            }
        }
        // Through the event, as a slot event read from the device: libevdev copies the slot's
        // values to its axes' values too.
        if currentSlot >= 0 && currentSlot < slotCount {
            _ = libevdev_set_event_value(device, UInt32(EV_ABS), UInt32(ABS_MT_SLOT), currentSlot)
        }
    }

    @inline(__always)
    private func has(axis code: Int) -> Bool { axes & (1 << UInt64(code)) != 0 }

    @inline(__always)
    private func has(key code: Int) -> Bool { keys[code / 64] & (1 << UInt64(code % 64)) != 0 }

    private func isDown(key code: Int) -> Bool { keys[Self.keyWords + code / 64] & (1 << UInt64(code % 64)) != 0 }

    @inline(__always)
    private func set(key code: Int, down: Bool) {
        let bit: UInt64 = 1 << UInt64(code % 64)
        if down { keys[Self.keyWords + code / 64] |= bit } else { keys[Self.keyWords + code / 64] &= ~bit }
    }
}
