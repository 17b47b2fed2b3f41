// Single-touch devices (resistive kiosk panels, old touchpads): ABS_X/ABS_Y and
// BTN_TOUCH (or BTN_TOOL_FINGER where there is no BTN_TOUCH) give one contact.

extension TouchDecoder {
    struct SingleTouch: Sendable {
        var down = false
        /// A frame has reported the current contact.
        var announced = false
        /// State lost after `SYN_DROPPED`: the next touch report or position starts a contact.
        var unknown = false
        var contactID = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32 = 0
        var changed = false
    }

    @usableFromInline
    mutating func singleAxis(_ code: UInt16, _ value: Int32) {
        switch code {
        case AbsCode.x: single.x = value; single.changed = true
        case AbsCode.y: single.y = value; single.changed = true
        case AbsCode.pressure: single.pressure = value; single.changed = true
        default: break
        }
    }

    mutating func singleKey(down: Bool) {
        single.down = down
        single.unknown = false
    }

    mutating func reportSingle(time: Instant, emit: (TouchFrame) -> Void) {
        frame.contacts.removeAll(keepingCapacity: true)
        if single.unknown && single.changed {
            // After dropped events a position means a finger is down: a new contact.
            single.unknown = false
            single.down = true
        }
        if single.down && !single.unknown {
            let phase: TouchPhase
            if !single.announced {
                single.contactID = newContactID()
                single.announced = true
                phase = .began
            } else {
                phase = single.changed ? .moved : .stationary
            }
            frame.contacts.append(contact(id: single.contactID, slot: 0, phase: phase, x: single.x, y: single.y,
                                          pressure: single.pressure, major: 0, minor: 0))
        } else if single.announced {
            frame.contacts.append(contact(id: single.contactID, slot: 0, phase: .ended, x: single.x, y: single.y,
                                          pressure: single.pressure, major: 0, minor: 0))
            single.announced = false
        }
        single.changed = false
        emitFrame(time: time, emit: emit)
    }
}
