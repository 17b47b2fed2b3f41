import Logging
import TouchEvents

/// Which contacts are fingers — between the decoder's frames and the router, as libinput keeps
/// its palm and thumb handling apart from the touches it routes:
///
/// - **Palms** press like one (``TouchPolicy/palmPressure``), land beside one, or land where
///   one just lifted: left out from then on (cancelled where they counted).
/// - **Thumbs and resting fingers** land in a touchpad's thumb area, beside a scroll, or rest
///   while two later fingers move: left out until they move away.
/// - **Hovers** land pressing nothing (``TouchPolicy/hoverPressure``): left out until they press.
/// - **Bounces and vanished lifts**: where contacts lift, and whether each vanished pressing
///   as hard as ever, for the trackers to tell a touch bouncing from a new one
///   (``lifts``, ``liftsVanishing``).
///
/// ``fingersOnly(_:)`` filters each frame; ``track(_:)`` then notes what its fingers report.
final class ContactFilter {
    @exclusivity(unchecked) var policy: TouchPolicy
    /// Set while debug logging is on.
    @exclusivity(unchecked) var logger: Logger?

    /// A contact judged a palm, while it is down, and where it is; for one that landed near a
    /// palm without pressing like one (`fragment`), how it landed: it may yet point away.
    struct Palm {
        var id: Int
        var at: Point
        var fragment: PalmFragment?
    }

    /// Where and when a contact landed beside a palm, which palm that was and where.
    struct PalmFragment {
        var landed: Point
        var time: Instant
        var palm: Int
        var palmAt: Point
    }

    /// Where and when a palm lifted.
    struct LiftedPalm {
        var at: Point
        var time: Instant
    }

    /// A contact resting in the thumb area (`inArea`), or a resting finger out of it.
    struct RestingContact {
        var id: Int
        /// Where and when it landed (where it settled, once it has).
        var landed: Point
        var time: Instant
        /// It pressed a button (the finger that clicked a clickpad's lower edge): it stays left out.
        var clicked: Bool
        var inArea: Bool
        /// Whether a report is the one it settles at (``LandingSettle``).
        var settle: LandingSettle
        /// In the area, where it was at the start of its current escape window.
        var window: EscapeWindow? = nil
    }

    /// Where a resting thumb was when its current ``GestureDefaults/thumbEscapeTime`` window began.
    struct EscapeWindow {
        var at: Point
        var time: Instant
    }

    /// A contact that landed pressing nothing, and since when.
    struct Hover {
        var id: Int
        var since: Instant
    }

    /// When a contact down landed, and where it was when the last contact landed.
    struct Landing {
        var id: Int
        var time: Instant
        var at: Point
    }

    /// What a contact down has reported: how hard it pressed at most and as it landed, how
    /// many reports of its own, and when it landed — what tells whether it vanished.
    struct ContactReports {
        var id: Int
        var peak: Int32
        var reports: Int
        var landed: Instant
        var landedPressure: Int32
    }

    /// The contacts down that ``track(_:)`` follows.
    @exclusivity(unchecked) private var contacts: [ContactReports] = []

    init(policy: TouchPolicy) {
        self.policy = policy
    }

