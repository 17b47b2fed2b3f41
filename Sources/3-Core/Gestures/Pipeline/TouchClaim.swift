/// What the pipeline tells a runtime that owns the device about one touch (``GesturePipeline/onTouchClaim``):
/// its `slot` (as `TouchContact.slot` has it, the device's multitouch slot) and its `contact` id.
///
/// A runtime that owns the device takes an owned touch from the apps; it withholds an
/// undecided lift (the apps still see the touch down) until the touch is owned or settled, and
/// holds a new touch back (`hold-back`) no longer than until it is owned or settled.
public enum TouchClaim: Equatable, Sendable {
    /// The pipeline sees the touch for the first time (as it lands, or as it is first routed):
    /// from now on `contact` names it, whatever later touches use its slot.
    case landed(slot: Int, contact: Int)
    /// A recognizer that owns its touches (``GestureRecognizer/ownsTouches``) began or was
    /// recognized in the touch's sequence, or the touch joined such a sequence: the touch is
    /// the gesture's (a lifted touch whose lift was undecided too). Told once per touch.
    case owned(slot: Int, contact: Int)
    /// The touch lifted while a recognizer of its sequence that owns its touches may still
    /// take it: a double tap after its first tap, a two-finger tap after its first finger
    /// lifted, a tap waiting for a double tap to fail. `owned` or `settled` follows.
    case liftUndecided(slot: Int, contact: Int)
    /// No recognizer that owns its touches will take the touch (none is in its region's path,
    /// or each has failed): a touch held back from the apps may go to them now, and an
    /// undecided lift too. Told once per touch, down or lifted; a touch landing in a sequence
    /// that cannot be owned is told in the frame it lands.
    case settled(slot: Int, contact: Int)
}
