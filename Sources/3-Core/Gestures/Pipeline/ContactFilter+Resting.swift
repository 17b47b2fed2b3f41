import TouchEvents

/// When a contact down landed, where it was when the last contact landed, and where it last
/// reported.
struct Landing {
    var id: Int
    var time: Instant
    var at: Point
    var lastPosition: Point
}

/// A place a contact left by jumping (``GestureDefaults/trackingJumpDistance``): a contact
/// landing there before `until` is the touch that was there, down since `time`.
struct JumpOrigin {
    var at: Point
    var time: Instant
    var until: Instant
}

/// Resting fingers: a finger resting on a touchpad while others scroll beside it
/// (``TouchPolicy/restingFingerTime``).
extension ContactFilter {
    /// Keeps ``landings`` up to date; true when the frame may hold a resting finger: three or
    /// more contacts down.
    ///
    /// A contact that jumps ``GestureDefaults/trackingJumpDistance`` or more in one frame landed
    /// where it now is, and a contact landing where it jumped from, within
    /// ``ContactFilter/bounceWindow``, closer than ``GestureDefaults/bounceDistance``, is the touch
    /// that was there all along: the firmware gave its tracking id to a finger landing elsewhere
    /// and a new id to the touch that stayed (link palm_scroll.upper.left.up, a Cypress pad: a
    /// palm's id jumps 60 mm to a finger landing, and the palm goes on under a new id 15 ms later,
    /// 0.3 mm from where it was).
    func noteLandings(_ frame: TouchFrame) -> Bool {
        var landed = false
        if !jumpOrigins.isEmpty { jumpOrigins.removeAll { frame.time >= $0.until } }
        for (order, contact) in frame.contacts.enumerated() {
            let position = Point(x: contact.x, y: contact.y)
            if contact.phase == .began {
                var time = frame.time
                if let origin = jumpOrigins.firstIndex(where: { ($0.at - position).length < GestureDefaults.bounceDistance }) {
                    time = jumpOrigins[origin].time
                    jumpOrigins.remove(at: origin)
                }
                landings.append(Landing(id: contact.id, time: time, at: position, lastPosition: position))
                landed = true
            } else if let i = landings.firstIndex(hint: order, where: { $0.id == contact.id }) {
                if contact.phase.isFinal {
                    landings.remove(at: i)
                } else {
                    if (position - landings[i].lastPosition).length >= GestureDefaults.trackingJumpDistance {
                        jumpOrigins.append(JumpOrigin(at: landings[i].lastPosition, time: landings[i].time, until: frame.time + bounceWindow))
                        landings[i].time = frame.time
                        landed = true
                    }
                    landings[i].lastPosition = position
                }
            }
        }
        if landed {
            // Stillness counts from the last landing: where each contact was then.
            for contact in frame.contacts {
                if let i = landings.firstIndex(where: { $0.id == contact.id }) { landings[i].at = Point(x: contact.x, y: contact.y) }
            }
        }
        return frame.contacts.count >= 3 || (frame.contacts.count >= 2 && frame.toolFingerCount >= 3)
    }

    /// Whether `contact`, landing in this frame, lands beside a scroll: two or more fingers down
    /// that landed ``TouchPolicy/restingFingerTime`` or more before it, one of them at least
    /// moving in this frame (a palm or thumb touching the pad's edge during a two-finger scroll,
    /// whose fingers may be one resting and one moving). It is left out, as a
    /// resting finger is, until it moves ``GestureDefaults/thumbEscapeDistance``: what does not
    /// move with the group is not one of its fingers. A finger that lands to join the stroke
    /// moves with it, and counts from then.
    func landsBesideAScroll(_ contact: TouchContact, in frame: TouchFrame) -> Bool {
        guard let wait = policy.restingFingerTime else { return false }
        var down = 0
        var moving = false
        for other in frame.contacts where other.id != contact.id && !other.phase.isFinal {
            guard let landing = landings.first(where: { $0.id == other.id }), landing.time + wait <= frame.time,
                  !isLeftOut(other.id) else { continue }
            down += 1
            if other.phase == .moved { moving = true }
        }
        return down >= 2 && moving
    }

    /// Where and when `contact` landed, if it is a resting finger: since the last finger landed it has
    /// stayed within ``GestureDefaults/thumbEscapeDistance`` of where it was, while two or more
    /// fingers that landed ``TouchPolicy/restingFingerTime`` or more after it moved that far (a
    /// thumb or finger resting on a touchpad while two fingers scroll beside it). One moving
    /// finger is not enough: a finger resting while another scrolls makes a two-finger scroll.
    /// On a pad that reports more fingers by `BTN_TOOL_*` than it has contacts for (two slots,
    /// three fingers), a later contact moving carries the fingers no slot shows: two fingers
    /// landing together on one slot beside a resting thumb (issue 65, item 2).
    func restingLanding(of contact: TouchContact, in frame: TouchFrame) -> (at: Point, time: Instant)? {
        guard let wait = policy.restingFingerTime,
              let mine = landings.first(where: { $0.id == contact.id }),
              (Point(x: contact.x, y: contact.y) - mine.at).length < GestureDefaults.thumbEscapeDistance else { return nil }
        let later = mine.time + wait
        var moving = 0
        for other in frame.contacts where other.id != contact.id && !other.phase.isFinal {
            guard let landing = landings.first(where: { $0.id == other.id }), landing.time >= later,
                  (Point(x: other.x, y: other.y) - landing.at).length >= GestureDefaults.thumbEscapeDistance else { continue }
            moving += 1
        }
        if moving >= 1 { moving += max(0, frame.toolFingerCount - frame.activeContactCount) }
        return moving >= 2 ? (mine.at, mine.time) : nil
    }
}