    /// The contacts that lifted in this frame — not those the router ends or cancels while
    /// they are down — and whether each vanished, on a device that reports often enough to see
    /// a finger ease off (``TouchPolicy/vanishedTapReportInterval``): then no finger lifted.
    @exclusivity(unchecked) private(set) var liftsVanishing: [(contact: Int, vanished: Bool)] = []
    /// Contacts judged palms (``TouchPolicy/palmPressure``) while they are down, with where
    /// they are; for one that landed near a palm without pressing like one (`fragment`), where
    /// it landed and which palm it landed by, and where that was: it may yet point away.
    @exclusivity(unchecked) private var palms: [Palm] = []
    /// Where and when palms (judged by pressure) lifted, for the last
    /// ``GestureDefaults/palmRelandTime``: a palm flickers, lifting and landing again in place.
    @exclusivity(unchecked) private var liftedPalms: [LiftedPalm] = []
    /// Contacts resting in the thumb area (or resting fingers, `inArea` false), with where and
    /// when they landed, whether they pressed a button (the finger that clicked a clickpad's
    /// lower edge: it stays left out), whether a report is the one they settle at (then
    /// `landed` moves there: ``LandingSettle``), and, in the area, where a thumb was at the start
    /// of its current ``GestureDefaults/thumbEscapeTime`` window (beside a finger, it counts as
    /// one once it moves ``GestureDefaults/thumbEscapeDistance`` within a window).
    @exclusivity(unchecked) private var thumbs: [RestingContact] = []
    /// Contacts that landed pressing no more than ``TouchPolicy/hoverPressure``: left out until
    /// they press harder.
    @exclusivity(unchecked) private var hovering: [Hover] = []
    /// Whether any contact has pressed more than ``TouchPolicy/hoverPressure``: until one has,
    /// pressure says nothing (a device may declare `ABS_MT_PRESSURE` and never send it) and no
    /// contact hovers.
    @exclusivity(unchecked) private var pressureSeen = false
    /// When each contact down landed, and where it was when the last of them landed, while
    /// ``TouchPolicy/restingFingerTime`` is set: what tells a resting finger from fingers that
    /// came to move.
    @exclusivity(unchecked) private var landings: [Landing] = []
    /// Where contacts lifted, in any sequence, and until when a touch landing there is one of
    /// them bouncing (``TouchPolicy/bounceTime``; this frame's lifts included once
    /// ``track(_:)`` has run): every sequence's tracker tells a touch bouncing by them,
    /// so a bounce is one whichever sequence it lands in, even when the one it lifted from has
    /// ended.
    @exclusivity(unchecked) private(set) var lifts: [(until: Instant, at: Point)] = []
    /// The device's time between reports, which makes a bounce longer on a device that reports
    /// slowly (``TouchPolicy/bounceReports``) and tells whether it reports often enough to see
    /// a finger ease off as it lifts (``TouchPolicy/vanishedTapReportInterval``).
    @exclusivity(unchecked) private var reportIntervals = ReportIntervals()
    /// True once a contact of this device has reported, while down, pressing differently from
    /// how it landed: its firmware reports pressure as it changes, so a finger easing off before
    /// it lifts would show (``TouchPolicy/vanishedTapReportInterval``). Some firmware reports a
    /// contact's pressure as it lands and never again (a Cypress PS/2 pad: constant until the
    /// lift, every contact of a fast three-finger tap "vanishing"); there a contact lifting as
    /// hard as ever says nothing, and nothing vanishes. Learned per device session, as the
    /// report interval is: no static property (the pressure axis's range) tells.
    @exclusivity(unchecked) private(set) var pressureChanges = false
    /// The contacts that land in this frame after resting (a thumb leaving its rest, a finger
    /// pointing away from the palm it landed by), with where they had landed: their motion
    /// since, for a transform's every-finger check, counts from there.
    @exclusivity(unchecked) private(set) var restedLandings: [(id: Int, at: Point)] = []
    /// The contacts this frame ends or cancels though they are still down (a palm found, a
    /// resting finger left out): no lift a touch landing there could bounce from.
    @exclusivity(unchecked) private var leftOut: [Int] = []

