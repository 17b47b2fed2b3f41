import TouchEvents

/// How a kind of device is read. A touchpad is not a small touchscreen: it is pressed to click,
/// fingers rest on it between strokes, and its gestures drive a pointer and scrolling, as libinput
/// has them; a touchscreen is touched where things are, as UIKit has it.
///
/// A device session picks the policy by device kind (``touchpad`` or ``touchscreen``); a layout
/// can be given another.
public struct TouchPolicy: Sendable, Hashable {
    /// A physical button press (a clickpad's click) fails every recognizer of the touch sequence
    /// that has not decided yet: a click is a click, not a tap or a long press.
    public var buttonPressEndsRecognition: Bool
    /// A pinch or rotation begins only when every finger moves: the one that moved least has
    /// gone at least ``GestureDefaults/transformLeastFingerShare`` of the way the one that moved
    /// most has. On a touchpad a finger often rests while another scrolls; turning one finger
    /// about a resting one is a scroll there, not a rotation.
    public var transformsMoveEveryFinger = false
    /// The finger count is the gesture: a pan ends when a finger lands, and a pan of the new
    /// count may begin after the settle time, its translation from then (libinput: pointer
    /// motion, then a scroll with deltas of its own). A lift does not end it: at the end of
    /// every stroke the fingers lift one by one.
    public var fingerCountEndsPan = false
    /// On an owned device, a touch sequence is owned as soon as its fingers reach a count of
    /// at least this many that a recognizer owning its touches takes
    /// (``GestureRecognizer/fingerCounts``) — before it begins. A touchpad's: 3 (libinput
    /// begins its own swipe with three fingers, and ends one that turns palm mid-way with a
    /// plain `GESTURE_SWIPE_END`, which a desktop may complete; one or two fingers are the
    /// pointer and scrolling, owned only once a gesture begins). Nil (touchscreens): owned when
    /// a gesture begins or is recognized.
    public var ownsAtFingerCount: Int?
    /// A long press is libinput's hold: it begins once the fingers have rested for its
    /// duration, without taking the sequence from the others; fingers that then move (or
    /// another that lands) end it `cancelled`, and a pan or swipe that begins takes over from
    /// it. A user who binds a three-finger hold gets it while holding; a slow drag after a rest
    /// is still the drag's pan. False: UIKit's, whose long press, once begun, owns the touches
    /// and reports their moves.
    public var longPressYieldsToMotion: Bool
    /// How long after a finger lands a pan may not begin, so that fingers landing a little
    /// apart start one pan of all of them rather than a pan of the first (on a touchpad the
    /// finger count is the gesture: one moves the pointer, two scroll, three swipe). Zero: at
    /// once.
    /// (`$fingerSettleTime.microseconds` is compared on every frame of a pan that has not begun.)
    @WithMicroseconds public var fingerSettleTime: Duration
    /// A contact pressing harder than this share of the device's pressure range is a palm, as is
    /// a contact landing within ``GestureDefaults/palmFragmentDistance`` of a palm: a palm is
    /// cancelled in what it took part in and left out of every frame after, so fingers beside it
    /// go on (nil: pressure says nothing).
    public var palmPressureShare: Double?
    /// The device reports two fingers as the corners of their bounding box (semi-multitouch,
    /// `INPUT_PROP_SEMI_MT`), not as fingers: while two are down only the box's centre moves
    /// them, and the corners' jump when a finger lands or lifts is no motion. Set from the device
    /// by the device session.
    public var boundingBoxContacts = false
    /// The share of the pad's height, at the bottom, where a finger landing is a resting thumb
    /// (nil: no thumb area). The touchpad's is 0.12: the resting first finger of a two-finger
    /// scroll lands as low as 85% of the height in fixtures/chromiumos (measured 2026-11-24:
    /// 373 of 401 right at 0.08, 0.10 and 0.12, 372 at 0.15; the scripted variants, whose thumbs
    /// rest 6 mm up, 56 of 88 at 0.08, 88 at 0.10 and 0.12, 85 at 0.15). It is left out while
    /// it rests there; moved out of it, or quickly while a finger is down beside it, it counts as a
    /// finger from then on; pressing like a palm, it is a palm.
    public var thumbAreaShare: Double?
    /// A contact pressing harder than this (`ABS_MT_PRESSURE` units) as it lands in the thumb
    /// area is a thumb; one pressing less is a finger, except in the lowest
    /// ``GestureDefaults/thumbExclusionShare`` of the pad, where resting there is enough (nil:
    /// pressure tells no thumb, and the whole area rests). Only from the device's quirks
    /// (libinput's `AttrThumbPressureThreshold`): where the hardware can tell a thumb, libinput
    /// holds back only the contacts it says are thumbs between its two thumb lines. Set by the
    /// device session.
    public var thumbPressure: Int32?
    /// A contact landing in the thumb area whose touch major is larger than this while its
    /// touch minor is less than 0.6 of it (a thumb lies flat: long and narrow) is a thumb, as
    /// one pressing more than ``thumbPressure`` is (nil: size tells no thumb). Only from the
    /// device's quirks (libinput's `AttrThumbSizeThreshold`, and its 0.6). Set by the device
    /// session.
    public var thumbSize: Int32?
    /// Where a contact's touch size makes it touch (libinput's `AttrTouchSizeRange`, in the
    /// device's `ABS_MT_TOUCH_MAJOR` units): below it a contact hovers, as one pressing no more
    /// than ``hoverPressure`` does (nil: size says nothing). Set by the device session.
    public var touchSizeRange: TouchSizeRange?
    /// A contact moving faster than this, in millimetres per millisecond, over one frame has
    /// jumped, and the jump is no motion (nil: every move counts). The touchpad's is 1 mm/ms
    /// (1 m/s): the fastest finger in fixtures/chromiumos moves 0.6 mm/ms over a frame (a link
    /// finger pointing beside a palm), while its contacts that jump — a contact whose y the
    /// firmware sent 11 ms after its x, tracking swapped between fingers — go 1.06 mm/ms and
    /// more.
    public var jumpSpeed: Double?
    /// A contact landing within ``GestureDefaults/bounceDistance`` of where one lifted less than
    /// this before is the same touch bouncing, not a new one (nil: never): the lift was no
    /// tap's — a tap waiting for more taps, or held back for one of more taps, fails — and the
    /// press it starts taps nothing. The touchpad's is 50 ms: a link palm flickers,
    /// lifting and landing in place 11 to 100 ms later, while no finger of the labelled taps of
    /// fixtures/chromiumos taps again within 225 ms of lifting — but a drumroll's finger lands
    /// again in place 61 ms after lifting. At 100 ms the palm recordings make 7 fewer false
    /// gestures and no recording is more right, while drumroll taps and a tap-and-drag's tap are
    /// lost. On a device that reports slowly the time is longer: ``bounceReports``.
    public var bounceTime: Duration?
    /// How many of the device's report intervals (the usual one: the median of its last 15) a
    /// bounce may take, where that is longer than ``bounceTime``: 2.5, a contact the sensor missed
    /// in two reports — lifted in one, absent from the next, back in the third — with half an
    /// interval for jitter. alex reports every 12 to 29 ms (the median interval of each of its
    /// recordings in fixtures/chromiumos), so its window is up to 72 ms: in
    /// `palm_presence.static.both` (29 ms) its resting palms vanish for a report and come back
    /// 57 ms after their lift — a double tap without this — while its fastest finger to land
    /// again in place (the second tap of a tap-and-drag) comes 87 ms after its lift. The link's
    /// pads report every 5 to 18 ms: 50 ms stays the longer. 2.2, 2.5 and 3 give the same
    /// results on link and alex (2026-11-24).
    public var bounceReports = 2.5
    /// How long a contact that vanished — lifted pressing as hard as it ever had, its last
    /// report at ``GestureDefaults/vanishedPressureShare`` of its hardest or more — may take to
    /// come back in place and be it bouncing, where that is longer than the other windows (nil:
    /// no longer than they). A finger eases off over its last reports as it lifts; a contact the
    /// sensor lost vanishes pressing as hard as ever. Of the lifts in fixtures/chromiumos
    /// followed by a landing within 5 mm and 300 ms, 3 of 256 by fingers that tapped again
    /// (taps, multi-taps, drumrolls, tap-and-drags) vanished, and 90 of 122 by palms. The
    /// touchpad's is 75 ms: the Cypress link palms come back 50 to 56 ms after vanishing and
    /// make taps beside a pointing finger (`palm_pointing`), while alex's second tap of a
    /// tap-and-drag lands again 87 ms after a finger that vanished (alex reports every 29 ms,
    /// too slowly to see a finger ease off). 60, 75, 90 and 150 ms give the same results on link
    /// and alex (2026-11-24); from 90 ms that tap-and-drag's tap is lost.
    public var vanishedBounceTime: Duration?
    /// On a device that reports this often or more (its usual report interval, the median of its
    /// last 15, is this or shorter), a press whose every contact vanished — lifted with its last
    /// report pressing as hard as it ever had (``GestureDefaults/vanishedPressureShare``) — taps
    /// nothing: no finger lifted, the sensor lost what it saw (a palm flickering). A contact
    /// reported once vanished only if it was gone by the next report
    /// (``GestureDefaults/singleScanIntervals``). nil: never. The touchpad's is 20 ms: on the
    /// link pads, which report every 5 to 18 ms, a tapping finger eases off over 17 ms or more
    /// before it lifts, and none of the 323 fingers of the labelled taps in fixtures/chromiumos
    /// vanished; alex, reporting every 24 to 29 ms in its right-click recordings, misses the
    /// easing in 6 of its 62 tap fingers. On link and alex the palm recordings make 37 false
    /// gestures without it and 15 with it (16 at 15 ms, which leaves out the slower Cypress link
    /// recordings), and no tap of the 483 recordings is lost, drumrolls and tap-and-drags
    /// included (2026-11-24). Only once the device has reported a contact pressing differently
    /// while down from how it landed (learned per device session): firmware that reports a
    /// contact's pressure once shows no finger easing off (a Cypress PS/2 pad's fast
    /// three-finger tap at constant pressure is a tap). A contact whose last report pressed
    /// harder than the one before did not vanish: a quick tap lifts while its press still
    /// builds up. Never where the device's pressure tells no palm (``pressureTellsPalms``).
    public var vanishedTapReportInterval: Duration?
    /// Whether a contact's pressure says anything about palms on this device (true unless the
    /// device says otherwise). False for a pad that measures force (an axis with a resolution,
    /// libinput's `ModelPressurePad`), and where libinput's quirks turn palms by pressure off
    /// (`AttrPalmPressureThreshold` at the top of the axis: 254 of a Cypress PS/2 pad's
    /// 0–255): no contact is a palm by pressure, and none ``vanishedTapReportInterval``
    /// "vanished", since a lift at full pressure is then no sign of a sensor losing a palm.
    /// Set by the device session.
    public var pressureTellsPalms = true
    /// How long before two or more other fingers a finger must have landed to be a resting one
    /// when it stays still while they move: it is then left out, as a resting thumb is, until it
    /// moves (nil: never). On a touchpad a thumb or finger often rests while two others scroll;
    /// counted, it would make the scroll a three-finger swipe. The touchpad's is 300 ms: twice
    /// the widest gap between fingers landing for one stroke (150 ms), while the thumbs of the
    /// corpus's thumb scrolls rested 360 ms to 1 s before the fingers came (150 and 300 ms gave
    /// the same results, 500 ms lost one).
    public var restingFingerTime: Duration?
    /// Where the thumb area begins: millimetres from the top (y), set from the surface by
    /// ``resolved(pressureRange:surfaceHeight:sizeAssumed:)``; nil: none.
    public private(set) var thumbLine: Double?
    /// Where the lowest ``GestureDefaults/thumbExclusionShare`` of the pad begins, in
    /// millimetres from the top (y): there a contact rests as a thumb whatever its pressure and
    /// size say (``thumbPressure``); nil: no thumb area. Set with ``thumbLine``.
    public private(set) var thumbExclusionLine: Double?
    /// A contact touching with a larger area than this, in the device's `ABS_MT_TOUCH_MAJOR`
    /// units (either axis of its touch: major or minor), is a palm, as one pressing more than ``palmPressure`` is (nil: size says
    /// nothing). Only from the device's quirks (libinput's `AttrPalmSizeThreshold`): a touch
    /// major's units and scale differ from device to device, and libinput judges palms by size
    /// only where its quirks give the threshold. Set by the device session.
    public var palmSize: Int32?
    /// ``palmPressureShare`` in the device's pressure units (`ABS_MT_PRESSURE`), set for a
    /// device that reports pressure by ``resolved(pressureRange:surfaceHeight:sizeAssumed:)``; nil: no palm by pressure.
    public var palmPressure: Int32?
    /// A contact that lands pressing no more than this share of the device's pressure range
    /// hovers: it is left out until it presses harder, and then lands — as a touch that was
    /// there all along (it taps and holds nothing) when it hovered longer than
    /// ``GestureDefaults/landingSettleTime`` — and a piece of a palm that hovers points nothing
    /// (nil: pressure says nothing). A contact that landed pressing stays a finger when its
    /// pressure falls. Nothing hovers until some contact has pressed more than this: a device
    /// may declare pressure and never send it. The touchpad's is 0, no pressure at all: in
    /// fixtures/chromiumos the 99 contacts that report pressure 0 all the time they are down
    /// are all pieces of palms (in 12 link palm recordings; none in the 389 others), and alex's
    /// second contact beside a moving palm reports 0 until the palm lifts, then presses like a
    /// palm; the 21 contacts of other recordings that land at 0 press a frame or a few later.
    /// 373 right at 0 and at 5%; at 12% (libinput's, which keeps a touch down to 10%) 366:
    /// second fingers of scrolls and taps that press lightly are lost.
    public var hoverPressureShare: Double?
    /// Where a contact landed is where its first report after landing puts it, when that comes
    /// within ``GestureDefaults/landingSettleTime``: a tap's and a long press's movement, and
    /// the every-finger-moves check of a transform, count from there (the motion reported is
    /// the contact's own, first report included). A touchpad reports the point of a contact
    /// area that grows as the finger presses; a touchscreen's first report after landing is
    /// motion, as UIKit has it.
    public var settlesLandings = false
    /// A contact pressing less than this share of its own peak pressure is lifting: what its
    /// point does meanwhile is no movement of a tap's or a long press's (its press slides as
    /// the finger rolls off: alex `click-any_angle_click.tap`'s ninth tap presses 88, then 83,
    /// 73 and 38 of 255 as it slides 3.4 mm, 1.1 mm of it at 38). nil: every report counts. Only
    /// on a device reporting pressure per contact (on one that does not, `BTN_TOUCH` decides:
    /// the decoder ends a touch when it goes up).
    public var liftingPressureShare: Double?

