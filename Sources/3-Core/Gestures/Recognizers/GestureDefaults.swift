/// Default thresholds. Distances are millimetres on the physical surface, so one
/// configuration behaves the same on a 7" panel and a 27" screen; times are `Duration`s.
public enum GestureDefaults {
    /// How far a finger may move and still tap: 3 mm. Flutter's kTouchSlop (18 logical
    /// pixels: 2.9 mm on a phone, where its logical pixel is the platform's — Android's dp is
    /// 1/160 inch; Flutter's documentation, which puts about 38 in a centimetre, would make it
    /// 4.7 mm) for touchscreens, where a fingertip rolls more than on a touchpad (libinput uses
    /// 1.3 mm there, which rejects real touchscreen taps).
    public static let tapMaximumMovement = 3.0

    /// How long a tap may be held: 500 ms, where a long press begins (UIKit's default
    /// minimumPressDuration), so a press is always one or the other.
    public static let tapMaximumPressDuration = Duration.milliseconds(500)

    /// The longest pause between the taps of a multi-tap: 300 ms (Flutter's kDoubleTapTimeout).
    public static let tapMaximumInterval = Duration.milliseconds(300)

    /// How far apart the taps of a multi-tap may land: 16 mm (Flutter's kDoubleTapSlop,
    /// 100 logical pixels at 160 dpi).
    public static let tapMaximumDistance = 16.0

    /// How long a long press must be held: 500 ms (UIKit's minimumPressDuration).
    public static let longPressMinimumDuration = Duration.milliseconds(500)

    /// How far the true size of a surface whose size is assumed (no resolution, none given,
    /// none in udev's hwdb) may be from the assumption and its presses still be read: 30%
    /// (libinput's assumed 69 x 50 mm against pads from about 50 to 130 mm wide). On such a
    /// surface what a press may move — a tap's slop and the distance between its taps, a long
    /// press's drift — is 1 / (1 − 0.3) = 1.43 times as much: a wobbly tap of 2.3 real mm on
    /// a pad 30% smaller than assumed reads 3.3 mm, and taps (``TouchPolicy/movementAllowance``).
    /// Distances a gesture must reach (a pan's, a swipe's) stay: 1.43 × 3 mm = 4.3 mm is
    /// still short of the touchpad's 6 mm pan slop.
    public static let assumedSizeError = 0.3

    /// How long after a press's first finger lands another may land and still be one of the
    /// same gesture's fingers: 150 ms, the widest gap between the fingers of one stroke
    /// (two-finger scrolls, pinches, taps of two or three) in fixtures/chromiumos, where they
    /// land 20 to 150 ms apart; the scripted `apart` variants land 20 to 150 ms late. A finger
    /// landing within it turns a one-finger pan that has begun into the gesture of more fingers
    /// (``TouchTracker/staggerDeadline``), as Flutter's scale recognizer carries one gesture
    /// across pointer changes.
    public static let staggerWindow = Duration.milliseconds(150)

    /// How far a long press may drift before it begins: 3 mm, the same as a tap, so that
    /// a press that is not a tap because it moved is not a long press either.
    public static let longPressAllowedMovement = 3.0

    /// How far the touches must move before a pan (or edge pan) begins on a touchscreen: 3 mm,
    /// the tap's slop (Flutter's kTouchSlop, 18 logical pixels). Below it a press can still be
    /// a tap.
    public static let panMinimumDistance = 3.0

    /// How far the touches must move before a pan begins on a touchpad
    /// (``TouchPolicy/panMinimumDistance``): 6 mm, twice the tap slop, as Flutter's kPanSlop is
    /// twice its kTouchSlop; between the two a press is neither a tap nor a pan. A touchpad is
    /// pressed to click and rested on, and the point it reports creeps while it is: of the 226
    /// physical clicks of fixtures/chromiumos, the finger had moved 0.3 mm at the median before
    /// the button went down, 1.4 mm at the 90th percentile and 4.2 mm at the most; resting palms
    /// and thumbs creep as far. Measured on link and alex (2026-11-24, after the link
    /// description correction): 372 of 401 right at 3 mm, 373 at 3.5, 374 at 4, 376 at 5, 377 at
    /// 6 — all on link (280 → 285); alex, the check board, 92 at each. A layout's pan can set
    /// its own (`min-distance`).
    public static let touchpadPanMinimumDistance = 6.0

    /// How far a swipe must travel: 10 mm, a deliberate stroke (three times a touchscreen's pan
    /// slop).
    public static let swipeMinimumDistance = 10.0

