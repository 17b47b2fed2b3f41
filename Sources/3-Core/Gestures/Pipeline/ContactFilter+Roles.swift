import TouchEvents

/// Why a contact down is not a finger to the recognizers: what the live view marks on it and
/// `replay --explain` says.
public enum LeftOutReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// It pressed like a palm, landed beside one, or landed where one just lifted.
    case palm
    /// It rests in a touchpad's thumb area.
    case thumb
    /// A finger resting beside a scroll, or while two fingers that landed after it move.
    case resting
    /// It touches pressing nothing.
    case hover

    public var description: String { rawValue }
}

/// The role of a contact down that is not a finger (``ContactFilter``), with what its
/// handler needs.
enum ContactRole {
    /// Left out until it lifts.
    case palm(Palm)
    /// Resting in a touchpad's thumb area: left out until it leaves it, or moves quickly beside
    /// a finger.
    case thumb(Rest)
    /// A resting finger out of the thumb area: left out until it moves away.
    case resting(Rest)
    /// Touching pressing nothing since `since`: left out until it presses.
    case hover(since: Instant)

    /// A palm, and where it is; for one that landed near a palm without pressing like one
    /// (`fragment`), how it landed: it may yet point away.
    struct Palm {
        var at: Point
        var fragment: Fragment?
    }

    /// Where and when a contact landed beside a palm, which palm that was and where.
    struct Fragment {
        var landed: Point
        var time: Instant
        var palm: Int
        var palmAt: Point
    }

    /// A resting contact: where and when it landed (where it settled, once it has).
    struct Rest {
        var landed: Point
        var time: Instant
        /// It pressed a button (the finger that clicked a clickpad's lower edge): it stays left out.
        var clicked: Bool
        /// Whether a report is the one it settles at (``LandingSettle``).
        var settle: LandingSettle
        /// In the thumb area, where it was at the start of its current escape window.
        var window: (at: Point, time: Instant)? = nil
        /// For a thumb that landed alone: what it has reported, and how it landed (where it
        /// settled, once it has) — what it taps with if it lifts soon, still alone
        /// (``ContactFilter/thumbTapped(_:_:_:kept:)``). Nil once another contact or finger
        /// has been down beside it, and for a resting finger.
        var alone: (landing: TouchContact, reports: ContactReports, farthest: Double)? = nil
    }

    var reason: LeftOutReason {
        switch self {
        case .palm: .palm
        case .thumb: .thumb
        case .resting: .resting
        case .hover: .hover
        }
    }

    /// A thumb or a resting finger.
    var rests: Bool {
        switch self {
        case .thumb, .resting: true
        case .palm, .hover: false
        }
    }

    /// Where it is, if it is a palm.
    var palmPosition: Point? {
        if case .palm(let palm) = self { palm.at } else { nil }
    }

    /// Its name in the log: `palm`, `thumb`, `resting`, `hover`.
    var name: String { reason.rawValue }
}

extension ContactFilter {
    // MARK: - One handler per role

    /// A hovering contact (role `i`) reports: lifted, its lift is one a touch pressing there
    /// next bounces from; pressing, it lands now (returned, to be classified as a new contact).
    func hovering(_ contact: TouchContact, at i: Int, since: Instant, _ pass: FramePass) -> TouchContact? {
        let position = Point(x: contact.x, y: contact.y)
        if contact.phase.isFinal {
            roles.remove(at: i)
            noteLift(at: position, time: pass.time, vanished: false)
            return nil
        }
        if pass.hovers(contact) != nil { return nil }
        roles.remove(at: i)
        transition(contact.id, from: "hover", to: "finger", at: pass.time,
                   "pressure \(contact.pressure ?? 0)" + (contact.touchMajor.map { ", touch major \($0)" } ?? ""))
        var pressing = contact
        pressing.phase = .began
        if pass.time - since > GestureDefaults.landingSettleTime { pressing.downSince = since }
        return pressing
    }

