import Foundation
import Testing
import TouchEvents
@testable import TouchRecordings

@Suite("evemu reader")
struct EvemuReaderTests {
    @Test func readsDescriptionAndEventsOfASingleFile() throws {
        let text = """
            # EVEMU 1.3
            # Input device name: "Test"
            #   Event type 3 (EV_ABS)
            #     Event code 47 (ABS_MT_SLOT)
            #       Value      1
            #     Event code 53 (ABS_MT_POSITION_X)
            #       Value    420
            """ + "\n" + evemuDescription + """
            E: 0.000001 0003 0039 0007\t# EV_ABS / ABS_MT_TRACKING_ID   7
            E: 0.000001 0003 0036 0250
            E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ----------
            # a comment between events
            E: 0.100000 0003 0039 -001
            E: 0.100000 0000 0000 0000

            """
        let path = writeTemporary("single.evemu", text)
        let recording = try Recording.load(path: path)
        #expect(recording.format == .evemu)
        let device = try recording.device(nil)
        let d = device.description
        #expect(d.name == "Test evemu Touchscreen")
        #expect(d.id == InputID(bustype: 0x18, vendor: 0, product: 0, version: 0))
        #expect(d.properties == [InputProperty.direct])
        #expect(d.kind == .touchscreen)
        #expect(d.touchProtocol == .slots(5))
        #expect(d.codes[EventType.key] == [KeyCode.touch])
        #expect(d.codes[EventType.abs] == [0, 1, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID])
        #expect(d.absInfo[AbsCode.mtPositionX] == AbsInfo(value: 420, minimum: 0, maximum: 1000))  // 4-field A: line
        #expect(d.absInfo[AbsCode.mtSlot]?.value == 1)
        #expect(device.events == [
            InputEvent(time: Instant(microseconds: 1), type: 3, code: 0x39, value: 7),
            InputEvent(time: Instant(microseconds: 1), type: 3, code: 0x36, value: 250),
            InputEvent(time: Instant(microseconds: 1), type: 0, code: 0, value: 0),
            InputEvent(time: Instant(microseconds: 100_000), type: 3, code: 0x39, value: -1),
            InputEvent(time: Instant(microseconds: 100_000), type: 0, code: 0, value: 0),
        ])
        #expect(device.eventLines == [26, 27, 28, 30, 31])

        // The header said slot 1 and x = 420: the contact is there without any ABS_MT_SLOT event.
        var frames: [TouchFrame] = []
        try device.decodeFrames(surface: TouchSurface(device: d)!, path: path) { frames.append($0) }
        #expect(frames.map { $0.contacts.map { "\($0.id)@\($0.slot) \($0.phase) \($0.deviceX),\($0.deviceY)" } } == [
            ["1@1 began 420,250"], ["1@1 ended 420,250"],
        ])
    }

    @Test func findsTheDescriptionBesideAnEventsFileByTheNamingConvention() throws {
        let folder = temporaryFolder()
        put(folder + "/Panel X.desc", evemuDescription)
        let events = "E: 1357751031.716015 0003 0039 3\nE: 1357751031.716015 0003 0035 0010\nE: 1357751031.716015 0000 0000 0\n"
        put(folder + "/Panel X.two-taps.events", events)
        let recording = try Recording.load(path: folder + "/Panel X.two-taps.events")
        #expect(recording.devices[0].description.name == "Test evemu Touchscreen")
        #expect(recording.devices[0].events.first?.time == Instant(microseconds: 1_357_751_031_716_015))

        #expect(Recording.descriptionCandidates(for: "/d/A B.c.d.events") == ["/d/A B.c.d.desc", "/d/A B.c.desc", "/d/A B.desc"])
    }

    @Test func anExplicitDescriptionIsUsed() throws {
        let folder = temporaryFolder()
        put(folder + "/other.txt", evemuDescription)
        put(folder + "/taps.events", "E: 0.5 0000 0000 0\n")
        let recording = try Recording.load(path: folder + "/taps.events", descPath: folder + "/other.txt")
        #expect(recording.devices[0].description.name == "Test evemu Touchscreen")
        #expect(recording.devices[0].events == [InputEvent(time: Instant(microseconds: 500_000), type: 0, code: 0, value: 0)])
    }

    @Test func eventsWithoutADescriptionSayWhatWasTried() {
        #expect(loadError("Panel.tap.events", "E: 0.000001 0000 0000 0000\n")
            == "Panel.tap.events: the file has events but no device description, and none was found beside it (tried \"Panel.tap.desc\", \"Panel.desc\"); pass --desc FILE")
    }
}
