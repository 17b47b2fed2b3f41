import GestureRuntime
import Gestures
import Testing
import TouchEvents
import TouchInputTesting

/// Kernel frames of a multitouch device, written by hand: `frame(ms) { $0.down(0, id: 1, x: 10, y: 20) }`.
struct KernelFrames {
    private(set) var events: [InputEvent] = []
    private var time = Instant.zero

    mutating func frame(_ ms: Double, _ body: (inout KernelFrames) -> Void) {
        time = .zero + .milliseconds(ms)
        body(&self)
        add(EventType.syn, SynCode.report, 0)
    }

    mutating func down(_ slot: Int32, id: Int32, x: Int32, y: Int32) {
        add(EventType.abs, AbsCode.mtSlot, slot)
        add(EventType.abs, AbsCode.mtTrackingID, id)
        add(EventType.abs, AbsCode.mtPositionX, x)
        add(EventType.abs, AbsCode.mtPositionY, y)
    }

    mutating func move(_ slot: Int32, x: Int32) {
        add(EventType.abs, AbsCode.mtSlot, slot)
        add(EventType.abs, AbsCode.mtPositionX, x)
    }

    mutating func up(_ slot: Int32) {
        add(EventType.abs, AbsCode.mtSlot, slot)
        add(EventType.abs, AbsCode.mtTrackingID, -1)
    }

    mutating func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: time, type: type, code: code, value: value))
    }

    /// An event at `time` (frames shifted in time).
    mutating func add(_ type: UInt16, _ code: UInt16, _ value: Int32, at time: Instant) {
        self.time = time
        add(type, code, value)
    }
}

/// The twin's events as lines, one per frame (``RecordingTwin/lines(of:)``).
func twinLines(_ events: [InputEvent]) -> [String] { RecordingTwin.lines(of: events) }

/// Plays `frames` through `filter`, owning `slot` at the end of the frame at `ownAt` ms
/// (before the frame goes to the twin, as the runtime does); the twin's frames.
func play(_ frames: KernelFrames, through filter: inout TwinFilter, own: [(ms: Double, slot: Int)] = []) -> [String] {
    var out: [InputEvent] = []
    for e in frames.events {
        filter.add(e)
        guard e.isReport else { continue }
        for o in own where .zero + .milliseconds(o.ms) == e.time { filter.own(slot: o.slot) }
        out += filter.endFrame()
    }
    return twinLines(out)
}

/// Plays `frames` through `filter`, telling it at the end of the frame at each key (ms) what
/// the pipeline would have (before the frame goes to the twin, as the runtime does). Each
/// contact is named as it lands by its tracking id, as the pipeline names touches it routes.
func play(_ frames: KernelFrames, through filter: inout TwinFilter, telling: [Double: (inout TwinFilter) -> Void]) -> [String] {
    var out: [InputEvent] = []
    var slot: Int32 = 0
    var landed: [(slot: Int32, id: Int32)] = []
    for e in frames.events {
        filter.add(e)
        if e.type == EventType.abs && e.code == AbsCode.mtSlot { slot = e.value }
        if e.type == EventType.abs && e.code == AbsCode.mtTrackingID && e.value >= 0 { landed.append((slot, e.value)) }
        guard e.isReport else { continue }
        for l in landed { filter.name(slot: Int(l.slot), contact: Int(l.id)) }
        landed.removeAll()
        for (ms, tell) in telling where .zero + .milliseconds(ms) == e.time { tell(&filter) }
        out += filter.endFrame()
    }
    return twinLines(out)
}

/// A one-finger tap in slot 0 at (100, 100), lifting at `liftAt` ms.
func tapFrames(liftAt ms: Double) -> KernelFrames {
    var f = KernelFrames()
    f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
    f.frame(ms) { $0.up(0) }
    return f
}

@Suite("What an owned device's twin gets")
struct TwinFilterTests {
    let screen = TwinFilter(description: .testTouchscreen)!
    let pad = TwinFilter(description: .testTouchpad)!

