import TouchEvents

/// What a finger down has reported: how hard it pressed at most and as it landed, how many
/// reports of its own, when it landed, and whether its last report pressed differently from the
/// one before — what tells whether it vanished as it lifted.
struct ContactReports {
    var id: Int
    var peak: Int32
    var reports: Int
    var landed: Instant
    var landedPressure: Int32
    /// The pressure of its last report, and whether that report pressed differently from the
    /// one before: harder, a press still building up as it lifts (a quick tap); softer, a finger
    /// easing off — either way not a press that had settled.
    var pressure: Int32
    var changing = false

    /// What a contact landing with `contact`'s values at `time` has reported so far.
    init(landing contact: TouchContact, at time: Instant) {
        self.init(id: contact.id, peak: contact.pressure ?? 0, reports: 1, landed: time, landedPressure: contact.pressure ?? 0,
                  pressure: contact.pressure ?? 0)
    }

    init(id: Int, peak: Int32, reports: Int, landed: Instant, landedPressure: Int32, pressure: Int32) {
        self.id = id
        self.peak = peak
        self.reports = reports
        self.landed = landed
        self.landedPressure = landedPressure
        self.pressure = pressure
    }

    /// Takes in a report of the contact still down (`moved`: one of its own, not a frame where
    /// only others changed); true when it presses differently from how it landed.
    mutating func note(pressure new: Int32?, moved: Bool) -> Bool {
        guard let new else { return false }
        if new > peak { peak = new }
        // Each report of its own says whether the press had settled.
        if moved {
            changing = new != pressure
            pressure = new
        }
        return new != landedPressure
    }
}

extension ContactFilter {
    /// Notes a contact lifting at `position`: a touch landing there may be it bouncing, for
    /// ``TouchPolicy/bounceTime`` — or ``TouchPolicy/bounceReports`` of the device's report
    /// intervals, or, when it `vanished` pressing as hard as ever,
    /// ``TouchPolicy/vanishedBounceTime``, whichever is longer.
    func noteLift(at position: Point, time: Instant, vanished: Bool) {
        guard policy.bounceTime != nil else { return }
        var window = bounceWindow
        if vanished, let vanishedTime = policy.vanishedBounceTime { window = max(window, vanishedTime) }
        lifts.append((time + window, position))
    }

    /// How long after a contact left a place a touch landing there is that contact:
    /// ``TouchPolicy/bounceTime``, or ``TouchPolicy/bounceReports`` of the device's report
    /// intervals where that is longer (none without a bounce time).
    var bounceWindow: Duration {
        guard let bounce = policy.bounceTime else { return .zero }
        guard let interval = reportIntervals.typical else { return bounce }
        return max(bounce, interval * policy.bounceReports)
    }

    /// Whether a contact that lifted at `time` pressing as hard as ever (``track(_:)``) vanished, on a
    /// device that reports often enough to see a finger ease off
    /// (``TouchPolicy/vanishedTapReportInterval``): with two reports or more, its last shows it;
    /// with one, only when it was gone by the next (seen in one scan,
    /// ``GestureDefaults/singleScanIntervals``) — one that stayed still sent nothing more to
    /// show how it lifted.
    private func tellsVanishing(_ contact: ContactReports, liftedAt time: Instant) -> Bool {
        guard policy.pressureTellsPalms, pressureChanges, let longest = policy.vanishedTapReportInterval, let interval = reportIntervals.typical,
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
            if let i = reports.firstIndex(hint: n, where: { $0.id == contact.id }) {
                if reports[i].note(pressure: contact.pressure, moved: contact.phase == .moved), !pressureChanges, !contact.phase.isFinal {
                    pressureChanges = true
                }
                if contact.phase.isFinal {
                    // A finger eases off over its last reports; a contact the sensor lost
                    // vanishes pressing as hard as ever — its press settled, neither still
                    // building up as a quick tap's is when it lifts nor easing off.
                    let lifted = reports.remove(at: i)
                    if !leftOut.contains(contact.id) {
                        let vanished = lifted.peak > 0 && !lifted.changing
                            && Double(contact.pressure ?? 0) >= Double(lifted.peak) * GestureDefaults.vanishedPressureShare
                        noteLift(at: Point(x: contact.x, y: contact.y), time: frame.time, vanished: vanished)
                        liftsVanishing.append((contact.id, vanished && tellsVanishing(lifted, liftedAt: frame.time)))
                    }
                } else if contact.phase == .moved {
                    reports[i].reports += 1
                }
            } else if !contact.phase.isFinal {
                // A contact not seen before: it began, or was down before we listened. Kept
                // where it is in the frame (not appended): the next frame finds it at its hint,
                // not by a search (a contact in a lower slot than one still down landed last).
                reports.insert(ContactReports(landing: contact, at: frame.time), at: min(n, reports.count))
            }
        }
    }
}
