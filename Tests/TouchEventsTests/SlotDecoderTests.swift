import Testing
import TouchEvents

typealias S = Script

@Suite("Protocol B decoding")
struct SlotDecoderTests {
    @Test func twoFingersBeginMoveRestAndLift() throws {
        var s = Script()
        s.frame(0, [S.slot(0), S.id(10), S.x(100), S.y(200), S.pressure(30)])
        s.frame(10, [S.slot(1), S.id(11), S.x(500), S.y(250), S.pressure(40)])
        s.frame(20, [S.slot(0), S.x(110)])
        s.frame(30, [S.slot(1), S.pressure(45)])
        s.frame(40, [S.slot(0), S.id(-1)])
        s.frame(50, [S.slot(1), S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [
            "0ms f1 | 1@0 began 10.0,20.0 p30",
            "10ms f2 | 1@0 stationary 10.0,20.0 p30 | 2@1 began 50.0,25.0 p40",
            "20ms f2 | 1@0 moved 11.0,20.0 p30 | 2@1 stationary 50.0,25.0 p40",
            "30ms f2 | 1@0 stationary 11.0,20.0 p30 | 2@1 moved 50.0,25.0 p45",
            "40ms f1 | 1@0 ended 11.0,20.0 p30 | 2@1 stationary 50.0,25.0 p45",
            "50ms f0 | 2@1 ended 50.0,25.0 p45",
        ])
    }

    @Test func everySlotInUseIsReportedAsTheHighestOnesComeAndGo() throws {
        // A frame looks only at the slots below the highest one in use: a contact in a low
        // slot goes on when a higher one lifts, and a new highest one is seen at once.
        var s = Script()
        s.frame(0, [S.slot(7), S.id(10), S.x(100), S.y(100)])
        s.frame(10, [S.slot(2), S.id(11), S.x(200), S.y(200)])
        s.frame(20, [S.slot(7), S.id(-1)])
        s.frame(30, [S.slot(2), S.x(210)])
        s.frame(40, [S.slot(9), S.id(12), S.x(300), S.y(300)])
        s.frame(50, [S.slot(9), S.id(-1), S.slot(2), S.id(-1)])
        s.frame(60, [S.slot(0), S.id(13), S.x(400), S.y(400)])
        #expect(try decodeLog(TestDevices.touchscreen(slots: 10), s.events) == [
            "0ms f1 | 1@7 began 10.0,10.0 p0",
            "10ms f2 | 2@2 began 20.0,20.0 p0 | 1@7 stationary 10.0,10.0 p0",
            "20ms f1 | 2@2 stationary 20.0,20.0 p0 | 1@7 ended 10.0,10.0 p0",
            "30ms f1 | 2@2 moved 21.0,20.0 p0",
            "40ms f2 | 2@2 stationary 21.0,20.0 p0 | 3@9 began 30.0,30.0 p0",
            "50ms f0 | 2@2 ended 21.0,20.0 p0 | 3@9 ended 30.0,30.0 p0",
            "60ms f1 | 4@0 began 40.0,40.0 p0",
            "60ms f0 | 4@0 cancelled 40.0,40.0 p0",
        ])
    }

    @Test func startsInTheSlotTheDescriptionSays() throws {
        // evemu-record writes the current slot only in its header: no ABS_MT_SLOT event comes first.
        var s = Script()
        s.frame(0, [S.id(5), S.x(300), S.y(100)])
        s.frame(5, [S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(startSlot: 3), s.events) == [
            "0ms f1 | 1@3 began 30.0,10.0 p0",
            "5ms f0 | 1@3 ended 30.0,10.0 p0",
        ])
    }

    @Test func aNewContactKeepsTheSlotsLastPosition() throws {
        // The kernel only sends what changed: a finger landing where the last one lifted sends no X/Y.
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(100), S.y(100)])
        s.frame(10, [S.id(-1)])
        s.frame(20, [S.id(2)])
        s.frame(30, [S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [
            "0ms f1 | 1@0 began 10.0,10.0 p0",
            "10ms f0 | 1@0 ended 10.0,10.0 p0",
            "20ms f1 | 2@0 began 10.0,10.0 p0",
            "30ms f0 | 2@0 ended 10.0,10.0 p0",
        ])
    }

    @Test func aContactThatBeginsAndEndsInOneFrameIsSeenToBegin() throws {
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(100), S.y(100)])
        s.frame(10, [S.slot(1), S.id(2), S.x(200), S.y(100), S.id(-1)])
        s.frame(20, [S.slot(0), S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [
            "0ms f1 | 1@0 began 10.0,10.0 p0",
            "10ms f2 | 1@0 stationary 10.0,10.0 p0 | 2@1 began 20.0,10.0 p0",
            "10ms f1 | 1@0 stationary 10.0,10.0 p0 | 2@1 ended 20.0,10.0 p0",
            "20ms f0 | 1@0 ended 10.0,10.0 p0",
        ])
    }

    @Test func aPalmIsCancelledAndThenIgnoredUntilItLifts() throws {
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(100), S.y(100)])
        s.frame(10, [S.slot(0), S.tool(MTToolType.palm), S.x(120)])
        s.frame(20, [S.slot(0), S.x(140)])
        s.frame(30, [S.slot(0), S.id(-1)])
        s.frame(40, [S.slot(0), S.id(2), S.tool(MTToolType.finger), S.x(300)])
        s.frame(50, [S.slot(0), S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [
            "0ms f1 | 1@0 began 10.0,10.0 p0",
            "10ms f0 | 1@0 cancelled 12.0,10.0 p0",
            "40ms f1 | 2@0 began 30.0,10.0 p0",
            "50ms f0 | 2@0 ended 30.0,10.0 p0",
        ])
    }

    @Test func aContactThatIsAPalmFromTheStartIsNeverReported() throws {
        var s = Script()
        s.frame(0, [S.slot(1), S.id(7), S.tool(MTToolType.palm), S.x(100), S.y(100)])
        s.frame(10, [S.slot(1), S.x(150)])
        s.frame(20, [S.slot(1), S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [])
    }

    @Test func synDroppedCancelsEveryContactAndWaitsForNewTrackingIDs() throws {
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(100), S.y(100), S.slot(1), S.id(2), S.x(200), S.y(100)])
        s.frame(10, [S.slot(0), S.x(110), S.dropped, S.slot(1), S.x(220)])  // events after the drop are lost
        s.frame(20, [S.slot(1), S.x(230)])  // state unknown: ignored
        s.frame(30, [S.slot(0), S.id(-1), S.slot(1), S.id(-1)])
        s.frame(40, [S.slot(1), S.id(3), S.x(400)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [
            "0ms f2 | 1@0 began 10.0,10.0 p0 | 2@1 began 20.0,10.0 p0",
            "10ms f0 | 1@0 cancelled 11.0,10.0 p0 | 2@1 cancelled 20.0,10.0 p0",
            "40ms f1 | 3@1 began 40.0,10.0 p0",
            "40ms f0 | 3@1 cancelled 40.0,10.0 p0",
        ])
    }

    @Test func resynchronizePolicyTrustsTheSyncEvents() throws {
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(100), S.y(100)])
        s.events.append(InputEvent(time: .zero + .milliseconds(5), type: EventType.syn, code: SynCode.dropped, value: 0))
        s.frame(10, [S.slot(0), S.x(150)])  // libevdev's sync delta
        s.frame(20, [S.slot(0), S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events, policy: .resynchronize) == [
            "0ms f1 | 1@0 began 10.0,10.0 p0",
            "10ms f1 | 1@0 moved 15.0,10.0 p0",
            "20ms f0 | 1@0 ended 15.0,10.0 p0",
        ])
    }

    @Test func aRecordingThatStopsMidTouchLeavesNoContactDangling() throws {
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(100), S.y(100)])
        s.frame(10, [S.slot(0), S.x(110)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [
            "0ms f1 | 1@0 began 10.0,10.0 p0",
            "10ms f1 | 1@0 moved 11.0,10.0 p0",
            "10ms f0 | 1@0 cancelled 11.0,10.0 p0",
        ])
    }

    @Test func toolKeysCountFingersBeyondTheSlots() throws {
        // A 2-slot touchpad: the third finger exists only as BTN_TOOL_TRIPLETAP.
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(100), S.y(100), S.key(KeyCode.toolFinger, 1)])
        s.frame(10, [S.slot(1), S.id(2), S.x(300), S.y(100), S.key(KeyCode.toolFinger, 0), S.key(KeyCode.toolDoubleTap, 1)])
        s.frame(20, [S.key(KeyCode.toolDoubleTap, 0), S.key(KeyCode.toolTripleTap, 1)])
        s.frame(30, [S.slot(0), S.id(-1), S.slot(1), S.id(-1)])
        s.frame(40, [S.key(KeyCode.toolTripleTap, 0)])
        #expect(try decodeLog(TestDevices.touchpad, s.events) == [
            "0ms f1 tools1 | 1@0 began 10.0,10.0",
            "10ms f2 tools2 | 1@0 stationary 10.0,10.0 | 2@1 began 30.0,10.0",
            "20ms f3 tools3 | 1@0 stationary 10.0,10.0 | 2@1 stationary 30.0,10.0",
            "30ms f3 tools3 | 1@0 ended 10.0,10.0 | 2@1 ended 30.0,10.0",
            "40ms f0",
        ])
    }

    @Test func slotOutOfRangeIsAnError() {
        var s = Script()
        s.frame(0, [S.slot(5), S.id(1)])
        #expect(throws: DecodeError.slotOutOfRange(slot: 5, slotCount: 5)) {
            try decodeLog(TestDevices.touchscreen(slots: 5), s.events)
        }
        #expect(DecodeError.slotOutOfRange(slot: 5, slotCount: 5).description
            == "ABS_MT_SLOT 5 is out of range: the device has 5 slots (0-4)")
    }

    /// A new tracking id on a slot that still has a contact (no -1 in between, as an evtest
    /// recording that begins without ABS_MT_SLOT gives): the old contact ends in a frame of
    /// its own, then the new one begins with the slot's new values, at the same time, and
    /// decoding goes on (issue 65, item 7). The same id again changes nothing.
    @Test func aTrackingIDOnAnOccupiedSlotEndsItsContactAndBeginsAnother() throws {
        var s = Script()
        s.frame(0, [S.slot(2), S.id(1), S.x(10), S.y(10)])
        s.frame(10, [S.slot(2), S.id(1), S.x(20)])
        s.frame(20, [S.slot(2), S.id(4), S.x(300), S.y(200)])
        s.frame(30, [S.slot(2), S.x(310)])
        s.frame(40, [S.slot(2), S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [
            "0ms f1 | 1@2 began 1.0,1.0 p0",
            "10ms f1 | 1@2 moved 2.0,1.0 p0",
            "20ms f0 | 1@2 ended 2.0,1.0 p0",
            "20ms f1 | 2@2 began 30.0,20.0 p0",
            "30ms f1 | 2@2 moved 31.0,20.0 p0",
            "40ms f0 | 2@2 ended 31.0,20.0 p0",
        ])
    }

    /// On a touchpad with no pressure per contact, `BTN_TOUCH` says whether it is touched (the
    /// kernel driver sets it by the whole touch's pressure): once it goes up, the contact has
    /// ended where it was, and what follows — the point sliding as the finger lifts — is no
    /// motion; a contact landing with the key up waits for it, and begins as a new contact
    /// when it goes down (issue 65, items 4 and 1; libinput's touches over `BTN_TOUCH`).
    @Test func onATouchpadWithoutPressureBTNTouchSaysWhatTouches() throws {
        let touch = KeyCode.touch
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(300), S.y(200), S.key(touch, 1), S.key(KeyCode.toolFinger, 1)])
        s.frame(13, [S.x(310)])
        s.frame(26, [S.x(320), S.key(touch, 0)])
        s.frame(39, [S.x(360)])
        s.frame(52, [S.id(-1), S.key(KeyCode.toolFinger, 0)])
        // Hovering from the start (a thumb above the pad), then touching.
        s.frame(500, [S.id(2), S.x(600), S.y(300), S.key(KeyCode.toolFinger, 1)])
        s.frame(513, [S.x(620)])
        s.frame(526, [S.x(630), S.key(touch, 1)])
        s.frame(539, [S.x(640)])
        s.frame(552, [S.id(-1), S.key(touch, 0), S.key(KeyCode.toolFinger, 0)])
        #expect(try decodeLog(TestDevices.touchpad, s.events) == [
            "0ms f1 tools1 | 1@0 began 30.0,20.0",
            "13ms f1 tools1 | 1@0 moved 31.0,20.0",
            "26ms f1 tools1 | 1@0 ended 32.0,20.0",
            "52ms f0",
            "500ms f1 tools1",
            // Contact 2 hovered; touching, it is a new one.
            "526ms f1 tools1 | 3@0 began 63.0,30.0",
            "539ms f1 tools1 | 3@0 moved 64.0,30.0",
            "552ms f0 | 3@0 ended 64.0,30.0",
        ])
        // Every key released at once with the contact still held: the input core releasing an
        // unplugged device's keys. No lift: the removal cancels it.
        var unplugged = Script()
        unplugged.frame(0, [S.slot(0), S.id(1), S.x(300), S.y(200), S.key(touch, 1), S.key(KeyCode.toolFinger, 1)])
        unplugged.frame(13, [S.x(310)])
        unplugged.frame(20, [S.key(touch, 0), S.key(KeyCode.toolFinger, 0)])
        #expect(try decodeLog(TestDevices.touchpad, unplugged.events) == [
            "0ms f1 tools1 | 1@0 began 30.0,20.0",
            "13ms f1 tools1 | 1@0 moved 31.0,20.0",
            "20ms f1 | 1@0 stationary 31.0,20.0",
            "20ms f0 | 1@0 cancelled 31.0,20.0",
        ])
        // A pad that never sends BTN_TOUCH (a recording that began with it down) is not gated.
        var quiet = Script()
        quiet.frame(0, [S.slot(0), S.id(1), S.x(300), S.y(200)])
        quiet.frame(13, [S.x(310)])
        quiet.frame(26, [S.id(-1)])
        #expect(try decodeLog(TestDevices.touchpad, quiet.events) == [
            "0ms f1 | 1@0 began 30.0,20.0",
            "13ms f1 | 1@0 moved 31.0,20.0",
            "26ms f0 | 1@0 ended 31.0,20.0",
        ])
    }

    /// A position half a pad or more beyond its axis range is corrupt (issue 65, item 6: a
    /// first report whose y is 6 times the maximum): dropped. The contact begins at its first
    /// real one; a contact already reported stays where it was; one that never has a real
    /// position is never reported. A little past the range is a real report.
    @Test func aPositionFarBeyondItsAxisIsDropped() throws {
        var s = Script()
        s.frame(0, [S.slot(0), S.id(1), S.x(300), S.y(3000)])
        s.frame(12, [S.y(200)])
        s.frame(24, [S.y(520)])
        s.frame(36, [S.y(-900)])
        s.frame(48, [S.id(-1)])
        s.frame(60, [S.id(2), S.x(100), S.y(6 * 500)])
        s.frame(72, [S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), s.events) == [
            "12ms f1 | 1@0 began 30.0,20.0 p0",
            "24ms f1 | 1@0 moved 30.0,52.0 p0",
            "36ms f1 | 1@0 stationary 30.0,52.0 p0",
            "48ms f0 | 1@0 ended 30.0,52.0 p0",
        ])
        // A contact that begins and is replaced in one frame by one with a corrupt position
        // (found by fuzzing): the first begins and ends; the second waits, in neither frame.
        var replaced = Script()
        replaced.frame(0, [S.slot(0), S.id(5), S.x(100), S.y(100), S.id(6), S.y(9000)])
        replaced.frame(12, [S.id(-1)])
        #expect(try decodeLog(TestDevices.touchscreen(), replaced.events) == [
            "0ms f1 | 1@0 began 10.0,10.0 p0",
            "0ms f0 | 1@0 ended 10.0,10.0 p0",
        ])
    }

    @Test func timeMustNotGoBackwardsOrBeNegative() {
        var s = Script()
        s.frame(10, [S.slot(0), S.id(1)])
        s.frame(9, [S.slot(0), S.id(-1)])
        #expect(throws: DecodeError.timeWentBackwards(previous: .zero + .milliseconds(10), current: .zero + .milliseconds(9))) {
            try decodeLog(TestDevices.touchscreen(), s.events)
        }
        let negative = [InputEvent(time: Instant(microseconds: -1), type: EventType.abs, code: AbsCode.mtSlot, value: 0)]
        #expect(throws: DecodeError.negativeTime(Instant(microseconds: -1))) {
            try decodeLog(TestDevices.touchscreen(), negative)
        }
    }
}