    /// `frame` with only its fingers. A contact that presses like a palm is one from then on — it
    /// is cancelled in the sequence it was part of (as the kernel's `MT_TOOL_PALM` would have it)
    /// and left out of every frame after; so is one landing near a palm. A contact that lands in
    /// a touchpad's thumb area (``TouchPolicy/thumbArea``) is a resting thumb, left out until it
    /// moves out of it, or quickly while a finger is down beside it
    /// (``GestureDefaults/thumbEscapeDistance`` within ``GestureDefaults/thumbEscapeTime``): then
    /// it lands as a finger; pressing like a palm first, it is a palm.
    /// One landing with no pressure (``TouchPolicy/hoverPressure``) hovers, left out until it
    /// presses. The fingers `BTN_TOOL_*` counted for what is left out go too. The frame as it is when
    /// nothing is left out.
    func fingersOnly(_ frame: TouchFrame) -> TouchFrame {
        if !restedLandings.isEmpty { restedLandings.removeAll() }
        if !leftOut.isEmpty { leftOut.removeAll() }
        let threshold = policy.palmPressure
        let thumbLine = policy.thumbLine
        if !pressureSeen, let hover = policy.hoverPressure {
            pressureSeen = frame.contacts.contains { ($0.pressure ?? .min) > hover }
        }
        let hover = pressureSeen ? policy.hoverPressure : nil
        let resting = policy.restingFingerTime != nil && noteLandings(frame)
        guard threshold != nil || thumbLine != nil || hover != nil || resting else { return frame }
        guard !palms.isEmpty || !thumbs.isEmpty || !hovering.isEmpty || resting || !liftedPalms.isEmpty
              || frame.contacts.contains(where: { c in
                  (threshold.map { (c.pressure ?? .min) >= $0 } ?? false)
                      || (c.phase == .began && (thumbLine.map { c.y >= $0 } ?? false || hover.map { (c.pressure ?? .max) <= $0 } ?? false))
              }) else { return frame }
        if !liftedPalms.isEmpty {
            liftedPalms.removeAll { frame.time - $0.time > GestureDefaults.palmRelandTime }
        }
        var kept = frame
        kept.contacts.removeAll()
        // Whether a finger was down before this frame and still is, for the thumbs (one landing
        // in it may yet be a palm, a hover or a thumb, and counts from its next report). A thumb
        // is never one of them, so a thumb is alone when there is none.
        let fingerDown = !thumbs.isEmpty && frame.contacts.contains { c in
            c.phase != .began && !c.phase.isFinal && !isSetAside(c.id)
        }
        for var contact in frame.contacts {
            let position = Point(x: contact.x, y: contact.y)
            if let i = hovering.firstIndex(where: { $0.id == contact.id }) {
                if contact.phase.isFinal {
                    // Its lift is one a touch pressing there next bounces from.
                    hovering.remove(at: i)
                    noteLift(at: position, time: frame.time, vanished: false)
                    continue
                }
                if (contact.pressure ?? .max) <= hover ?? .min { continue }
                let since = hovering.remove(at: i).since
                logger?.debug("contact \(contact.id) presses (pressure \(contact.pressure ?? 0)): it lands now")
                contact.phase = .began
                if frame.time - since > GestureDefaults.landingSettleTime { contact.downSince = since }
            }
            if let i = palms.firstIndex(where: { $0.id == contact.id }) {
                if contact.phase.isFinal {
                    if palms[i].fragment == nil { liftedPalms.append(LiftedPalm(at: position, time: frame.time)) }
                    palms.remove(at: i)
                    continue
                }
                palms[i].at = position
                guard let fragment = palms[i].fragment else { continue }
                // How far it moved, not counting how far the palm it landed by moved.
                let palmMoved = palms.first { $0.id == fragment.palm }.map { $0.at - fragment.palmAt } ?? .zero
                if let threshold, (contact.pressure ?? .min) >= threshold {
                    palms[i].fragment = nil
                } else if (position - fragment.landed - palmMoved).length >= GestureDefaults.palmPointingDistance,
                          (contact.pressure ?? .max) > hover ?? .min {
                    // A finger beside the palm that points away: a finger from now on.
                    palms.remove(at: i)
                    logger?.debug("contact \(contact.id) moved away from the palm it landed by: a finger from now on")
                    land(contact, downSince: fragment.time, landedAt: fragment.landed, in: &kept)
                }
                continue
            }
            if let i = thumbs.firstIndex(where: { $0.id == contact.id }) {
                if contact.phase.isFinal {
                    thumbs.remove(at: i)
                    continue
                }
                if frame.buttonDown { thumbs[i].clicked = true }
                if let threshold, !thumbs[i].clicked, (contact.pressure ?? .min) >= threshold {
                    // A resting thumb that presses like a palm is one: it never counted, so it
                    // cancels nothing. (A thumb pressing the clickpad's button presses hard: it
                    // stays a thumb.)
                    thumbs.remove(at: i)
                    palms.append(Palm(id: contact.id, at: position, fragment: nil))
                    logger?.debug("contact \(contact.id) is a palm (pressure \(contact.pressure ?? 0), threshold \(threshold)): left out from now on")
                    continue
                }
                // Its first report after landing, soon after: where it settled, not a move.
                let settled = thumbs[i].settle.settles(contact.phase, at: frame.time)
                if settled { thumbs[i].landed = position }
                let movedFar = (position - thumbs[i].landed).length >= GestureDefaults.thumbEscapeDistance
                let leftArea = thumbs[i].inArea && thumbLine.map { position.y < $0 - GestureDefaults.thumbEscapeDistance / 2 } ?? true
                // In the area: alone, it counts only once it leaves; beside a finger, once it moves
                // quickly (a resting thumb creeps): the window starts when a finger is beside it,
                // and again when it is over. A resting finger out of it: once it moves far.
                let alone = !fingerDown
                var window = thumbs[i].window ?? EscapeWindow(at: thumbs[i].landed, time: frame.time)
                if alone || settled || frame.time - window.time > GestureDefaults.thumbEscapeTime {
                    window = EscapeWindow(at: position, time: frame.time)
                }
                thumbs[i].window = window
                let movedQuickly = (position - window.at).length >= GestureDefaults.thumbEscapeDistance
                let escaped = leftArea || (thumbs[i].inArea ? !alone && movedQuickly : movedFar)
                guard escaped, !thumbs[i].clicked else { continue }
                let thumb = thumbs.remove(at: i)
                logger?.debug("contact \(contact.id) \(leftArea ? "left the thumb area" : "moved from its rest"): a finger from now on")
                land(contact, downSince: thumb.time, landedAt: thumb.landed, in: &kept)
                continue
            }
            // A palm breaks up into several contacts as it rolls: one landing near a palm is part of it.
            // A palm flickers: a contact landing where one just lifted is that palm again.
            let relanded = contact.phase == .began
                && liftedPalms.contains { ($0.at - position).length < GestureDefaults.palmRelandDistance }
            let pressed = relanded || threshold.map { (contact.pressure ?? .min) >= $0 } ?? false
            let nearPalm = pressed || contact.phase != .began ? nil
                : palms.first { ($0.at - position).length < GestureDefaults.palmFragmentDistance }
            if let threshold, pressed || nearPalm != nil, !contact.phase.isFinal {
                palms.append(Palm(id: contact.id, at: position,
                                  fragment: nearPalm.map { PalmFragment(landed: position, time: frame.time, palm: $0.id, palmAt: $0.at) }))
                logger?.debug("contact \(contact.id) is a palm (pressure \(contact.pressure ?? 0), threshold \(threshold)): left out from now on")
                if contact.phase != .began {
                    var cancelled = contact
                    cancelled.phase = .cancelled
                    kept.contacts.append(cancelled)
                    leftOut.append(contact.id)
                }
                continue
            }
            if contact.phase == .began, let hover, (contact.pressure ?? .max) <= hover {
                hovering.append(Hover(id: contact.id, since: frame.time))
                logger?.debug("contact \(contact.id) hovers (pressure \(contact.pressure ?? 0)): left out until it presses")
                continue
            }
            if contact.phase == .began, let thumbLine, contact.y >= thumbLine {
                // One that hovered first has been down since then, and settled.
                thumbs.append(RestingContact(id: contact.id, landed: position, time: contact.downSince ?? frame.time, clicked: frame.buttonDown,
                                             inArea: true, settle: contact.downSince == nil ? LandingSettle(landedAt: frame.time) : .none))
                logger?.debug("contact \(contact.id) landed in the thumb area: left out while it rests there")
                continue
            }
            if contact.phase == .began, landsBesideAScroll(contact, in: frame) {
                thumbs.append(RestingContact(id: contact.id, landed: position, time: frame.time, clicked: frame.buttonDown, inArea: false,
                                             settle: LandingSettle(landedAt: frame.time)))
                logger?.debug("contact \(contact.id) landed beside fingers that have been scrolling: left out while it rests")
                continue
            }
            if resting, !contact.phase.isFinal, let (landed, time) = restingLanding(of: contact, in: frame) {
                thumbs.append(RestingContact(id: contact.id, landed: landed, time: time, clicked: false, inArea: false, settle: .none))
                logger?.debug("contact \(contact.id) rests while two fingers that landed later move: left out while it rests")
                var lifted = contact
                lifted.phase = .ended
                kept.contacts.append(lifted)
                leftOut.append(contact.id)
                continue
            }
            kept.contacts.append(contact)
        }
        kept.toolFingerCount = max(0, frame.toolFingerCount - palms.count - thumbs.count - hovering.count)
        return kept
    }