    @Test func aTouchNoGestureOwnsReachesTheTwinAsTheDeviceSentIt() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 7, x: 100, y: 200); $0.add(EventType.key, KeyCode.touch, 1) }
        f.frame(10) { $0.move(0, x: 110) }
        f.frame(20) { $0.up(0); $0.add(EventType.key, KeyCode.touch, 0) }
        var filter = screen
        // The device's BTN_TOUCH is not passed: the twin's follows the touches it has.
        #expect(play(f, through: &filter) == [
            "slot 0, id 7, x 100, y 200, touch 1",
            "x 110",  // the twin's slot is 0 already
            "id -1, touch 0",
        ])
    }

    @Test func anOwnedTouchTheTwinHadIsCancelledThereAndWithheldAfter() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 7, x: 100, y: 200) }
        f.frame(10) { $0.move(0, x: 150) }
        f.frame(20) { $0.move(0, x: 200) }
        f.frame(30) { $0.up(0) }
        // A new touch in the same slot afterwards is a finger again.
        f.frame(100) { $0.down(0, id: 8, x: 50, y: 50) }
        var filter = screen
        #expect(play(f, through: &filter, own: [(10, 0)]) == [
            "slot 0, id 7, x 100, y 200, touch 1",
            "palm",              // the frame it was owned in: turned palm (libinput: TOUCH_CANCEL)
            "id -1, touch 0",    // then lifted; its later motion and its own lift never come
            "finger, id 8, x 50, y 50, touch 1",  // the tool first: libinput reads it as the touch begins
        ])
    }

    @Test func aTouchOwnedInTheFrameItLandsNeverReachesTheTwin() {
        // The fourth finger of a four-finger swipe the gesture owns already.
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(10) { $0.down(1, id: 2, x: 300, y: 100) }
        f.frame(20) { $0.move(1, x: 310) }
        f.frame(30) { $0.up(1) }
        f.frame(40) { $0.up(0) }
        var filter = screen
        #expect(play(f, through: &filter, own: [(10, 1)]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "id -1, touch 0",
        ])
    }

    @Test func aTouchOwnedAsItLiftsEndsCancelledNotLifted() {
        // A gesture recognized at the lift (a tap): the lift the app would read as a tap never comes.
        var filter = screen
        #expect(play(tapFrames(liftAt: 80), through: &filter, own: [(80, 0)]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "palm",
            "id -1, touch 0",
        ])
    }

    @Test func aHeldBackTouchThatIsOwnedNeverReachesTheTwin() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(20) { $0.move(0, x: 140) }
        f.frame(40) { $0.move(0, x: 180) }
        f.frame(100) { $0.move(0, x: 220) }
        f.frame(120) { $0.up(0) }
        var filter = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(f, through: &filter, own: [(40, 0)]) == [])
    }

    @Test func aHeldBackTouchNoGestureOwnsGoesToTheTwinWhenItsTimeIsUpInOrder() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(20) { $0.move(0, x: 140) }
        var filter = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(f, through: &filter) == [])
        #expect(filter.nextDeadline == .zero + .milliseconds(60))
        #expect(twinLines(filter.deadlinePassed(.zero + .milliseconds(59))) == [])
        #expect(twinLines(filter.deadlinePassed(.zero + .milliseconds(60))) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "x 140",
        ])
        #expect(filter.nextDeadline == nil)
        // From then on it passes as it comes.
        var g = KernelFrames()
        g.frame(80) { $0.move(0, x: 150) }
        g.frame(90) { $0.up(0) }
        #expect(play(g, through: &filter) == ["x 150", "id -1, touch 0"])
    }

    @Test func aQuickTapShorterThanTheHoldBackGoesToTheTwinWholeAtItsLift() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(40) { $0.up(0) }
        var filter = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(f, through: &filter) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "id -1, touch 0",
        ])
        #expect(filter.nextDeadline == nil)
    }

    @Test func heldBackFingersReachTheTwinTogetherInTheOrderTheyCame() {
        // A two-finger tap: one finger lands, the other 10 ms later, both lift at 40 ms.
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(10) { $0.down(1, id: 2, x: 300, y: 100) }
        f.frame(40) { $0.up(0); $0.up(1) }
        var filter = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(f, through: &filter) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "slot 1, id 2, x 300, y 100",
            "slot 0, id -1, slot 1, id -1, touch 0",
        ])
        // One finger's time is up: the other, held 10 ms less, goes with it.
        var g = KernelFrames()
        g.frame(100) { $0.down(0, id: 3, x: 100, y: 100) }
        g.frame(110) { $0.down(1, id: 4, x: 300, y: 100) }
        var later = filter
        #expect(play(g, through: &later) == [])
        #expect(twinLines(later.deadlinePassed(.zero + .milliseconds(160))) == [
            "slot 0, id 3, touch 1",  // x and y as the twin has them from the last touch in the slot
            "slot 1, id 4",
        ])
    }

    @Test func aContactStartingOnTheTwinGetsTheDevicesValuesItLacks() {
        // An owned touch moves to x 300 (withheld), lifts; the next lands in its slot at x 300:
        // the kernel sends no x (unchanged), but the twin last had x 100.
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(10) { $0.move(0, x: 200) }
        f.frame(20) { $0.move(0, x: 300) }
        f.frame(30) { $0.up(0) }
        f.frame(100) {
            $0.add(EventType.abs, AbsCode.mtSlot, 0)
            $0.add(EventType.abs, AbsCode.mtTrackingID, 2)
        }
        var filter = screen
        #expect(play(f, through: &filter, own: [(10, 0)]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "palm",
            "id -1, touch 0",
            "finger, id 2, x 300, touch 1",
        ])
    }

    @Test func aPalmTheDeviceReportsStaysAPalmOnTheTwin() {
        // The device marks palms itself; a second palm in the slot repeats no tool type.
        var device = DeviceDescription.testTouchscreen
        device.absInfo[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: 2)
        var filter = TwinFilter(description: device)!
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100); $0.add(EventType.abs, AbsCode.mtToolType, MTToolType.palm) }
        f.frame(10) { $0.up(0) }
        f.frame(50) { $0.down(0, id: 2, x: 120, y: 100) }
        #expect(play(f, through: &filter) == [
            "slot 0, palm, id 1, x 100, y 100, touch 1",  // the tool type before the tracking id: a palm from its start
            "id -1, touch 0",
            "id 2, x 120, touch 1",
        ])
    }

    @Test func theFiltersFirstSlotIsTheDevicesCurrentOne() {
        // Opened while its current slot is 3: a contact there comes without ABS_MT_SLOT.
        var device = DeviceDescription.testTouchscreen
        device.absInfo[AbsCode.mtSlot]?.value = 3
        var filter = TwinFilter(description: device)!
        var f = KernelFrames()
        f.frame(0) {
            $0.add(EventType.abs, AbsCode.mtTrackingID, 5)
            $0.add(EventType.abs, AbsCode.mtPositionX, 100)
        }
        _ = play(f, through: &filter, own: [(0, 3)])
        #expect(!filter.twinHas(slot: 0) && !filter.twinHas(slot: 3))
        var g = KernelFrames()
        g.frame(0) {
            $0.add(EventType.abs, AbsCode.mtTrackingID, 6)
            $0.add(EventType.abs, AbsCode.mtPositionX, 100)
        }
        var unowned = TwinFilter(description: device)!
        #expect(play(g, through: &unowned) == ["slot 3, id 6, x 100, touch 1"])
    }

    @Test func aResynchronizationPassesItsDeltasAndNotTheDrop() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        // The kernel dropped events; libevdev's deltas follow SYN_DROPPED: slot 0 lifted, slot 1 down.
        f.frame(50) {
            $0.add(EventType.syn, SynCode.dropped, 0)
            $0.up(0)
            $0.down(1, id: 2, x: 300, y: 300)
        }
        var filter = screen
        #expect(play(f, through: &filter) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "id -1, slot 1, id 2, x 300, y 300",
        ])
    }

    @Test func aStopInTheMiddleOfATouchCancelsItOnTheTwin() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100); $0.down(1, id: 2, x: 200, y: 100) }
        var filter = screen
        _ = play(f, through: &filter)
        #expect(twinLines(filter.cancelAll(at: .zero + .milliseconds(5))) == [
            "slot 0, palm, slot 1, palm",
            "slot 0, id -1, slot 1, id -1, touch 0",
        ])
        // The fingers still down are withheld until they lift.
        var g = KernelFrames()
        g.frame(10) { $0.move(0, x: 120) }
        g.frame(20) { $0.up(0); $0.up(1) }
        #expect(play(g, through: &filter) == [])
    }

    @Test func onATouchpadAnOwnedTouchTurnsPalmInTheSameFrameAndStaysUntilItLifts() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(10) { $0.down(1, id: 2, x: 300, y: 100); $0.down(2, id: 3, x: 500, y: 100) }
        f.frame(20) { $0.move(0, x: 150) }
        f.frame(30) { $0.up(0); $0.up(1); $0.up(2) }
        var filter = TwinFilter(kind: .touchpad, slotCount: 5, keys: [KeyCode.touch], holdBack: .milliseconds(60))
        // The third finger brings the count to the owned gesture's: all three turn palm in its frame.
        #expect(play(f, through: &filter, own: [(10, 0), (10, 1), (10, 2)]) == [
            "slot 0, id 1, x 100, y 100",
            "slot 1, id 2, x 300, y 100, slot 2, id 3, x 500, y 100, slot 0, palm, slot 1, palm, slot 2, palm",
            "slot 0, x 150",
            "id -1, slot 1, id -1, slot 2, id -1",
        ])
    }

    /// A double tap that owns its touches, both taps in the device's slot 0: the first tap's
    /// lift is withheld (the double tap may take it), so the second goes to the twin's slot 1;
    /// recognized at the second lift, the double tap has both cancelled.
    @Test func aLiftWithheldForADoubleTapIsCancelledWhenItIsOwned() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(60) { $0.up(0) }
        f.frame(160) { $0.down(0, id: 2, x: 104, y: 100) }
        f.frame(220) { $0.up(0) }
        var filter = screen
        #expect(play(f, through: &filter, telling: [
            60: { $0.holdLift(slot: 0, contact: 1) },
            220: { $0.own(slot: 0, contact: 1); $0.own(slot: 0, contact: 2) },
        ]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            // 60 ms: the lift is withheld, nothing is written.
            "slot 1, id 2, x 104, y 100",  // the twin's slot 0 still has the first tap
            "slot 0, palm, slot 1, palm",
            "slot 0, id -1, slot 1, id -1, touch 0",
        ])
        #expect(!filter.twinHas(slot: 0) && !filter.twinHas(slot: 1))
    }

    /// The double tap failed (its time ran out): the withheld lift goes to the twin then, a
    /// plain lift (the app reads its tap, late); the slot is the device's again.
    @Test func aLiftWithheldThatIsSettledGoesToTheTwinThen() {
        var filter = screen
        #expect(play(tapFrames(liftAt: 60), through: &filter, telling: [60: { $0.holdLift(slot: 0, contact: 1) }]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
        ])
        #expect(filter.twinHas(slot: 0))
        filter.settle(slot: 0, contact: 1)
        #expect(twinLines(filter.ownershipChanged(at: .zero + .milliseconds(360))) == ["id -1, touch 0"])
        var g = KernelFrames()
        g.frame(400) { $0.down(0, id: 2, x: 100, y: 100) }
        #expect(play(g, through: &filter) == ["id 2, touch 1"])
    }

    /// Held back 60 ms, a quick double tap that owns its touches: the first tap is held back
    /// until its time is up (its lift still withheld), the second until the double tap owns
    /// both: the first is cancelled, the second never reaches the twin. A quick tap whose lift
    /// is withheld and then settled before its time is up reaches it whole, at the settling.
    @Test func aHeldBackTapWhoseLiftIsWithheldStaysHeldUntilItIsDecided() {
        var owned = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(tapFrames(liftAt: 40), through: &owned, telling: [40: { $0.holdLift(slot: 0, contact: 1) }]) == [])
        #expect(owned.nextDeadline == .zero + .milliseconds(60))
        #expect(twinLines(owned.deadlinePassed(.zero + .milliseconds(60))) == ["slot 0, id 1, x 100, y 100, touch 1"])
        var second = KernelFrames()
        second.frame(80) { $0.down(0, id: 2, x: 104, y: 100) }
        second.frame(120) { $0.up(0) }
        #expect(play(second, through: &owned, telling: [
            120: { $0.own(slot: 0, contact: 1); $0.own(slot: 0, contact: 2) },
        ]) == ["palm", "id -1, touch 0"])  // the twin is at its slot 0 already
        #expect(owned.nextDeadline == nil && !owned.twinHas(slot: 0) && !owned.twinHas(slot: 1))

        var settled = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(tapFrames(liftAt: 40), through: &settled, telling: [40: { $0.holdLift(slot: 0, contact: 1) }]) == [])
        settled.settle(slot: 0, contact: 1)
        #expect(twinLines(settled.ownershipChanged(at: .zero + .milliseconds(50))) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "id -1, touch 0",
        ])
    }

    /// Every slot of the twin's taken (a three-slot device: two withheld lifts and a finger)
    /// and a finger lands: the oldest withheld lift goes, a plain lift in a frame of its own
    /// (libinput takes a slot's last tracking id in a frame), and the finger takes its slot.
    @Test func theOldestWithheldLiftMakesRoomWhenTheTwinHasNoSlotLeft() {
        var filter = TwinFilter(kind: .touchscreen, slotCount: 3, keys: [KeyCode.touch])
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(10) { $0.down(1, id: 2, x: 300, y: 100) }
        f.frame(20) { $0.up(1) }
        f.frame(30) { $0.up(0) }
        f.frame(40) { $0.down(2, id: 3, x: 500, y: 100) }
        f.frame(50) { $0.down(0, id: 4, x: 700, y: 100) }
        #expect(play(f, through: &filter, telling: [
            20: { $0.holdLift(slot: 1, contact: 2) },
            30: { $0.holdLift(slot: 0, contact: 1) },
        ]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "slot 1, id 2, x 300, y 100",
            "slot 2, id 3, x 500, y 100",
            "slot 1, id -1",        // the second touch's lift waited longest
            "id 4, x 700",          // in its slot (the twin's slot 0 still has the first)
        ])
        #expect(filter.twinHas(slot: 0) && filter.twinHas(slot: 1) && filter.twinHas(slot: 2))
    }

    /// A touchpad's touches are palms from the frame they are owned: no lift is withheld there.
    @Test func onATouchpadNoLiftIsWithheld() {
        var filter = TwinFilter(kind: .touchpad, slotCount: 5, keys: [KeyCode.touch])
        #expect(play(tapFrames(liftAt: 60), through: &filter, telling: [60: { $0.holdLift(slot: 0, contact: 1) }]) == [
            "slot 0, id 1, x 100, y 100",
            "id -1",
        ])
    }

    /// Held back 60 ms: a touch settled in the frame it lands (no gesture could own it) is not
    /// held at all; one settled later goes then, alone — another touch, still undecided, stays
    /// held back, and goes when its time is up.
    @Test func aSettledTouchIsNotHeldBack() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(10) { $0.move(0, x: 110); $0.down(1, id: 2, x: 300, y: 100) }
        f.frame(20) { $0.move(0, x: 120); $0.move(1, x: 310) }
        f.frame(30) { $0.move(1, x: 320) }
        var filter = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(f, through: &filter, telling: [
            0: { $0.settle(slot: 0, contact: 1) },
            30: { $0.settle(slot: 1, contact: 2) },
        ]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "x 110",
            "x 120",
            // 30 ms: the second touch is settled: its frames, as they came, then this one's move.
            "slot 1, id 2, x 300, y 100",
            "x 310",
            "x 320",
        ])
        var g = KernelFrames()
        g.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        g.frame(10) { $0.down(1, id: 2, x: 300, y: 100) }
        g.frame(20) { $0.move(0, x: 120) }
        var one = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(g, through: &one, telling: [10: { $0.settle(slot: 1, contact: 2) }]) == [
            "slot 1, id 2, x 300, y 100, touch 1",
        ])
        #expect(twinLines(one.deadlinePassed(.zero + .milliseconds(60))) == [
            "slot 0, id 1, x 100, y 100",
            "x 120",
        ])
    }

    /// The pipeline's word on a touch reaches that touch only: a claim for one the filter no
    /// longer has (lifted, its slot reused) changes nothing, and an id named again (a new
    /// pipeline counts from 1) leaves the contact that had it.
    @Test func aClaimReachesTheTouchItNamesOnly() {
        var f = tapFrames(liftAt: 60)
        f.frame(100) { $0.down(0, id: 2, x: 104, y: 100) }
        f.frame(110) { $0.down(1, id: 3, x: 300, y: 100) }
        f.frame(120) { $0.move(0, x: 110) }
        var filter = screen
        #expect(play(f, through: &filter, telling: [
            100: { $0.own(slot: 0, contact: 1) },     // the first tap: gone
            110: { $0.name(slot: 1, contact: 2) },    // the second touch's id, now the third's
            120: { $0.own(slot: 0, contact: 2) },     // the third touch, in slot 1
        ]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "id -1, touch 0",
            "id 2, x 104, touch 1",
            "slot 1, id 3, x 300, y 100",
            "slot 0, x 110",
            "slot 1, palm",
            "id -1",
        ])
    }

    /// Held back 60 ms, two touches: the second, settled in the frame it lifts, goes alone
    /// (its lift does not take the first along); the first stays held until its time is up.
    @Test func aSettledTouchLiftingGoesAlone() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(10) { $0.down(1, id: 2, x: 300, y: 100) }
        f.frame(20) { $0.up(1) }
        var filter = TwinFilter(description: .testTouchscreen, holdBack: .milliseconds(60))!
        #expect(play(f, through: &filter, telling: [20: { $0.settle(slot: 1, contact: 2) }]) == [
            "slot 1, id 2, x 300, y 100, touch 1",
            "id -1, touch 0",
        ])
        #expect(filter.nextDeadline == .zero + .milliseconds(60))
        #expect(twinLines(filter.deadlinePassed(.zero + .milliseconds(60))) == ["slot 0, id 1, x 100, y 100, touch 1"])
    }

    /// A two-slot twin, full: a lift waiting in its slot 0, a finger down in its slot 1. A
    /// finger lands in the frame the waiting lift is settled: the lift goes first, in a frame
    /// of its own, and the finger takes its slot.
    @Test func aLiftSettledAsAFingerLandsOnAFullTwinMakesRoomForIt() {
        var filter = TwinFilter(kind: .touchscreen, slotCount: 2, keys: [KeyCode.touch])
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(20) { $0.down(1, id: 2, x: 300, y: 100) }
        f.frame(60) { $0.up(0) }
        f.frame(100) { $0.down(0, id: 3, x: 500, y: 100) }
        #expect(play(f, through: &filter, telling: [
            60: { $0.holdLift(slot: 0, contact: 1) },
            100: { $0.settle(slot: 0, contact: 1) },
        ]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "slot 1, id 2, x 300, y 100",
            "slot 0, id -1",
            "id 3, x 500",
        ])
    }

    /// The pipeline started over (a decoding error: its ids count again): a lift it held goes
    /// to the twin with the next frame, and its old names find nothing.
    @Test func aLiftWithheldGoesWhenThePipelineStartsOver() {
        var filter = screen
        #expect(play(tapFrames(liftAt: 60), through: &filter, telling: [60: { $0.holdLift(slot: 0, contact: 1) }]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
        ])
        filter.startOver()
        var g = KernelFrames()
        g.frame(100) { $0.down(1, id: 2, x: 300, y: 100) }
        #expect(play(g, through: &filter, telling: [100: { $0.own(slot: 0, contact: 1) }]) == [
            "slot 1, id 2, x 300, y 100",
            "slot 0, id -1",
        ])
    }
}

