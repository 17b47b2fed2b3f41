import TouchEvents

/// What the contact filter (`ContactFilter`) found in a frame beside its fingers (handed on
/// apart from this): what the trackers must know of the contacts that landed after resting and
/// of those that lifted — one value, handed to every touch sequence's tracker
/// (`TouchTracker.update`).
///
/// Valid for the frame the filter last took in: what it says of lifts and landings is read from
/// the filter's own buffers when asked, and the next frame reuses them.
struct FilteredFrame {
    /// The filter, read in place: copying its three buffers into this value cost a reference
    /// count each way per frame (+0.14% of the instruction guard); the pipeline owns the filter.
    unowned(unsafe) let filter: ContactFilter
    /// Where contacts lifted, in any sequence, and until when a touch landing there is one of
    /// them bouncing (``TouchPolicy/bounceTime``), this frame's lifts included: every sequence's
    /// tracker tells a touch bouncing by them, so a bounce is one whichever sequence it lands
    /// in, even when the one it lifted from has ended.
    var recentLifts: [(until: Instant, at: Point)] { filter.lifts }
    /// The contacts landing in this frame after resting (a thumb leaving its rest, a finger
    /// pointing away from the palm it landed by), with where they had landed: their motion
    /// since, for a transform's every-finger check, counts from there.
    var restedLandings: [(id: Int, at: Point)] { filter.restedLandings }
    /// The contacts that lifted in this frame, and whether each vanished pressing as hard as
    /// ever on a device that reports often enough to see a finger ease off
    /// (``TouchPolicy/vanishedTapReportInterval``). One the filter ends or cancels while it is
    /// down (a palm found, a resting finger left out) is not among them.
    var lifts: [(contact: Int, vanished: Bool)] { filter.liftsVanishing }
}
