// Multitouch protocol B: each slot holds one contact, identified by its tracking id;
// the kernel sends only what changed, so a slot keeps its last values.

extension TouchDecoder {
    enum SlotState: Sendable {
        /// No contact.
        case idle
        /// A contact that takes part in gestures.
        case active
        /// A contact the device marked `MT_TOOL_PALM`: ignored until it lifts.
        case palm
        /// State lost after `SYN_DROPPED`: ignored until the next tracking id.
        case unknown
        /// A contact the pad holds while `BTN_TOUCH` is up (``TouchDecoder/touchesByTouchKey``):
        /// not touching; it begins, as a new contact, when `BTN_TOUCH` goes down.
        case hovering
    }

    @usableFromInline
    struct Slot: Sendable {
        var state = SlotState.idle
        var trackingID: Int32 = -1
        var contactID = 0
        @usableFromInline var x: Int32 = 0
        @usableFromInline var y: Int32 = 0
        @usableFromInline var pressure: Int32 = 0
        @usableFromInline var major: Int32 = 0
        @usableFromInline var minor: Int32 = 0
        @usableFromInline var toolType: Int32 = MTToolType.finger
        /// The contact began in the current frame.
        var began = false
        /// Something about the contact changed in the current frame.
        @usableFromInline var changed = false
        /// Some frame has reported the contact (so it must be reported ending).
        var announced = false
        /// The axes (x: bit 0, y: bit 1) whose only value since the contact began was corrupt
        /// (``TouchDecoder/plausibleX``): it begins once both have a real one.
        @usableFromInline var corruptAxes: UInt8 = 0
    }

    /// A contact that ended (or was cancelled) in the current frame.
    struct Finished: Sendable {
        var contact: TouchContact
        /// False when it began in this same frame: it is reported beginning first.
        var announced: Bool
    }

    @inlinable @inline(__always)
    mutating func slotAxis(_ code: UInt16, _ value: Int32) throws(DecodeError) {
        // A description can claim slots and give none (found by fuzzing): nothing to index.
        if slots.isEmpty { throw .noSlots }
        switch code {
        case AbsCode.mtSlot:
            guard value >= 0, Int(value) < slots.count else {
                throw .slotOutOfRange(slot: value, slotCount: slots.count)
            }
            currentSlot = Int(value)
        case AbsCode.mtTrackingID:
            try trackingID(value)
        case AbsCode.mtPositionX:
            guard plausibleX.contains(value) else { return corrupt(axis: 1) }
            slots[currentSlot].x = value
            slots[currentSlot].corruptAxes &= ~1
            slots[currentSlot].changed = true
        case AbsCode.mtPositionY:
            guard plausibleY.contains(value) else { return corrupt(axis: 2) }
            slots[currentSlot].y = value
            slots[currentSlot].corruptAxes &= ~2
            slots[currentSlot].changed = true
        case AbsCode.mtPressure:
            slots[currentSlot].pressure = value
            slots[currentSlot].changed = true
        case AbsCode.mtTouchMajor:
            slots[currentSlot].major = value
            slots[currentSlot].changed = true
        case AbsCode.mtTouchMinor:
            slots[currentSlot].minor = value
            slots[currentSlot].changed = true
        case AbsCode.mtToolType:
            slots[currentSlot].toolType = value
        case AbsCode.pressure:
            wholeTouch.pressure = value
        case AbsCode.toolWidth:
            wholeTouch.width = value
        default:
            break
        }
    }

    /// A position no surface can report (``TouchDecoder/plausibleX``): dropped. A contact not
    /// yet reported waits for a real one on that axis; one reported stays where it was.
    @usableFromInline
    mutating func corrupt(axis: UInt8) {
        if slots[currentSlot].state == .active && !slots[currentSlot].announced { slots[currentSlot].corruptAxes |= axis }
    }

    @usableFromInline
    mutating func trackingID(_ value: Int32) throws(DecodeError) {
        let i = currentSlot
        var s = slots[i]
        // A new tracking id on a slot that still has a contact: the old contact ended and the
        // new one begins, as if a -1 had come between. The kernel passes it on and libinput
        // goes on; an evtest recording that begins without ABS_MT_SLOT, its header saying
        // another slot, puts a second contact on a slot in use so (issue 65, item 7).
        if value >= 0, s.state == .active || s.state == .palm, value != s.trackingID {
            try trackingID(-1)
            s = slots[i]
            endingsFirst = true
        }
        if value < 0 {
            if s.state == .active {
                let phase: TouchPhase = s.toolType == MTToolType.palm ? .cancelled : .ended
                if s.announced || (phase == .ended && s.corruptAxes == 0) {
                    finishedThisFrame.append(Finished(contact: slotContact(i, phase), announced: s.announced))
                }
            }
            slots[i].state = .idle
            slots[i].trackingID = -1
            slots[i].began = false
            slots[i].announced = false
            slots[i].corruptAxes = 0
            return
        }
        switch s.state {
        case .active, .palm:
            // The same tracking id again: the contact goes on.
            break
        case .idle, .unknown, .hovering:
            if i >= slotsInUse { slotsInUse = i + 1 }
            slots[i].state = .active
            slots[i].trackingID = value
            slots[i].contactID = newContactID()
            slots[i].began = true
            slots[i].announced = false
            slots[i].corruptAxes = 0
        }
    }