    /// Whether a contact pressing `pressure` after pressing `peak` at most is lifting
    /// (``liftingPressureShare``): the one rule the touch tracker and the contact filter's
    /// thumbs both read.
    @inline(__always)
    func isLifting(pressure: Int32, peak: Int32) -> Bool {
        guard let share = liftingPressureShare else { return false }
        return Double(pressure) < Double(peak) * share
    }
    /// On a touchpad that reports the whole touch's pressure and width but no pressure per
    /// contact (`TouchFrame.wholeTouch`): a contact alone whose whole touch presses at least
    /// this and is at least this wide is a palm (issue 65, item 2: a palm in a corner of a
    /// two-slot Synaptics pad presses 72-83% and is 10-15 of 16 wide, its fingers' taps 27-42%).
    /// Set by ``resolved(pressureRange:surfaceHeight:sizeAssumed:)``'s caller from the device's
    /// axes (``GestureDefaults/wholeTouchPalmPressureShare``, ``GestureDefaults/wholeTouchPalmWidthShare``);
    /// nil: none by the whole touch.
    public var wholeTouchPalm: WholeTouch?
    /// How far the fingers must move before a pan begins, in millimetres, where the layout's pan
    /// does not say (`min-distance`): a touchscreen's is
    /// ``GestureDefaults/panMinimumDistance`` (3 mm), a touchpad's
    /// ``GestureDefaults/touchpadPanMinimumDistance`` (6 mm): it is pressed to click and rested
    /// on, and a press creeps.
    public var panMinimumDistance = GestureDefaults.panMinimumDistance
    /// ``hoverPressureShare`` in the device's pressure units, set for a device that reports
    /// pressure by ``resolved(pressureRange:surfaceHeight:sizeAssumed:)``; nil: no hovering by pressure.
    public var hoverPressure: Int32?
    /// How many times its own limit a press may move (a tap's slop and the distance between
    /// its taps, a long press's drift): 1, or on a surface whose size is only assumed
    /// 1 / (1 − ``GestureDefaults/assumedSizeError``), so that a pad up to 30% smaller than
    /// assumed still taps. Set by ``resolved(pressureRange:surfaceHeight:sizeAssumed:)``.
    public private(set) var movementAllowance = 1.0