    /// A palm (role `i`) reports: it moves, or lifts (one that pressed like a palm lifts where a
    /// touch landing soon is it again). One that landed beside a palm presses like one, and is
    /// one; or points away from it (``GestureDefaults/palmPointingDistance``, not counting how
    /// far the palm moved), and is a finger from now on.
    func palmReported(_ contact: TouchContact, at i: Int, _ palm: ContactRole.Palm, _ pass: FramePass, kept: inout TouchFrame) {
        let position = Point(x: contact.x, y: contact.y)
        if contact.phase.isFinal {
            if palm.fragment == nil { liftedPalms.append((position, pass.time)) }
            roles.remove(at: i)
            return
        }
        var moved = palm
        moved.at = position
        defer { if i < roles.count, roles[i].id == contact.id { roles[i].role = .palm(moved) } }
        guard let fragment = palm.fragment else { return }
        let palmMoved = roles.first { $0.id == fragment.palm }?.role.palmPosition.map { $0 - fragment.palmAt } ?? .zero
        if let why = pass.palmLike(contact) {
            moved.fragment = nil
            transition(contact.id, from: "palm beside palm \(fragment.palm)", to: "palm", at: pass.time, "\(why): no longer beside one")
        } else if (position - fragment.landed - palmMoved).length >= GestureDefaults.palmPointingDistance,
                  pass.hovers(contact) == nil {
            roles.remove(at: i)
            transition(contact.id, from: "palm", to: "finger", at: pass.time,
                       "pointed \(formatDecimal((position - fragment.landed - palmMoved).length, places: 1)) mm away from palm \(fragment.palm)")
            land(contact, downSince: fragment.time, landedAt: fragment.landed, in: &kept)
        }
    }

    /// A thumb or resting finger (role `i`) reports. Pressing like a palm (and having pressed
    /// no button), it is one. Otherwise it counts as a finger once it escapes: a thumb when it
    /// leaves the thumb area, or, beside a finger within a two-finger scroll's reach
    /// (``GestureDefaults/withinScrollReach(_:_:)``), moves ``GestureDefaults/thumbEscapeDistance``
    /// within ``GestureDefaults/thumbEscapeTime`` (a resting thumb creeps); a resting finger once
    /// it moves that far from its rest. One that pressed a button stays left out.
    func restingReported(_ contact: TouchContact, at i: Int, _ rest: ContactRole.Rest, _ pass: FramePass, kept: inout TouchFrame) {
        let inArea = if case .thumb = roles[i].role { true } else { false }
        let from = roles[i].role.name
        if contact.phase.isFinal {
            roles.remove(at: i)
            if inArea { thumbTapped(contact, rest, pass, kept: &kept) }
            return
        }
        let position = Point(x: contact.x, y: contact.y)
        var rest = rest
        if pass.frame.buttonDown { rest.clicked = true }
        if pass.frame.contacts.count > 1 || pass.frame.toolFingerCount > 1 {
            rest.alone = nil
        } else if rest.alone != nil {
            _ = rest.alone?.reports.note(pressure: contact.pressure, moved: contact.phase == .moved)
        }
        if !rest.clicked, let why = pass.palmLike(contact) {
            // It never counted, so it cancels nothing. (A thumb pressing the clickpad's button
            // presses hard: it stays a thumb.)
            roles.remove(at: i)
            roles.append((contact.id, .palm(ContactRole.Palm(at: position, fragment: nil))))
            transition(contact.id, from: from, to: "palm", leftOut: .palm, at: pass.time, why)
            return
        }
        // Its first report after landing, soon after: where it settled, not a move.
        let settled = rest.settle.settles(contact.phase, at: pass.time)
        if settled {
            rest.landed = position
            rest.alone?.landing = contact
            rest.alone?.farthest = 0
        }
        let moved = (position - rest.landed).length
        // How far it went while pressing (a finger lifting slides: ``TouchPolicy/liftingPressureShare``).
        if let alone = rest.alone, moved > alone.farthest,
           !(contact.pressure.map { policy.isLifting(pressure: $0, peak: alone.reports.peak) } ?? false) {
            rest.alone?.farthest = moved
        }
        let leftArea = inArea && pass.thumbLine.map { position.y < $0 - GestureDefaults.thumbEscapeDistance / 2 } ?? true
        // The window starts when a finger is beside it, and again when it is over. A thumb in
        // the area is beside a finger only within a scroll's reach of one (libinput's contextual
        // thumb: the lower of two touches farther apart is the thumb).
        let alone = inArea ? !fingerWithinScrollReach(of: position, pass) : !pass.fingerDown
        var window = rest.window ?? (rest.landed, pass.time)
        if alone || settled || pass.time - window.time > GestureDefaults.thumbEscapeTime { window = (position, pass.time) }
        rest.window = window
        let movedQuickly = (position - window.at).length >= GestureDefaults.thumbEscapeDistance
        let escaped = leftArea || (inArea ? !alone && movedQuickly : moved >= GestureDefaults.thumbEscapeDistance)
        guard escaped, !rest.clicked else {
            roles[i].role = inArea ? .thumb(rest) : .resting(rest)
            return
        }
        roles.remove(at: i)
        transition(contact.id, from: from, to: "finger", at: pass.time,
                   leftArea ? "left the thumb area" : "moved \(formatDecimal(moved, places: 1)) mm from its rest")
        land(contact, downSince: rest.time, landedAt: rest.landed, in: &kept)
    }

