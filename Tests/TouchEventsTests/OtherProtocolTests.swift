import Testing
import TouchEvents

@Suite("Protocol A and single-touch decoding")
struct OtherProtocolTests {
    @Test func protocolAMatchesContactsByNearestPosition() throws {
        var s = Script()
        s.frame(0, [S.x(100), S.y(100), S.mtReport, S.key(KeyCode.touch, 1)])
        s.frame(10, [S.x(100), S.y(110), S.mtReport, S.x(800), S.y(100), S.mtReport])
        s.frame(20, [S.x(790), S.y(120), S.mtReport, S.x(105), S.y(120), S.mtReport])  // swapped order
        s.frame(30, [S.x(780), S.y(130), S.mtReport])  // the left finger lifted
        s.frame(40, [S.mtReport, S.key(KeyCode.touch, 0)])
        #expect(try decodeLog(TestDevices.anonymous, s.events) == [
            "0ms f1 | 1@0 began 10.0,10.0",
            "10ms f2 | 1@0 moved 10.0,11.0 | 2@1 began 80.0,10.0",
            "20ms f2 | 1@0 moved 10.5,12.0 | 2@1 moved 79.0,12.0",
            "30ms f1 | 1@0 ended 10.5,12.0 | 2@1 moved 78.0,13.0",
            "40ms f0 | 2@1 ended 78.0,13.0",
        ])
    }

    @Test func protocolAFramesWithoutContactDataChangeNothing() throws {
        var s = Script()
        s.frame(0, [S.x(100), S.y(100), S.mtReport])
        s.frame(10, [S.key(KeyCode.left, 1)])
        s.frame(20, [S.key(KeyCode.touch, 0)])
        #expect(try decodeLog(TestDevices.anonymous, s.events) == [
            "0ms f1 | 1@0 began 10.0,10.0",
            "10ms f1 | 1@0 stationary 10.0,10.0",
            "20ms f0 | 1@0 ended 10.0,10.0",
        ])
    }

    /// hid-ntrig touchscreens report every finger with `BTN_TOOL_DOUBLETAP` (the public N-Trig
    /// one-finger drag): a protocol-A device's contacts are its fingers, whatever `BTN_TOOL_*` says.
    @Test func protocolAFingersAreItsContactsNotItsToolKeys() throws {
        var s = Script()
        s.frame(0, [S.x(100), S.y(100), S.mtReport, S.key(KeyCode.toolDoubleTap, 1), S.key(KeyCode.touch, 1)])
        s.frame(10, [S.x(120), S.y(100), S.mtReport])
        s.frame(20, [S.mtReport, S.key(KeyCode.toolDoubleTap, 0), S.key(KeyCode.touch, 0)])
        #expect(try decodeLog(TestDevices.anonymous, s.events) == [
            "0ms f1 | 1@0 began 10.0,10.0",
            "10ms f1 | 1@0 moved 12.0,10.0",
            "20ms f0 | 1@0 ended 12.0,10.0",
        ])
    }

    @Test func protocolAUsesTrackingIDsWhenPresent() throws {
        var s = Script()
        s.frame(0, [S.id(1), S.x(100), S.y(100), S.mtReport, S.id(2), S.x(120), S.y(100), S.mtReport])
        // Nearest position would swap them; the ids say they did cross.
        s.frame(10, [S.id(2), S.x(108), S.y(100), S.mtReport, S.id(1), S.x(112), S.y(100), S.mtReport])
        #expect(try decodeLog(TestDevices.anonymous, s.events, finish: false) == [
            "0ms f2 | 1@0 began 10.0,10.0 | 2@1 began 12.0,10.0",
            "10ms f2 | 1@0 moved 11.2,10.0 | 2@1 moved 10.8,10.0",
        ])
    }

    @Test func protocolABoundsTheContactsOfOneFrame() {
        var s = Script()
        var items: [(UInt16, UInt16, Int32)] = []
        for i in 0...TouchDecoder.maximumAnonymousContacts { items += [S.x(Int32(i)), S.y(0), S.mtReport] }
        s.frame(0, items)
        #expect(throws: DecodeError.tooManyContacts(count: 65, limit: 64)) {
            try decodeLog(TestDevices.anonymous, s.events)
        }
    }

    @Test func singleTouchPanelsGiveOneContact() throws {
        var s = Script()
        s.frame(0, [(EventType.abs, AbsCode.x, 2000), (EventType.abs, AbsCode.y, 1000), S.key(KeyCode.touch, 1)])
        s.frame(10, [(EventType.abs, AbsCode.x, 2100)])
        s.frame(20, [(EventType.abs, AbsCode.pressure, 9)])
        s.frame(25, [])
        s.frame(30, [S.key(KeyCode.touch, 0)])
        s.frame(40, [(EventType.abs, AbsCode.x, 10), S.key(KeyCode.touch, 1)])
        s.frame(50, [S.key(KeyCode.touch, 0)])
        // 200 x 100 mm given for 4000 x 2000 units: 20 units/mm.
        #expect(try decodeLog(TestDevices.singleTouch, s.events, size: SurfaceSize(width: 200, height: 100)) == [
            "0ms f1 | 1@0 began 100.0,50.0 p0",
            "10ms f1 | 1@0 moved 105.0,50.0 p0",
            "20ms f1 | 1@0 moved 105.0,50.0 p9",
            "25ms f1 | 1@0 stationary 105.0,50.0 p9",
            "30ms f0 | 1@0 ended 105.0,50.0 p9",
            "40ms f1 | 2@0 began 0.5,50.0 p9",
            "50ms f0 | 2@0 ended 0.5,50.0 p9",
        ])
    }

    @Test func singleTouchAfterDroppedEventsStartsANewContact() throws {
        var s = Script()
        s.frame(0, [(EventType.abs, AbsCode.x, 2000), (EventType.abs, AbsCode.y, 1000), S.key(KeyCode.touch, 1)])
        s.frame(10, [S.dropped, (EventType.abs, AbsCode.x, 1)])
        s.frame(20, [(EventType.abs, AbsCode.x, 2200)])
        s.frame(30, [S.key(KeyCode.touch, 0)])
        #expect(try decodeLog(TestDevices.singleTouch, s.events, size: SurfaceSize(width: 200, height: 100)) == [
            "0ms f1 | 1@0 began 100.0,50.0 p0",
            "10ms f0 | 1@0 cancelled 100.0,50.0 p0",
            "20ms f1 | 2@0 began 110.0,50.0 p0",
            "30ms f0 | 2@0 ended 110.0,50.0 p0",
        ])
    }
}