    /// How fast a swipe must be, along its direction: 100 mm/s. Flutter's kMinFlingVelocity
    /// (50 logical pixels/s, 8 mm/s) suits flings that scroll; a swipe that triggers an action
    /// should be clearly quick.
    public static let swipeMinimumVelocity = 100.0

    /// How long a swipe may take, from the moment all its fingers are down: 500 ms.
    public static let swipeMaximumDuration = Duration.milliseconds(500)

    /// How much further, as a share of its minimum distance, a swipe must go holding one
    /// direction before it is decided: 0.5 (5 mm of the 10). A stroke that drifts a finger's
    /// width one way as it lands and then flicks another (10 mm right, then 95 mm up) is judged
    /// on where it goes, not on its first centimetre; the link swipes, robot strokes straight
    /// from the start, are decided 5 mm later. A stroke that lifts before it has gone that far
    /// is judged at the lift, on the whole stroke.
    public static let swipeStableShare = 0.5

    /// How far (in degrees) a swipe may stray from its axis: 30°, leaving 30° between the
    /// cones of neighbouring directions.
    public static let swipeAngleTolerance = 30.0

    /// The most a swipe of eight directions (a diagonal among them) may stray from its axis:
    /// 15°. Neighbours are 45° apart; 15° either side leaves 15° between their cones, where
    /// the direction is not decisive.
    public static let swipeEightWayAngleTolerance = 15.0

    /// How much the fingers' spread (mean distance from their centroid) must change before
    /// a pinch begins: 5 mm, so that fingers dragged together do not read as a pinch.
    public static let pinchMinimumSpreadChange = 5.0

    /// How far the fingers must turn before a rotation begins: 8°, more than the wobble of
    /// fingers dragged side by side.
    public static let rotationMinimumAngle = 8.0

    /// How much a transform must dominate the fingers' common motion before a pinch or rotate
    /// begins: the spread change (pinch) or the arc the fingers travel around their centroid
    /// (rotate), in mm, times 1 must be at least the distance they moved together. Fingers
    /// scrolling side by side wobble — their spread and angle change by a few mm and degrees —
    /// while they move far together; a real pinch or turn moves them mostly apart or around.
    public static let transformDominance = 1.0

    /// How many times clearer a transform must dominate once a pan has begun in the press (a
    /// map that pans and pinches at once, or a touchpad's pan that a landing ended): 2 — the
    /// spread change or arc must be at least twice the distance the fingers moved together. A
    /// translation under way wobbles, and fingers joining it land and settle beside fingers
    /// already moving; a pinch or turn meant then moves them clearly apart or around.
    public static let transformBarAfterTranslation = 2.0

    /// On a touchpad (``TouchPolicy/transformsMoveEveryFinger``), how far the finger that moved
    /// least must have gone, as a share of the finger that moved most, before a pinch or rotate
    /// begins: 0.3. With one finger resting and the other scrolling past it, the pair turns
    /// about their centroid and their spread changes as much as they move together, yet nothing
    /// turns or pinches. Chosen on the link recordings of fixtures/chromiumos (242 right from 0.2
    /// to 0.4, 241 at 0.1 and 0.5) and checked on alex (80 right from 0.3 to 0.5, 79 at 0.2,
    /// 76 at 0.1); from 0.5 on, the corpus's one pinch is no longer one.
    public static let transformLeastFingerShare = 0.3

    /// How near a palm a new contact must land to be taken as part of it: 50 mm, about the
    /// half-width of a hand's heel. A palm on a touchpad rolls and breaks up into contacts that
    /// come and go around it, most pressing too lightly to be judged palms by themselves. Chosen
    /// on the link recordings of fixtures/chromiumos (238 right at 50 mm; 237 at 30 and 45, 235
    /// at 60) and checked on alex (74 right, its best too).
    public static let palmFragmentDistance = 50.0

    /// How far a contact that landed near a palm (``palmFragmentDistance``) without pressing like
    /// one must move from where it landed to count as a finger: 8 mm, the ChromiumOS gestures
    /// library's palm pointing distance. Pieces of a rolling palm stay about where they broke
    /// off; a finger of the other hand beside a resting palm points or scrolls away. The palm
    /// itself moving does not count: only the contact's motion apart from it. The link and
    /// alex results are the same from 8 to 12 mm (335 right); 5 mm lets palm pieces point.
    public static let palmPointingDistance = 8.0

