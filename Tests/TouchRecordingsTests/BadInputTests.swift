import Foundation
import Testing
import TouchEvents
@testable import TouchRecordings

/// Every kind of bad input gives `FILE:LINE: what is wrong` and nothing else.
@Suite("Bad input")
struct BadInputTests {
    @Test func emptyFile() {
        #expect(loadError("empty.yaml", "") == "empty.yaml:1: the file is empty")
        #expect(loadError("blank.events", "  \n\n") == "blank.events:1: the file is empty")
    }

    @Test func missingFile() {
        do {
            _ = try Recording.load(path: "/nonexistent/x.yaml")
            Issue.record("no error")
        } catch {
            #expect(error.description == "/nonexistent/x.yaml: cannot open: No such file or directory")
        }
    }

    @Test func binaryJunk() {
        var junk = Data("# libinput record\nversion: 1\n".utf8)
        junk.append(contentsOf: [0x00, 0xff, 0x13, 0x37])
        #expect(loadError("junk.yaml", junk) == "junk.yaml:3: binary data (a NUL byte): not a recording")
        #expect(loadError("junk2", Data([0xde, 0xad, 0xbe, 0xef, 0x0a, 0x41]))
            == "junk2:1: not a recording: expected libinput record YAML (\"version: 1\") or evemu text (N:, I:, B:, A:, E: lines)")
        #expect(loadError("prose.txt", "Hello,\nthis is not a recording.\n")
            == "prose.txt:1: not a recording: expected libinput record YAML (\"version: 1\") or evemu text (N:, I:, B:, A:, E: lines)")
    }

    @Test func truncatedFiles() {
        // Cut inside a frame: no SYN_REPORT after the last events.
        let cut = libinputRecording(events: """
              - evdev:
                - [  0,      0,   3,  57,     5]
                - [  0,      0,   3,  53,   100]
            """)
        #expect(loadError("cut.yaml", cut)
            == "cut.yaml:36: the recording ends inside a frame (no SYN_REPORT after the last events): truncated file?")
        // Cut inside an event line.
        #expect(loadError("cut2.yaml", libinputRecording(events: "  - evdev:\n    - [  0,      0,   3,  5"))
            == "cut2.yaml:35:28: expected \",\" between the event's fields")
        // Cut before the second device.
        #expect(loadError("cut3.yaml", libinputRecording(events: oneTouchFrame).replacingOccurrences(of: "ndevices: 1", with: "ndevices: 2"))
            == "cut3.yaml:3:11: ndevices is 2 but the file has 1 device(s): truncated file?")
        // evemu cut in the middle of an event.
        #expect(loadError("cut.evemu", evemuDescription + "E: 0.000001 0003 0039 0003\nE: 0.000001 00")
            == "cut.evemu:20:15: E: expects the event code in hexadecimal")
    }

    @Test func wrongVersion() {
        #expect(loadError("v2.yaml", libinputRecording(events: oneTouchFrame, version: "2"))
            == "v2.yaml:2:10: unsupported libinput recording version 2: this reader knows version 1")
        #expect(loadError("v2.evemu", "# EVEMU 2.0\n" + evemuDescription)
            == "v2.evemu:1:9: unsupported evemu version 2.0: this reader knows 1.0 to 1.3")
    }

    @Test func eventsBeforeTheDeviceBlock() {
        #expect(loadError("early.evemu", "E: 0.000001 0000 0000 0000\n" + evemuDescription)
            == "early.evemu:3: device description after events: N:, I:, P:, B: and A: lines must come before the first E: line (line 1)")
        let yaml = """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event1
              events:
              - evdev:
                - [0, 0, 0, 0, 0]
              evdev:
                name: "x"
                id: [1, 2, 3, 4]
            """
        #expect(loadError("early.yaml", yaml)
            == "early.yaml:5: events before the device description: \"events:\" must come after \"evdev:\" (line 9)")
        let topLevel = "version: 1\nevents:\n- evdev:\n  - [0, 0, 0, 0, 0]\nndevices: 0\ndevices: []\n"
        #expect(loadError("stray.yaml", topLevel)
            == "stray.yaml:2: an events list outside a device (events belong under a device in \"devices:\", after its evdev description)")
    }

    @Test func unknownEventType() {
        #expect(loadError("type.yaml", libinputRecording(events: "  - evdev:\n    - [  0,      0,  30,  57,     5]\n"))
            == "type.yaml:35:22: unknown event type 30")
        #expect(loadError("type.evemu", evemuDescription + "E: 0.000001 001e 0039 0003\n")
            == "type.evemu:19:13: unknown event type 0x1e")
    }

    @Test func slotBeyondTheSlotCount() {
        let events = "  - evdev:\n    - [  0,      0,   3,  47,     2]\n    - [  0,      0,   0,   0,     0]\n"
        #expect(loadError("slot.yaml", libinputRecording(events: events))
            == "slot.yaml:35: ABS_MT_SLOT 2 is out of range: the device has 2 slots (0-1)")
    }

    /// A new tracking id on a slot that still has one is no bad input: the kernel passes it on
    /// (the old contact ended, a new one began), and the recording loads.
    @Test func trackingIDOnASlotThatHasOneIsNoError() {
        let events = oneTouchFrame + "\n  - evdev:\n    - [  0,  10000,   3,  57,     6]\n    - [  0,  10000,   0,   0,     0]\n"
        #expect(loadError("tid.yaml", libinputRecording(events: events)) == nil)
    }

    /// Found by the libinput-record fuzz target: a negative type trapped converting to UInt16.
    @Test func negativeEventType() {
        #expect(loadError("type.yaml", libinputRecording(events: "  - evdev:\n    - [  0,      0,  -1,   0,     0]\n"))
            == "type.yaml:35:22: unknown event type -1")
    }

    /// Found by the evemu fuzz target: seconds times a million overflowed.
    @Test func timestampsTooLargeForMicroseconds() {
        #expect(loadError("big.yaml", libinputRecording(events: "  - evdev:\n    - [ 99999999999999,      0,   0,   0,     0]\n"))
            == "big.yaml:35:9: timestamp 99999999999999 s is too large (at most 9000000000000 s)")
        #expect(loadError("big.evemu", evemuDescription + "E: 99999999999999.000000 0000 0000 0000\n")
            == "big.evemu:19:4: timestamp 99999999999999 s is too large (at most 9000000000000 s)")
    }

    @Test func negativeAndDecreasingTimestamps() {
        #expect(loadError("neg.yaml", libinputRecording(events: "  - evdev:\n    - [ -1,      0,   0,   0,     0]\n"))
            == "neg.yaml:35:9: negative timestamp")
        #expect(loadError("neg.evemu", evemuDescription + "E: -0.000100 0000 0000 0000\n")
            == "neg.evemu:19:4: negative timestamp")
        let backwards = oneTouchFrame.replacingOccurrences(of: "[  0,      0,", with: "[  2,      0,")
            + "\n  - evdev:\n    - [  1, 999999,   0,   0,     0]\n"
        #expect(loadError("back.yaml", libinputRecording(events: backwards))
            == "back.yaml:41: timestamp 1.999999s is earlier than the event before it (2.000000s)")
        #expect(loadError("back.evemu", evemuDescription + "E: 5.000000 0000 0000 0000\nE: 4.000000 0000 0000 0000\n")
            == "back.evemu:20: timestamp 4.000000s is earlier than the event before it (5.000000s)")
        #expect(loadError("usec.yaml", libinputRecording(events: "  - evdev:\n    - [  0, 1000000,   0,   0,     0]\n"))
            == "usec.yaml:35:13: microseconds must be below 1000000, found 1000000")
    }

    @Test func valuesOutsideInt32() {
        #expect(loadError("big.yaml", libinputRecording(events: "  - evdev:\n    - [  0,      0,   3,  53, 2147483648]\n"))
            == "big.yaml:35:31: value 2147483648 is outside the 32-bit range of an event value")
        #expect(loadError("big.evemu", evemuDescription + "E: 0.000001 0003 0035 -2147483649\n")
            == "big.evemu:19:23: value -2147483649 is outside the 32-bit range of an event value")
        #expect(loadError("bigA.evemu", evemuDescription.replacingOccurrences(of: "A: 00 0 1000", with: "A: 00 0 99999999999"))
            == "bigA.evemu:13:9: A: values must be integers within 32 bits")
    }

    @Test func malformedStructure() {
        #expect(loadError("yaml.yaml", "version: 1\ndevices: [\n")
            == "yaml.yaml:3:1: invalid YAML: while parsing a flow node did not find expected node content")
        #expect(loadError("noname.yaml", libinputRecording(events: oneTouchFrame).replacingOccurrences(of: "    name: \"Test Touchscreen\"\n", with: ""))
            == "noname.yaml:14:5: the device has no name")
        #expect(loadError("flow.yaml", libinputRecording(events: "  - evdev: [[0, 0, 0, 0, 0]]\n"))
            == "flow.yaml:34:12: expected the frame's events as a block list under \"- evdev:\" (one \"- [sec, usec, type, code, value]\" per line)")
        #expect(loadError("six.yaml", libinputRecording(events: "  - evdev:\n    - [0, 0, 0, 0, 0, 0]\n"))
            == "six.yaml:35:21: an event has 5 fields [sec, usec, type, code, value]; found more")
        #expect(loadError("line.evemu", evemuDescription + "X: 1 2 3\n")
            == "line.evemu:19: unknown evemu line type \"X\" (expected N:, I:, P:, B:, A: or E:)")
        #expect(loadError("a3.evemu", evemuDescription + "A: 3a 0 255 0\n")
            == "a3.evemu:19: A: expects 4 or 5 values after the code (min max fuzz flat [resolution]), found 3")
        #expect(loadError("noid.evemu", "N: Foo\nB: 00 0b\n")
            == "noid.evemu:1: incomplete device description: no I: (ids) line")
    }

    @Test func aRecordingWithoutATouchDevice() {
        let keyboard = """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "AT Translated Set 2 keyboard"
                id: [17, 1, 1, 43841]
                codes:
                  0: [0, 1, 4, 17, 20]
                  1: [1, 2, 3, 30]
                properties: []
              events:
              - evdev:
                - [  0,      0,   1,  30,     1]
                - [  0,      0,   0,   0,     0]
            """
        #expect(loadError("kbd.yaml", keyboard)
            == "kbd.yaml: the recording has no touchscreen or touchpad (0: AT Translated Set 2 keyboard [other]); choose one with --device N")
    }
}
