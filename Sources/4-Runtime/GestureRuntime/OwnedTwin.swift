import Gestures
import TouchEvents
import TouchInput

/// An owned device's twin (the uinput device the compositor reads instead of it) and what it
/// gets of the device's frames (``TwinFilter``): kept by the runtime from the moment it grabs
/// the device until it lets it go — across a reload that keeps the device owned, so the
/// compositor sees no device come and go.
final class OwnedTwin {
    var filter: TwinFilter
    let output: any TwinOutput
    /// Touches were owned, or undecided lifts settled, since the twin was last written to (a
    /// gesture recognized, or one that failed, at a deadline, between frames).
    var claimedSinceWrite = false
    /// How its owned touches are to end (`TouchOwnership.ending`); `automatic` is resolved
    /// into ``TwinFilter/ending`` from the running compositor, looked at again once
    /// ``compositorLookedAt`` is older than ``GestureRuntime/compositorRecheck``.
    var ending = OwnedTouchEnding.automatic
    var compositorLookedAt: Instant?

    init(filter: TwinFilter, output: any TwinOutput) {
        self.filter = filter
        self.output = output
    }
}