    /// A contact landing within `palmRelandDistance` (10 mm) of where a palm lifted, at most
    /// `palmRelandTime` (500 ms) after, is that palm again: a palm flickers, its contact lifting
    /// and landing near by a frame or two later, often pressing lightly (the link palms of
    /// fixtures/chromiumos land again 20 ms after a lift at the median, half of them within 3.3
    /// mm of it, and flicker for seconds). On link and alex: 351 right at 10 mm and 200 ms to 1
    /// s, false gestures of the palm recordings 66 at 200 ms, 46 at 500 ms, 44 at 1 s; 20 mm
    /// loses a palm recording. Measured again after the link description correction
    /// (2026-11-24): 5, 10 and 15 mm give the same right recordings, 20 mm one fewer.
    public static let palmRelandDistance = 10.0
    public static let palmRelandTime = Duration.milliseconds(500)

    /// How near where a contact lifted one must land again to be it bouncing
    /// (``TouchPolicy/bounceTime``): 5 mm. Of the link palms' landings within 50 ms of a lift in
    /// fixtures/chromiumos, half are within 3.3 mm of it and a quarter more than 7.4 mm away;
    /// 3, 5, 8 and 10 mm give the same right recordings (2026-11-24).
    public static let bounceDistance = 5.0

    /// The share of the hardest it pressed that a contact's last report must still press for
    /// the contact to have vanished rather than lifted (``TouchPolicy/vanishedBounceTime``):
    /// 0.95, as hard as ever but for the sensor's noise. Only when that report pressed as the
    /// one before did: harder, the press was still building up (a quick tap); softer, however
    /// little, the finger was easing off (issue 65: a 55 ms tap whose last of four 14 ms reports
    /// presses 96% of its peak, after a heavier one). Of the contacts in fixtures/chromiumos
    /// lifting at 95% of their peak or more (with two reports or more), 126 of 129 in the palm
    /// recordings pressed no less at their last report than at the one before, 3 less; in the
    /// others 31 no less and 13 less (2026-11-29); every link and alex replay is unchanged.
    public static let vanishedPressureShare = 0.95

    /// A contact reported once that lifted within this many of the device's report intervals
    /// (its usual one, the median of its last 15) of landing was seen in one scan of the sensor
    /// (``TouchPolicy/vanishedTapReportInterval``): 1.5, the next report with half an interval
    /// for jitter. One that stayed longer without a report stayed still, and its one report
    /// says nothing of how it lifted (a link drumroll's light tap: one report pressing 24,
    /// lifted 21 ms later on a pad reporting every 6 ms).
    public static let singleScanIntervals = 1.5

    /// How far the centre of a semi-multitouch pad's bounding box must move before its fingers
    /// count as moved: 1.5 mm. The corners of the box jitter as the pad re-estimates it (the
    /// ALPS GlidePoint's two-finger tap in fixtures/ swings ±1.2 mm with its fingers still).
    public static let boundingBoxHysteresis = 1.5

    /// Semi-multitouch: the reports after a change of the finger count whose corners' moves are
    /// the change's, not motion: 2. A semi-MT pad reports the new count first and the box's new
    /// corners a report or two later (issue 65, item 3: the old id jumps 17-18 mm, the fingers'
    /// separation, in the 21-25 ms report after the count changed, and two of five two-finger
    /// taps were lost); the ChromiumOS gestures library's SemiMtCorrectingFilterInterpreter,
    /// written for such a pad, gives the two reports after each 1-2 change no motion.
    public static let boundingBoxSettleReports = 2

    /// How far a contact that landed in the thumb area must move before it counts as a finger:
    /// half this far out of the area; or, while a finger is down beside it, this far within
    /// ``thumbEscapeTime``: 2 mm. A resting thumb barely moves; a finger scrolling beside another
    /// moves more at once, and lands as a finger then (the pan's settle time lets a two-finger
    /// scroll begin with both). A resting finger out of the area (``TouchPolicy/restingFingerTime``)
    /// counts once it moves this far from where it rested. Chosen on the link
    /// recordings of fixtures/chromiumos (238 right at 2 and 4 mm, 235 at 10) and checked on
    /// alex (75 right at 2 mm, 74 at 4, 71 at 10); after the link description correction
    /// (2026-11-24, with a 3 mm pan slop) 372 of 401 at 2 mm, 370 at 1.5, 366 at 3.
    ///
    /// Alone, a thumb may slide along the bottom of the pad (the hovering_thumb recordings of
    /// fixtures/chromiumos sweep 60–100 mm along its bottom edge), and a finger starting a stroke
    /// down there, alone, leaves the area: so alone, only leaving counts. On link and alex that
    /// took 377 to 381 of 401 (5 more palms right, alex 92 → 93, one pointing finger lost: the
    /// palm it pointed beside had rested as a thumb; a resting thumb that presses like a palm is
    /// now a palm at once, 382).
    public static let thumbEscapeDistance = 2.0