/// `end-owned-touches: lift` (docs/ownership.md, "Compositors"): where the compositor drops
/// libinput's cancel, an owned touch the app had ends with a plain lift, where the app last saw
/// it, in the frame the gesture takes it.
@Suite("An owned touch ended by a lift")
struct TwinFilterLiftEndingTests {
    var screen: TwinFilter {
        var filter = TwinFilter(description: .testTouchscreen)!
        filter.ending = .lift
        return filter
    }

    @Test func anOwnedTouchLiftsAtOnceWhereTheAppLastSawItAndIsWithheldAfter() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 7, x: 100, y: 200) }
        f.frame(10) { $0.move(0, x: 150) }
        f.frame(20) { $0.move(0, x: 200) }
        f.frame(30) { $0.up(0) }
        f.frame(100) { $0.down(0, id: 8, x: 50, y: 50) }
        var filter = screen
        #expect(play(f, through: &filter, own: [(10, 0)]) == [
            "slot 0, id 7, x 100, y 200, touch 1",
            "id -1, touch 0",                  // no palm first: libinput reads TOUCH_UP
            "id 8, x 50, y 50, touch 1",       // the slot's tool is still a finger
        ])
    }

    @Test func aTouchOwnedAsItLiftsEndsWithItsLift() {
        var filter = screen
        #expect(play(tapFrames(liftAt: 80), through: &filter, own: [(80, 0)]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "id -1, touch 0",
        ])
    }

    @Test func aWithheldLiftThatIsOwnedLaterIsLiftedThen() {
        // A double tap's first tap stays down on the twin until the second tap is recognized.
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(60) { $0.up(0) }
        f.frame(150) { $0.down(0, id: 2, x: 100, y: 100) }
        var filter = screen
        #expect(play(f, through: &filter, telling: [
            60: { $0.holdLift(slot: 0, contact: 1) },
            150: { $0.own(slot: 0, contact: 1); $0.own(slot: 0, contact: 2) },
        ]) == [
            "slot 0, id 1, x 100, y 100, touch 1",
            "id -1, touch 0",
        ])
    }

    @Test func aStopLiftsEveryTouchTheTwinHas() {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100); $0.down(1, id: 2, x: 300, y: 100) }
        var filter = screen
        #expect(play(f, through: &filter) == ["slot 0, id 1, x 100, y 100, slot 1, id 2, x 300, y 100, touch 1"])
        #expect(twinLines(filter.cancelAll(at: .zero + .milliseconds(5))) == [
            "slot 0, id -1, slot 1, id -1, touch 0",
        ])
    }

    @Test func aTouchpadKeepsItsPalmsWhateverTheEnding() {
        var pad = TwinFilter(description: .testTouchpad)!
        pad.ending = .lift
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(10) { $0.move(0, x: 150) }
        #expect(play(f, through: &pad, own: [(10, 0)]) == [
            "slot 0, id 1, x 100, y 100",
            "x 150, palm",
        ])
    }
}