    public init(buttonPressEndsRecognition: Bool, longPressYieldsToMotion: Bool, fingerSettleTime: Duration = .zero,
                palmPressureShare: Double? = nil, thumbAreaShare: Double? = nil) {
        self.thumbAreaShare = thumbAreaShare
        self.buttonPressEndsRecognition = buttonPressEndsRecognition
        self.longPressYieldsToMotion = longPressYieldsToMotion
        self.fingerSettleTime = fingerSettleTime
        self.palmPressureShare = palmPressureShare
    }

    /// The policy for a device whose contacts report pressure in `pressureRange` (nil: none) on a
    /// surface `surfaceHeight` mm tall (nil: unknown), whose size is only assumed when
    /// `sizeAssumed` (``movementAllowance``).
    public func resolved(pressureRange: ClosedRange<Int32>?, surfaceHeight: Double? = nil, sizeAssumed: Bool = false) -> TouchPolicy {
        var policy = self
        policy.movementAllowance = sizeAssumed ? 1 / (1 - GestureDefaults.assumedSizeError) : 1
        if let share = thumbAreaShare, let height = surfaceHeight, height > 0 {
            policy.thumbLine = height * (1 - share)
            policy.thumbExclusionLine = height * (1 - min(share, GestureDefaults.thumbExclusionShare))
        }
        if let share = palmPressureShare, let range = pressureRange, range.upperBound > range.lowerBound {
            policy.palmPressure = range.lowerBound + Int32((Double(range.upperBound - range.lowerBound) * share).rounded(.up))
        }
        if let share = hoverPressureShare, let range = pressureRange, range.upperBound > range.lowerBound {
            policy.hoverPressure = range.lowerBound + Int32((Double(range.upperBound - range.lowerBound) * share).rounded(.down))
        }
        return policy
    }