    /// Beside a finger, a contact resting in the thumb area counts as a finger once it moves
    /// ``thumbEscapeDistance`` within this long: 100 ms, that is 20 mm/s, libinput's thumb speed
    /// threshold. A resting thumb creeps slower (link thumb_pointing.left in fixtures/chromiumos:
    /// 11 mm in 3 s while a finger points beside it, which made the stroke a pan of two); a
    /// finger scrolling moves 2 mm in 20–50 ms. On link and alex: 382 → 383 of 401 right at 100
    /// and 200 ms (alex 94 at each), 379 at 50 ms.
    public static let thumbEscapeTime = Duration.milliseconds(100)

    /// How far apart across the pad (x), in mm, two touches may be and still scroll together:
    /// 35 mm, libinput's `SCROLL_MM_X` (evdev-mt-touchpad-thumb.c); along it,
    /// ``scrollReachAlong``. A contact resting in the thumb area escapes by moving quickly only
    /// beside a finger this close; farther from every finger, libinput takes the lower touch
    /// for a thumb. A contact landing near a palm beside a finger this close is a finger.
    public static let scrollReachAcross = 35.0

    /// How far apart along the pad (y), in mm, two touches may be and still scroll together:
    /// 25 mm, libinput's `SCROLL_MM_Y` (``scrollReachAcross``).
    public static let scrollReachAlong = 25.0

    /// Whether `a` and `b` (mm) are within a two-finger scroll's reach of each other
    /// (``scrollReachAcross`` × ``scrollReachAlong``).
    public static func withinScrollReach(_ a: Point, _ b: Point) -> Bool {
        abs(a.x - b.x) <= scrollReachAcross && abs(a.y - b.y) <= scrollReachAlong
    }

    /// How far (mm) a touchpad contact must move between two of its reports to have jumped,
    /// for telling which touch rests: 20 mm, libinput's `JUMP_THRESHOLD_MM`. libinput judges
    /// it per 12 ms of report (`tp_detect_jumps`); here it is taken as it is, however long the
    /// pad was silent, because what makes the jump a swap is a contact landing where it left,
    /// within the bounce window (link palm_scroll.upper.left.up: the palm's id jumps 60 mm
    /// after 57 ms without a report). Such a contact landed where it now is, and the one
    /// landing where it was is the touch that stayed (the contact filter hands it the old
    /// landing time).
    public static let trackingJumpDistance = 20.0

    /// A contact that landed alone in a touchpad's thumb area, and lifts this soon, still alone
    /// and having pressed no button, taps (where it moved no more than a tap may): 180 ms,
    /// libinput's tap timeout (`evdev-mt-touchpad-tap.c`). libinput keeps such a touch
    /// ("jailed") from moving the pointer or starting a gesture, but lets it tap: a fingertip
    /// tapping low on the pad (issue 65: a 100 ms tap 92% of the way down a 50 mm pad, pressing
    /// 8–22%). A thumb resting longer taps nothing, as before: its press reaches the recognizers
    /// only as it lifts, so no long press or multi-finger tap comes of it.
    public static let thumbTapTime = Duration.milliseconds(180)

    /// The lowest share of a touchpad's height where a contact landing rests as a thumb even
    /// when the device can tell a thumb by its pressure or size (``TouchPolicy/thumbPressure``,
    /// ``TouchPolicy/thumbSize``) and says it is none: 8%, libinput's lower thumb line
    /// (`evdev-mt-touchpad-thumb.c`), below which libinput holds back every touch landing.
    /// Above it, in the thumb area, such a device's word decides.
    public static let thumbExclusionShare = 0.08

    /// A contact whose touch major passes ``TouchPolicy/thumbSize`` is a thumb only while its
    /// touch minor is less than this share of it: a thumb lies flat, long and narrow, where a
    /// palm is wide too (libinput's 0.6, `tp_thumb_detect_pressure_size`).
    public static let thumbMinorShare = 0.6

