import Foundation
import Testing
import TouchEvents
@testable import TouchRecordings

/// Every recording in fixtures/ replays without error, and the decoded frames say what
/// the recordings' names say.
@Suite("Fixtures")
struct FixtureTests {
    static let recordings: [String] = {
        let root = fixture("")
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }
        // fixtures/fuzz holds inputs that once crashed a fuzz target: bad input on purpose.
        return files.filter { ($0.hasSuffix(".events") || $0.hasSuffix(".yaml")) && !$0.hasPrefix("golden/") && !$0.hasPrefix("fuzz/") }.sorted()
    }()

    static let descriptions: [String] = {
        let root = fixture("")
        return FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".desc") }.sorted()
    }()

    @Test func thereAreFixtures() {
        #expect(Self.recordings.count >= 50)
        #expect(Self.descriptions.count >= 20)
    }

    /// Continuations of a touch begun in another file (xorg-integration-tests replays them
    /// after their "-down"/"_begin" part): alone they lift contacts never seen to begin.
    static let fragments: Set<String> = [
        "recordings/xorg-integration-tests/tablets/N-Trig-MultiTouch.touch_1_end.events",
        "recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.one-finger-up.events",
        "recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-up.events",
    ]

    @Test(arguments: recordings)
    func replaysWithoutError(_ name: String) throws {
        let summary = try decodeSummary(name)
        if Self.fragments.contains(name) {
            #expect(summary.frames == 0, "\(name) is a fragment: it begins no contact")
        } else {
            #expect(summary.frames > 0, "\(name) decoded no frames")
        }
        #expect(summary.dangling == 0, "\(name) left contacts without ended/cancelled")
    }

    @Test(arguments: descriptions)
    func everyDescriptionIsATouchDevice(_ name: String) throws {
        let recording = try Recording.load(path: fixture(name))
        let d = try #require(recording.devices.first?.description)
        #expect(d.isTouchDevice, "\(name): \(d.kind)")
        let expected: DeviceKind = name.contains("touchscreens/") ? .touchscreen : .touchpad
        if !name.contains("tablets/") { #expect(d.kind == expected, "\(name)") }
    }

    struct Summary {
        var frames = 0
        var contacts = Set<Int>()
        var maxFingers = 0
        var maxActive = 0
        var maxTools = 0
        var dangling = 0
        var cancelled = 0
    }

    func decodeSummary(_ name: String) throws -> Summary {
        let recording = try Recording.load(path: fixture(name))
        if recording.devices.allSatisfy({ !$0.description.isTouchDevice }) {
            // A keyboard on purpose (the real-kernel lane types on it): nothing to decode.
            #expect(throws: RecordingError.self) { try recording.device(nil) }
            return Summary(frames: 1)
        }
        let device = try recording.device(nil)
        var s = Summary()
        var open = Set<Int>()
        try device.decodeFrames(surface: TouchSurface(device: device.description)!, path: name) { frame in
            s.frames += 1
            s.maxFingers = max(s.maxFingers, frame.fingerCount)
            s.maxActive = max(s.maxActive, frame.activeContactCount)
            s.maxTools = max(s.maxTools, frame.toolFingerCount)
            for c in frame.contacts {
                s.contacts.insert(c.id)
                if c.phase.isFinal { open.remove(c.id) } else { open.insert(c.id) }
                if c.phase == .cancelled { s.cancelled += 1 }
            }
        }
        s.dangling = open.count
        return s
    }

    @Test func fourFingerDragHasFourContactsAtOnce() throws {
        let s = try decodeSummary("recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        #expect(s.maxActive == 4)
        #expect(s.contacts.count == 4)
        #expect(s.cancelled == 0)
    }

    @Test func fastTapsAreSeparateOneFingerContacts() throws {
        let s = try decodeSummary("recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events")
        #expect(s.maxActive == 1)
        #expect(s.contacts.count == 9)  // 9 tracking ids, 9 lifts in the file
    }

    @Test func twoFingerRecordingsHaveTwoContacts() throws {
        for name in ["recordings/evemu-devices/touchscreens/EP0430M09.2-fingers-touch-release.events",
                     "recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.2-fingers-touch-release.events",
                     "recordings/evemu-devices/touchscreens/N-Trig MultiTouch.2-fingers-touch-release.events"] {
            let s = try decodeSummary(name)
            #expect(s.maxActive == 2, "\(name)")
        }
    }

    @Test func threeFingersOnATwoSlotTouchpadCountThroughToolKeys() throws {
        let s = try decodeSummary("recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_press.events")
        #expect(s.maxActive == 2)
        #expect(s.maxTools == 3)
        #expect(s.maxFingers == 3)
    }

    @Test func syntheticCases() throws {
        let ten = try decodeSummary("synthetic/10-finger-drag-down.yaml")
        #expect(ten.maxActive == 10 && ten.contacts.count == 10 && ten.cancelled == 0)
        let dropped = try decodeSummary("synthetic/syn-dropped-mid-gesture.yaml")
        #expect(dropped.contacts.count == 3 && dropped.cancelled == 2)
        let palm = try decodeSummary("synthetic/palm-during-touch.yaml")
        #expect(palm.contacts.count == 2 && palm.cancelled == 1)
        let protocolA = try decodeSummary("synthetic/protocol-a-two-fingers.yaml")
        #expect(protocolA.contacts.count == 2 && protocolA.maxActive == 2)
    }
}