    /// `contact`, left out until now (resting, or beside a palm), lands in `kept` as a finger
    /// down since `time`; its motion, for a transform's every-finger check, counts from `landed`
    /// (``restedLandings``).
    private func land(_ contact: TouchContact, downSince time: Instant, landedAt landed: Point, in kept: inout TouchFrame) {
        var landing = contact
        landing.phase = .began
        landing.downSince = time
        kept.contacts.append(landing)
        restedLandings.append((contact.id, landed))
    }

    /// Keeps ``landings`` up to date; true when the frame may hold a resting finger: three or
    /// more contacts down.
    private func noteLandings(_ frame: TouchFrame) -> Bool {
        var landed = false
        for contact in frame.contacts {
            if contact.phase == .began {
                landings.append(Landing(id: contact.id, time: frame.time, at: Point(x: contact.x, y: contact.y)))
                landed = true
            } else if contact.phase.isFinal, let i = landings.firstIndex(where: { $0.id == contact.id }) {
                landings.remove(at: i)
            }
        }
        if landed {
            // Stillness counts from the last landing: where each contact was then.
            for contact in frame.contacts {
                if let i = landings.firstIndex(where: { $0.id == contact.id }) { landings[i].at = Point(x: contact.x, y: contact.y) }
            }
        }
        return frame.contacts.count >= 3
    }