    /// How soon after landing a contact's first report may still be it settling, not moving: 40
    /// ms. As a finger presses, its contact area grows and the pad moves the point it reports:
    /// the first report after landing moves (on alex, every contact of fixtures/chromiumos: 0.33
    /// mm at the median and 2.3 mm at the 99th percentile, 25 ms after landing at the median and
    /// 35 ms at the 99th percentile; on link 0.05 and 1.7 mm). On a touchpad, where a contact
    /// landed is where its own first report (one where it moved) puts it, when that comes this
    /// soon:
    /// - a tap's and a long press's movement count from there (``TouchPolicy/settlesLandings``;
    ///   the ALPS GlidePoint's single tap in fixtures/recordings jumps 3.4 mm in 10 ms, then
    ///   stays: a tap); a pan's motion is the contact's own, first report included;
    /// - a thumb resting in the thumb area beside a finger measures its quick moves
    ///   (``thumbEscapeDistance`` within ``thumbEscapeTime``) from there: alex
    ///   thumb_scroll.right.up's thumb jumps 2.2 mm in 14 ms, then rests for 0.8 s before two
    ///   fingers scroll beside it;
    /// - a contact that hovered (``TouchPolicy/hoverPressureShare``) longer than this before it
    ///   pressed was there all along: it taps and holds nothing.
    ///
    /// Of every recording in fixtures/, the movement rule changes two: the GlidePoint tap, and
    /// an alex tap before a drag that is recognized 15 ms sooner. A touchscreen's first report
    /// is motion, as UIKit has it.
    public static let landingSettleTime = Duration.milliseconds(40)

    /// A touchpad contact pressing less than this share of its own peak pressure is lifting
    /// (``TouchPolicy/liftingPressureShare``): 0.5, no unit. A finger easing off slides as it
    /// rolls: issue 65's Synaptics taps slide 1–4.5 mm once they press 24 of a peak of 70–110
    /// (22–34%), alex's ninth tap in `click-any_angle_click.tap` 1.1 mm at 43% of its peak; a
    /// tap's own press holds within 10% of its peak (libinput ends a touch at 10% of the
    /// pressure range, a share of the axis, not of the finger: alex's light taps peak at 47).
    public static let liftingPressureShare = 0.5

    /// A touchpad contact alone whose whole touch (`TouchFrame.wholeTouch`) presses more than
    /// this share of `ABS_PRESSURE`'s range, and is at least ``wholeTouchPalmWidthShare`` of
    /// `ABS_TOOL_WIDTH`'s range wide, is a palm: 0.57, no unit. Issue 65's Synaptics palms
    /// press 72-83% and are 10-15 of 16 wide while alone; its tapping fingers press 27-42%.
    /// Higher than the 0.5 of a contact's own pressure: the whole touch of an ALPS finger
    /// presses 52% (that pad reports no width, and is never judged so).
    public static let wholeTouchPalmPressureShare = 0.57
    /// See ``wholeTouchPalmPressureShare``: half the tool width's range (8 of 16).
    public static let wholeTouchPalmWidthShare = 0.5

    /// The shortest interval a jump (``TouchPolicy/jumpSpeed``) is judged over: 12 ms, about a
    /// touchpad's frame. Two frames a millisecond apart say little about speed.
    public static let jumpReferenceInterval = Duration.milliseconds(12)

    /// How far a swipe's recent motion (its last 100 ms, its last stretch) may turn from its
    /// direction before it is decided, in degrees: half the angle between two of the four
    /// directions (45°), so that it goes nearer this way than any other. The whole stroke keeps
    /// the swipe's own tolerance (30°): it says which way, and a diagonal is no swipe. A flick
    /// that hooks as it lands and then runs 37–44° left of up is 27° left of up whole (issue 65,
    /// item 8: decided at the lift, 208 ms, with the recent motion held to 30°).
    public static let swipeSector = 45.0
    /// ``swipeSector`` for a swipe of eight directions: 22.5°.
    public static let swipeEightWaySector = 22.5

    /// A step too fast for a finger (``TouchPolicy/jumpSpeed``) was motion after all when the
    /// next one goes on the same way (within 45°) at least this share as far: 0.5, no unit. The
    /// robot's two-finger swipe of issue 65's item 6 goes 11.5–14.3 mm in each of two 11–12 ms
    /// reports; libinput calls a jump only beyond 20 mm in 12 ms, but the jumps in
    /// fixtures/chromiumos go 1.06 mm/ms and more, and stop where they land.
    public static let jumpContinuationShare = 0.5

    /// How far two contacts must have moved in a frame, together, to have traded places
    /// (a tracking swap, a jump of both): 4 mm. Two pieces of one palm lie close and jitter;
    /// a swap that moves them less than this turns them by little. 2, 4 and 8 mm give the same
    /// results on link and alex (2026-11-24).
    public static let swapDistance = 4.0

    /// Width of the band along an edge where an edge pan must start: 5 mm, about the width
    /// of a thumb's tip landing on the bezel side of a panel.
    public static let edgeBandWidth = 5.0

    /// Velocities are least-squares fits over the samples of the last 100 ms (Flutter's
    /// VelocityTracker horizon); a finger still for 40 ms has velocity 0.
    public static let velocityHorizon = Duration.milliseconds(100)
    public static let velocityStopTime = Duration.milliseconds(40)
}
