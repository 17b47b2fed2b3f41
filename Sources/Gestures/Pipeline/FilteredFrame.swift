import TouchEvents

/// A frame as the contact filter (`ContactFilter`) leaves it: its fingers, and what the
/// trackers must know of the contacts that landed after resting and of those that lifted — one
/// value, handed to every touch sequence's tracker (`TouchTracker.update`).
///
/// Its arrays are the filter's own buffers, shared: holding it past the frame would make the
/// filter copy them on the next.
struct FilteredFrame {
    /// The frame with its fingers only: palms, thumbs, resting fingers and hovers left out (a
    /// finger found to be one is cancelled or lifted in it). Never stamped before the latest
    /// time the pipeline has seen.
    var fingers: TouchFrame
    /// Where contacts lifted, in any sequence, and until when a touch landing there is one of
    /// them bouncing (``TouchPolicy/bounceTime``), this frame's lifts included: every sequence's
    /// tracker tells a touch bouncing by them, so a bounce is one whichever sequence it lands
    /// in, even when the one it lifted from has ended.
    var recentLifts: [(until: Instant, at: Point)]
    /// The contacts landing in this frame after resting (a thumb leaving its rest, a finger
    /// pointing away from the palm it landed by), with where they had landed: their motion
    /// since, for a transform's every-finger check, counts from there.
    var restedLandings: [(id: Int, at: Point)]
    /// The contacts that lifted in this frame, and whether each vanished pressing as hard as
    /// ever on a device that reports often enough to see a finger ease off
    /// (``TouchPolicy/vanishedTapReportInterval``). One the filter ends or cancels while it is
    /// down (a palm found, a resting finger left out) is not among them.
    var lifts: [(contact: Int, vanished: Bool)]
}