    /// Whether the contact `id` is left out as a palm, a resting thumb or finger, or a hover.
    /// Why contact `id` is left out now (`palm`, `thumb`, `hover`), or nil for a finger.
    func leftOutReason(_ id: Int) -> String? {
        if palms.contains(where: { $0.id == id }) { return "palm" }
        if thumbs.contains(where: { $0.id == id }) { return "thumb" }
        if hovering.contains(where: { $0.id == id }) { return "hover" }
        return nil
    }

    private func isSetAside(_ id: Int) -> Bool {
        palms.contains { $0.id == id } || thumbs.contains { $0.id == id } || hovering.contains { $0.id == id }
    }

    /// Whether `contact`, landing in this frame, lands beside a scroll: two or more fingers down
    /// that landed ``TouchPolicy/restingFingerTime`` or more before it, one of them at least
    /// moving in this frame (a palm or thumb touching the pad's edge during a two-finger scroll,
    /// whose fingers may be one resting and one moving). It is left out, as a
    /// resting finger is, until it moves ``GestureDefaults/thumbEscapeDistance``: what does not
    /// move with the group is not one of its fingers. A finger that lands to join the stroke
    /// moves with it, and counts from then.
    private func landsBesideAScroll(_ contact: TouchContact, in frame: TouchFrame) -> Bool {
        guard let wait = policy.restingFingerTime else { return false }
        var down = 0
        var moving = false
        for other in frame.contacts where other.id != contact.id && !other.phase.isFinal {
            guard let landing = landings.first(where: { $0.id == other.id }), landing.time + wait <= frame.time,
                  !isSetAside(other.id) else { continue }
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
    private func restingLanding(of contact: TouchContact, in frame: TouchFrame) -> (at: Point, time: Instant)? {
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
        return moving >= 2 ? (mine.at, mine.time) : nil
    }

    /// Notes a contact lifting at `position`: a touch landing there may be it bouncing, for
    /// ``TouchPolicy/bounceTime`` — or ``TouchPolicy/bounceReports`` of the device's report
    /// intervals, or, when it `vanished` pressing as hard as ever,
    /// ``TouchPolicy/vanishedBounceTime``, whichever is longer.
    private func noteLift(at position: Point, time: Instant, vanished: Bool) {
        guard let bounce = policy.bounceTime else { return }
        var window = bounce
        if let interval = reportIntervals.typical { window = max(window, interval * policy.bounceReports) }
        if vanished, let vanishedTime = policy.vanishedBounceTime { window = max(window, vanishedTime) }
        lifts.append((time + window, position))
    }

    /// Whether a contact that lifted at `time` pressing as hard as ever (``track(_:)``) vanished, on a
    /// device that reports often enough to see a finger ease off
    /// (``TouchPolicy/vanishedTapReportInterval``): with two reports or more, its last shows it;
    /// with one, only when it was gone by the next (seen in one scan,
    /// ``GestureDefaults/singleScanIntervals``) — one that stayed still sent nothing more to
    /// show how it lifted.
    private func tellsVanishing(_ contact: ContactReports, liftedAt time: Instant) -> Bool {
        guard pressureChanges, let longest = policy.vanishedTapReportInterval, let interval = reportIntervals.typical,
              interval <= longest else { return false }
        return contact.reports >= 2 || time - contact.landed <= interval * GestureDefaults.singleScanIntervals
    }

    /// Notes what the fingers of `frame` (as ``fingersOnly(_:)`` left it, at its final time)
    /// report: the device's report interval, each contact's pressure and reports, where contacts
    /// lift — a touch landing there soon may be one bouncing (``lifts``) — and whether each
    /// vanished (``liftsVanishing``). Contacts this frame ends or cancels while they are still
    /// down lift nowhere.
    func track(_ frame: TouchFrame) {
        if !liftsVanishing.isEmpty { liftsVanishing.removeAll(keepingCapacity: true) }
        if policy.bounceTime != nil || policy.vanishedTapReportInterval != nil { reportIntervals.record(frame.time) }
        if policy.bounceTime != nil, !lifts.isEmpty { lifts.removeAll { frame.time >= $0.until } }
        for (n, contact) in frame.contacts.enumerated() {
            // Contacts come in the same order frame after frame: look where this one was first.
            let hinted = n < contacts.count && contacts[n].id == contact.id
            if let i = hinted ? n : contacts.firstIndex(where: { $0.id == contact.id }) {
                if let pressure = contact.pressure {
                    if pressure > contacts[i].peak {
                        contacts[i].peak = pressure
                    }
                    if !pressureChanges, pressure != contacts[i].landedPressure, !contact.phase.isFinal { pressureChanges = true }
                }
                if contact.phase.isFinal {
                    // A finger eases off over its last reports; a contact the sensor lost
                    // vanishes pressing as hard as ever.
                    let reports = contacts.remove(at: i)
                    if !leftOut.contains(contact.id) {
                        let vanished = reports.peak > 0
                            && Double(contact.pressure ?? 0) >= Double(reports.peak) * GestureDefaults.vanishedPressureShare
                        noteLift(at: Point(x: contact.x, y: contact.y), time: frame.time, vanished: vanished)
                        liftsVanishing.append((contact.id, vanished && tellsVanishing(reports, liftedAt: frame.time)))
                    }
                } else if contact.phase == .moved {
                    contacts[i].reports += 1
                }
            } else if !contact.phase.isFinal {
                // A contact not seen before: it began, or was down before we listened.
                contacts.append(ContactReports(id: contact.id, peak: contact.pressure ?? 0, reports: 1, landed: frame.time,
                                               landedPressure: contact.pressure ?? 0))
            }
        }
    }

    /// Forgets every contact (after they were cancelled). The device's report interval, and
    /// whether its pressure changes, are kept: they are the device's, not the touches'.
    func removeAll() {
        contacts.removeAll()
        palms.removeAll()
        liftedPalms.removeAll()
        lifts.removeAll()
        thumbs.removeAll()
        hovering.removeAll()
        pressureSeen = false
        landings.removeAll()
    }
}