    /// A thumb lifts (`contact`, ended or cancelled). One that landed alone in the thumb area,
    /// was alone all the while, pressed no button, went no farther than a tap may
    /// (``GestureDefaults/tapMaximumMovement``, from where it settled, while pressing) and lifts
    /// within ``GestureDefaults/thumbTapTime`` of landing, is a fingertip tapping low: it lands in
    /// `kept` as it landed (where it settled, at the lift's time) and lifts in a frame of its own
    /// (``takeThumbTapLift(at:)``), for the tap and the vanishing rule to judge — libinput's
    /// jailed touch, kept from moving the pointer but free to tap.
    func thumbTapped(_ contact: TouchContact, _ rest: ContactRole.Rest, _ pass: FramePass, kept: inout TouchFrame) {
        guard contact.phase == .ended, let alone = rest.alone, !rest.clicked, pass.frame.contacts.count == 1,
              pass.frame.toolFingerCount <= 1, pass.time - rest.time <= GestureDefaults.thumbTapTime,
              alone.farthest <= GestureDefaults.tapMaximumMovement * policy.movementAllowance else { return }
        var landing = alone.landing
        landing.phase = .began
        landing.downSince = nil
        kept.contacts.append(landing)
        // What it reported while it rested: the lift is judged by it (``track(_:)``).
        reports.append(alone.reports)
        thumbTapLifts.append(contact)
        transition(contact.id, from: "thumb", to: "finger", at: pass.time,
                   "lifted alone \(formatDecimal((pass.time - rest.time).inMilliseconds, places: 1)) ms after landing in the thumb area: it may tap")
    }

    /// The frame of its own in which a thumb that taps (``thumbTapped(_:_:_:kept:)``) lifts, at
    /// `time` (the frame it landed in), noted as the filter's frames are; nil when none does.
    func takeThumbTapLift(at time: Instant) -> TouchFrame? {
        guard !thumbTapLifts.isEmpty else { return nil }
        let frame = TouchFrame(time: time, contacts: thumbTapLifts)
        thumbTapLifts.removeAll()
        track(frame)
        return frame
    }

