// Multitouch protocol A: every frame lists every contact, each closed by SYN_MT_REPORT,
// with no identity. Contacts are matched to the previous frame's by tracking id where
// the device sends one, else by nearest position (closest pairs first).

extension TouchDecoder {
    /// One contact's values between two `SYN_MT_REPORT`s.
    struct Packet: Sendable {
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        var trackingID: Int32 = -1
        var toolType: Int32 = MTToolType.finger
        var hasX = false
        var hasY = false
    }

    struct AnonymousContact: Sendable {
        var id: Int
        var slot: Int
        var trackingID: Int32
        var x: Int32
        var y: Int32
        var pressure: Int32
        var major: Int32
        var minor: Int32
    }

    @usableFromInline
    mutating func anonymousAxis(_ code: UInt16, _ value: Int32) {
        switch code {
        case AbsCode.mtPositionX: packet.x = value; packet.hasX = true
        case AbsCode.mtPositionY: packet.y = value; packet.hasY = true
        case AbsCode.mtPressure: packet.pressure = value
        case AbsCode.mtTouchMajor: packet.major = value
        case AbsCode.mtTouchMinor: packet.minor = value
        case AbsCode.mtTrackingID: packet.trackingID = value
        case AbsCode.mtToolType: packet.toolType = value
        default: break
        }
    }

    /// `SYN_MT_REPORT`: the packet is one contact; an empty packet says "no contacts".
    @usableFromInline
    mutating func closePacket() throws(DecodeError) {
        sawMTReport = true
        // A packet without a position carries no contact (devices send an empty
        // SYN_MT_REPORT when the last finger lifts); palms never take part.
        if packet.hasX && packet.hasY && packet.toolType != MTToolType.palm {
            if packets.count >= Self.maximumAnonymousContacts {
                throw .tooManyContacts(count: packets.count + 1, limit: Self.maximumAnonymousContacts)
            }
            packets.append(packet)
        }
        packet = Packet()
    }

    mutating func reportAnonymous(time: Instant, emit: (TouchFrame) -> Void) {
        frame.contacts.removeAll(keepingCapacity: true)
        // A frame with neither packets nor a release (only buttons, say) changes no contact.
        if !sawMTReport && !touchReleased && packets.isEmpty {
            for c in anonymousContacts { frame.contacts.append(anonymousContact(c, .stationary)) }
            frame.contacts.sort { $0.slot < $1.slot }
            emitFrame(time: time, emit: emit)
            return
        }
        if touchReleased { packets.removeAll(keepingCapacity: true) }
        matchAnonymous()

        var next: [AnonymousContact] = []
        next.reserveCapacity(packets.count)
        var matchedNew = Array(repeating: -1, count: packets.count)
        for pair in matchPairs { matchedNew[pair.new] = pair.old }
        var oldMatched = Array(repeating: false, count: anonymousContacts.count)
        for pair in matchPairs { oldMatched[pair.old] = true }

        for (oldIndex, c) in anonymousContacts.enumerated() where !oldMatched[oldIndex] {
            frame.contacts.append(anonymousContact(c, .ended))
        }
        var usedSlots: UInt64 = 0
        for pair in matchPairs { usedSlots |= 1 << UInt64(anonymousContacts[pair.old].slot) }
        for (newIndex, p) in packets.enumerated() {
            let phase: TouchPhase
            var c: AnonymousContact
            if matchedNew[newIndex] >= 0 {
                c = anonymousContacts[matchedNew[newIndex]]
                let same = c.x == p.x && c.y == p.y && c.pressure == p.pressure && c.major == p.major && c.minor == p.minor
                phase = same ? .stationary : .moved
            } else {
                let slot = (~usedSlots).trailingZeroBitCount
                usedSlots |= 1 << UInt64(slot)
                c = AnonymousContact(id: newContactID(), slot: slot, trackingID: p.trackingID, x: p.x, y: p.y,
                                     pressure: p.pressure, major: p.major, minor: p.minor)
                phase = .began
            }
            c.x = p.x
            c.y = p.y
            c.pressure = p.pressure
            c.major = p.major
            c.minor = p.minor
            c.trackingID = p.trackingID
            next.append(c)
            frame.contacts.append(anonymousContact(c, phase))
        }
        anonymousContacts = next
        frame.contacts.sort { ($0.slot, $0.id) < ($1.slot, $1.id) }
        packets.removeAll(keepingCapacity: true)
        packet = Packet()
        sawMTReport = false
        touchReleased = false
        emitFrame(time: time, emit: emit)
    }

    /// Fills `matchPairs` with (old, new) index pairs: by tracking id when every packet and
    /// contact has one, else greedily by smallest squared distance in device units.
    private mutating func matchAnonymous() {
        matchPairs.removeAll(keepingCapacity: true)
        guard !anonymousContacts.isEmpty, !packets.isEmpty else { return }
        let byID = packets.allSatisfy { $0.trackingID >= 0 } && anonymousContacts.allSatisfy { $0.trackingID >= 0 }
        if byID {
            for (n, p) in packets.enumerated() {
                if let o = anonymousContacts.firstIndex(where: { $0.trackingID == p.trackingID }) {
                    matchPairs.append((0, o, n))
                }
            }
            return
        }
        var candidates: [(distance: Int64, old: Int, new: Int)] = []
        candidates.reserveCapacity(anonymousContacts.count * packets.count)
        for (o, c) in anonymousContacts.enumerated() {
            for (n, p) in packets.enumerated() {
                let dx = Int64(c.x) - Int64(p.x)
                let dy = Int64(c.y) - Int64(p.y)
                candidates.append((dx * dx + dy * dy, o, n))
            }
        }
        candidates.sort { ($0.distance, $0.old, $0.new) < ($1.distance, $1.old, $1.new) }
        var oldTaken = Array(repeating: false, count: anonymousContacts.count)
        var newTaken = Array(repeating: false, count: packets.count)
        for candidate in candidates where !oldTaken[candidate.old] && !newTaken[candidate.new] {
            oldTaken[candidate.old] = true
            newTaken[candidate.new] = true
            matchPairs.append(candidate)
        }
    }
}