/// A touch's fate on the twin is one state, changed in one place that tells each change
/// (``TwinFilter/onFateChange``: the runtime logs it, `replay --explain` prints it).
@Suite("A touch's fate on the twin")
struct TwinFilterFateTests {
    final class Fates { var lines: [String] = [] }

    /// A filter whose fate changes are written as "ms: touch ID: FROM → TO (WHY)".
    func filter(holdBack: Duration = .zero, ending: OwnedTouchEnding = .cancel) -> (TwinFilter, Fates) {
        var filter = TwinFilter(description: .testTouchscreen, holdBack: holdBack)!
        filter.ending = ending
        let fates = Fates()
        filter.onFateChange = { id, _, from, to, time, why in
            fates.lines.append("\((time - .zero).inMilliseconds): touch \(id): \(from) → \(to) (\(why))")
        }
        return (filter, fates)
    }

    @Test func aTouchTheAppHadIsOwnedThenEndedByACancel() {
        var (filter, fates) = filter()
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 7, x: 100, y: 200) }
        f.frame(10) { $0.move(0, x: 150) }
        _ = play(f, through: &filter, telling: [10: { $0.own(slot: 0, contact: 7) }])
        #expect(fates.lines == [
            "10.0: touch 7: passed → owned (a gesture that owns its touches took it from the app)",
            "10.0: touch 7: owned → ended by cancel (libinput's cancel)",
        ])
    }

    @Test func withALiftEndingItIsEndedByALift() {
        var (filter, fates) = filter(ending: .lift)
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 7, x: 100, y: 200) }
        f.frame(10) { $0.move(0, x: 150) }
        _ = play(f, through: &filter, telling: [10: { $0.own(slot: 0, contact: 7) }])
        #expect(fates.lines.last == "10.0: touch 7: owned → ended by lift (a plain lift: end-owned-touches, for a compositor that drops libinput's cancel)")
    }

    @Test func aHeldBackTouchIsOwnedUnseenOrPassedWhenItsTimeIsUp() {
        var (owned, ownedFates) = filter(holdBack: .milliseconds(60))
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(20) { $0.move(0, x: 140) }
        _ = play(f, through: &owned, telling: [20: { $0.own(slot: 0, contact: 1) }])
        #expect(ownedFates.lines == [
            "0.0: touch 1: passed → held back (it landed where an owning gesture may take it)",
            "20.0: touch 1: held back → owned (a gesture that owns its touches took it: the twin never sees it)",
        ])
        var (passed, passedFates) = filter(holdBack: .milliseconds(60))
        _ = play(f, through: &passed, telling: [:])
        _ = passed.deadlinePassed(.zero + .milliseconds(60))
        #expect(passedFates.lines.last == "60.0: touch 1: held back → passed (its hold-back is over)")
    }

    @Test func aWithheldLiftIsOwnedOrSettledOrMakesRoom() {
        // A double tap's first tap: its lift waits, then the second tap owns it.
        var (owned, ownedFates) = filter()
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100) }
        f.frame(60) { $0.up(0) }
        f.frame(150) { $0.down(0, id: 2, x: 100, y: 100) }
        _ = play(f, through: &owned, telling: [
            60: { $0.holdLift(slot: 0, contact: 1) },
            150: { $0.own(slot: 0, contact: 1) },
        ])
        #expect(ownedFates.lines == [
            "60.0: touch 1: passed → lift withheld (it lifted while an owning gesture may still take it)",
            "150.0: touch 1: lift withheld → owned (a gesture that owns its touches took it from the app)",
            "150.0: touch 1: owned → ended by cancel (libinput's cancel)",
        ])
        // The double tap fails: the lift goes.
        var (settled, settledFates) = filter()
        _ = play(tapFrames(liftAt: 60), through: &settled, telling: [60: { $0.holdLift(slot: 0, contact: 1) }])
        settled.settle(slot: 0, contact: 1)
        #expect(settledFates.lines.last == "60.0: touch 1: lift withheld → passed (no gesture will own it)")
    }

    @Test func aTouchThatLandsAndLiftsInOneFrameKeepsItsWithheldLiftWhileHeldBack() {
        var (filter, fates) = filter(holdBack: .milliseconds(60))
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 100, y: 100); $0.up(0) }
        #expect(play(f, through: &filter, telling: [0: { $0.holdLift(slot: 0, contact: 1) }]) == [])
        #expect(fates.lines == [
            "0.0: touch 1: passed → lift withheld (it lifted while an owning gesture may still take it)",
            "0.0: touch 1: lift withheld → held back, lift withheld (it landed where an owning gesture may take it)",
        ])
        // Its hold-back over, it reaches the twin, still down there until it is decided.
        #expect(twinLines(filter.deadlinePassed(.zero + .milliseconds(60))) == ["slot 0, id 1, x 100, y 100, touch 1"])
    }

    @Test func aHeldBackTouchsLiftCanBeWithheldTooAndOutlastItsHoldBack() {
        var (filter, fates) = filter(holdBack: .milliseconds(60))
        _ = play(tapFrames(liftAt: 40), through: &filter, telling: [40: { $0.holdLift(slot: 0, contact: 1) }])
        _ = filter.deadlinePassed(.zero + .milliseconds(60))
        filter.settle(slot: 0, contact: 1)
        #expect(fates.lines == [
            "0.0: touch 1: passed → held back (it landed where an owning gesture may take it)",
            "40.0: touch 1: held back → held back, lift withheld (it lifted while an owning gesture may still take it)",
            "60.0: touch 1: held back, lift withheld → lift withheld (its hold-back is over)",
            "60.0: touch 1: lift withheld → passed (no gesture will own it)",
        ])
    }
}
