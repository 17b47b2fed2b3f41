import TouchEvents

/// Whether a contact's report is the one it settles at: its own first report after landing
/// (one where it moved; a frame where only another contact moved is none), when that comes
/// within ``GestureDefaults/landingSettleTime``. As a finger presses, its contact area grows
/// and the pad moves the point it reports: where the contact landed is where it settled. The
/// tracker moves a contact's start there (``TouchPolicy/settlesLandings``); the contact filter measures
/// a resting thumb's escape from there.
struct LandingSettle {
    /// Until when its first report may be it settling; nil once decided, or for a contact that
    /// does not settle.
    private var by: Instant?

    /// A contact that landed at `time` (nil: one that does not settle, down before it counted).
    init(landedAt time: Instant?) {
        by = time.map { $0 + GestureDefaults.landingSettleTime }
    }

    static let none = LandingSettle(landedAt: nil)

    /// Takes in a report of the contact: true when it is the one it settles at. Decided once,
    /// at its first moved report or when the time has passed.
    mutating func settles(_ phase: TouchPhase, at time: Instant) -> Bool {
        guard let by, phase == .moved || time > by else { return false }
        self.by = nil
        return time <= by
    }
}