    /// A contact with no role reports (a finger, or one first seen). A palm breaks up into
    /// several contacts as it rolls: one landing near a palm is part of it; a palm flickers: one
    /// landing where one just lifted is that palm again; one pressing like a palm is one, and is
    /// cancelled where it counted. Landing pressing nothing, it hovers; in a touchpad's thumb
    /// area, it is a thumb; beside a scroll, or resting while two later fingers move, a resting
    /// finger (lifted where it counted). Otherwise it is a finger.
    func classify(_ contact: TouchContact, _ pass: FramePass, kept: inout TouchFrame) {
        let position = Point(x: contact.x, y: contact.y)
        let began = contact.phase == .began
        let relanded = began && liftedPalms.contains { ($0.at - position).length < GestureDefaults.palmRelandDistance }
        let palmLike = pass.palmLike(contact)
        let pressed = relanded || palmLike != nil
        let nearPalm = pressed || !began || besideAFinger(contact, pass) ? nil : palm(near: position)
        if pass.findsPalms, pressed || nearPalm != nil, !contact.phase.isFinal {
            let fragment = nearPalm.map { ContactRole.Fragment(landed: position, time: pass.time, palm: $0.id, palmAt: $0.role.palmPosition ?? .zero) }
            roles.append((contact.id, .palm(ContactRole.Palm(at: position, fragment: fragment))))
            transition(contact.id, from: began ? "new" : "finger", to: "palm", leftOut: .palm, at: pass.time,
                       nearPalm.map { "landed beside palm \($0.id)" }
                           ?? (relanded ? "landed where a palm lifted" : palmLike ?? ""))
            if !began {
                var cancelled = contact
                cancelled.phase = .cancelled
                kept.contacts.append(cancelled)
                leftOut.append(contact.id)
            }
            return
        }
        guard let role = landingRole(contact, pass) else {
            kept.contacts.append(contact)
            return
        }
        roles.append((contact.id, role.role))
        transition(contact.id, from: began ? "new" : "finger", to: role.role.name, leftOut: role.role.reason, at: pass.time, role.why)
        if role.lifts {
            // Found resting while down: it lifts where it counted.
            var lifted = contact
            lifted.phase = .ended
            kept.contacts.append(lifted)
            leftOut.append(contact.id)
        }
    }

    /// Whether another contact of `pass`'s frame, a finger (none of its roles) pressing like no
    /// palm, is within a two-finger scroll's reach of `contact`
    /// (``GestureDefaults/withinScrollReach(_:_:)``). One landing in this frame counts only if
    /// it lands as a finger by itself — out of every palm's reach
    /// (``GestureDefaults/palmFragmentDistance``), hovering not, resting in the thumb area not —
    /// whichever of the two is classified first: two pieces of a palm breaking off together
    /// vouch for nothing.
    private func besideAFinger(_ contact: TouchContact, _ pass: FramePass) -> Bool {
        let position = Point(x: contact.x, y: contact.y)
        return pass.frame.contacts.contains { other in
            let at = Point(x: other.x, y: other.y)
            guard other.id != contact.id, pass.palmLike(other) == nil, GestureDefaults.withinScrollReach(at, position) else { return false }
            if isFingerDownBefore(other) { return true }
            guard other.phase == .began, !isLeftOut(other.id) else { return false }
            return pass.hovers(other) == nil && pass.restsAsThumb(other) == nil && palm(near: at) == nil
        }
    }

    /// The role a contact that is no palm takes, if it is not a finger, and why; `lifts`: it is
    /// found resting while down, and lifts where it counted.
    private func landingRole(_ contact: TouchContact, _ pass: FramePass) -> (role: ContactRole, why: String, lifts: Bool)? {
        let position = Point(x: contact.x, y: contact.y)
        if contact.phase == .began {
            if let why = pass.hovers(contact) {
                return (.hover(since: pass.time), why, false)
            }
            if let why = pass.restsAsThumb(contact) {
                // One that hovered first has been down since then, and settled.
                var rest = ContactRole.Rest(landed: position, time: contact.downSince ?? pass.time, clicked: pass.frame.buttonDown,
                                            settle: contact.downSince == nil ? LandingSettle(landedAt: pass.time) : .none)
                if pass.frame.contacts.count == 1, pass.frame.toolFingerCount <= 1, contact.downSince == nil {
                    rest.alone = (contact, ContactReports(landing: contact, at: pass.time), 0)
                }
                return (.thumb(rest), why, false)
            }
            if landsBesideAScroll(contact, in: pass.frame) {
                let rest = ContactRole.Rest(landed: position, time: pass.time, clicked: pass.frame.buttonDown,
                                            settle: LandingSettle(landedAt: pass.time))
                return (.resting(rest), "landed beside fingers that have been scrolling", false)
            }
        }
        if pass.resting, !contact.phase.isFinal, let (landed, time) = restingLanding(of: contact, in: pass.frame) {
            let rest = ContactRole.Rest(landed: landed, time: time, clicked: false, settle: .none)
            return (.resting(rest), "rests while two fingers that landed later move", true)
        }
        return nil
    }
}