    /// UIKit's conventions: a long press begins while the finger is still down; a pan begins as
    /// soon as the fingers moved (fingers that join later join it).
    public static let touchscreen = TouchPolicy(buttonPressEndsRecognition: false, longPressYieldsToMotion: false)
    /// libinput's conventions: clicks are not gestures, a hold yields to motion, a pan waits
    /// 100 ms after a finger lands (libinput's finger-count switch timeout) to know how many
    /// fingers it has, a contact pressing harder than half the pressure range is a palm
    /// (no finger of the link and alex touchpads in fixtures/chromiumos presses more than 47%;
    /// half of their palms do), pinch and rotate need every finger moving, a finger resting
    /// 300 ms before two others that move is left out, a contact faster than 1 m/s jumped, a
    /// contact that vanished taps nothing, a contact landing with no pressure hovers, a
    /// contact's first report settles where it landed, a contact pressing less than half its
    /// peak is lifting (its slide is no tap's movement), and a pan ends when a finger lands.
    public static let touchpad: TouchPolicy = {
        var policy = TouchPolicy(buttonPressEndsRecognition: true, longPressYieldsToMotion: true,
                                 fingerSettleTime: .milliseconds(100), palmPressureShare: 0.5, thumbAreaShare: 0.12)
        policy.transformsMoveEveryFinger = true
        policy.restingFingerTime = .milliseconds(300)
        policy.jumpSpeed = 1
        policy.fingerCountEndsPan = true
        policy.ownsAtFingerCount = 3
        policy.bounceTime = .milliseconds(50)
        policy.vanishedBounceTime = .milliseconds(75)
        policy.vanishedTapReportInterval = .milliseconds(20)
        policy.hoverPressureShare = 0
        policy.settlesLandings = true
        policy.liftingPressureShare = GestureDefaults.liftingPressureShare
        policy.panMinimumDistance = GestureDefaults.touchpadPanMinimumDistance
        return policy
    }()
}

/// libinput's `AttrTouchSizeRange=HIGH:LOW`, in a device's `ABS_MT_TOUCH_MAJOR` units: a contact
/// touches once its touch major passes `begin` with its minor past `end`, or the other way
/// round (a contact reporting no minor is as wide as it is long).
public struct TouchSizeRange: Sendable, Hashable {
    /// HIGH: a touch begins above it.
    public var begin: Int32
    /// LOW: the other axis must pass it.
    public var end: Int32

    public init(begin: Int32, end: Int32) {
        self.begin = begin
        self.end = end
    }

    /// Whether a contact of touch `major` and `minor` touches (libinput's `tp_unhover_size`);
    /// one that reports no size does.
    public func touches(major: Int32?, minor: Int32?) -> Bool {
        guard let major else { return true }
        let minor = minor ?? major
        return major > begin && minor > end || major > end && minor > begin
    }
}