    /// `contact` as the frame's contact number `n` (counted from 0), which is then the next.
    @inline(__always)
    private mutating func put(_ contact: TouchContact, at n: inout Int) {
        if n < frame.contacts.count { frame.contacts[n] = contact } else { frame.contacts.append(contact) }
        n += 1
    }

    mutating func reportSlots(time: Instant, emit: (TouchFrame) -> Void) {
        if touchesByTouchKey && touchKeySeen { hoverByTouchKey() }
        if endingsFirst { reportEndingsFirst(time: time, emit: emit) }
        // The last frame's contacts are overwritten, not emptied first: emptying the array is a
        // generic call of about 65 instructions, and a frame mostly has as many as the last.
        var written = 0
        var beganAndEnded = false
        for f in finishedThisFrame {
            // A contact that began and ended in this frame is reported beginning now and
            // ending in a second frame.
            if !f.announced { beganAndEnded = true }
            put(f.announced ? f.contact : f.contact.with(phase: .began), at: &written)
        }
        for i in 0..<slotsInUse where slots[i].state == .active {
            let s = slots[i]
            // Not yet a real position: it waits, still beginning.
            if s.corruptAxes != 0 { continue }
            if s.toolType == MTToolType.palm {
                // Never part of a gesture: cancel it if it was reported, else never report it.
                if s.announced { put(slotContact(i, .cancelled), at: &written) }
                slots[i].state = .palm
            } else {
                put(slotContact(i, s.began ? .began : (s.changed ? .moved : .stationary)), at: &written)
                slots[i].announced = true
            }
            slots[i].began = false
            slots[i].changed = false
        }
        if written < frame.contacts.count { frame.contacts.removeSubrange(written...) }
        if !finishedThisFrame.isEmpty {
            frame.contacts.sort { ($0.slot, $0.id) < ($1.slot, $1.id) }
        }
        emitFrame(time: time, emit: emit)

        if beganAndEnded {
            frame.contacts.removeAll(keepingCapacity: true)
            for f in finishedThisFrame where !f.announced {
                frame.contacts.append(f.contact)
            }
            // Those reported in the frame before (one waiting for a real position was not).
            for i in 0..<slotsInUse where slots[i].state == .active && slots[i].announced {
                frame.contacts.append(slotContact(i, .stationary))
            }
            frame.contacts.sort { ($0.slot, $0.id) < ($1.slot, $1.id) }
            emitFrame(time: time, emit: emit)
        }
        // Emptying an empty array is a call of about 50 instructions.
        if !finishedThisFrame.isEmpty { finishedThisFrame.removeAll(keepingCapacity: true) }
        while slotsInUse > 0 && slots[slotsInUse - 1].state == .idle { slotsInUse -= 1 }
    }

    /// Contacts ended while their slots still hold one (``endingsFirst``): a frame of the
    /// contacts that ended (and those going on, unchanged) comes first, at the same time, so
    /// that an old contact has lifted before a new one lands — as a finger does, whose -1 went
    /// missing — and a contact hovering is seen to lift.
    mutating func reportEndingsFirst(time: Instant, emit: (TouchFrame) -> Void) {
        endingsFirst = false
        frame.contacts.removeAll(keepingCapacity: true)
        for f in finishedThisFrame where f.announced { frame.contacts.append(f.contact) }
        for i in 0..<slotsInUse where slots[i].state == .active && !slots[i].began && slots[i].announced
            && slots[i].toolType != MTToolType.palm {
            frame.contacts.append(slotContact(i, .stationary))
        }
        frame.contacts.sort { ($0.slot, $0.id) < ($1.slot, $1.id) }
        emitFrame(time: time, emit: emit)
        finishedThisFrame.removeAll { $0.announced }
    }

    /// On a pad where `BTN_TOUCH` says whether it is touched (``TouchDecoder/touchesByTouchKey``):
    /// with the key up while `BTN_TOOL_*` still counts a finger, every contact hovers — one
    /// that was touching ends where it was, and what the pad reports of it after is no motion
    /// (a finger sliding as it lifts, its pressure below the driver's threshold: issue 65, item
    /// 4); with the key down again, the contacts hovering begin as new ones (libinput's touches
    /// over `BTN_TOUCH`).
    mutating func hoverByTouchKey() {
        // Every key up at once, the contacts still held: the input core releasing a device's
        // keys as it goes (an unplug), not fingers lifting to hover — the device's removal
        // cancels them. A finger that hovers is still counted by `BTN_TOOL_*`.
        guard touchKeyDown || toolMask != 0 else { return }
        for i in 0..<slotsInUse {
            switch slots[i].state {
            case .active where !touchKeyDown:
                if slots[i].announced {
                    finishedThisFrame.append(Finished(contact: slotContact(i, .ended), announced: true))
                    endingsFirst = true
                }
                slots[i].state = .hovering
                slots[i].began = false
                slots[i].announced = false
            case .hovering where touchKeyDown:
                slots[i].state = .active
                slots[i].contactID = newContactID()
                slots[i].began = true
                slots[i].announced = false
            default:
                break
            }
        }
    }
}
