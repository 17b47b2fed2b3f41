#if canImport(Glibc)
import Glibc
#endif
import GestureRuntime
import Testing
import TouchEvents
import TouchInput

/// A recording played as a live device (`gestured run --play`): its events come out in order,
/// restamped at the recording's spacing, and a play that ends with a finger down lifts it.
@Suite("A played recording")
struct PlayedDeviceTests {
    static let panel = DeviceDescription(name: "Played Panel", id: InputID(bustype: 3, vendor: 1, product: 2, version: 1),
                                         codes: [:], absInfo: [:], properties: [])

    /// Everything the device gives until its writer is done (end of file).
    func readAll(_ device: PlayedDevice) throws -> [InputEvent] {
        var events: [InputEvent] = []
        var poller = pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            #expect(poll(&poller, 1, 10_000) == 1, "the player wrote nothing for 10 s")
            guard try device.readPending({ events.append($0) }) else { return events }
        }
    }

    @Test func itsEventsComeInOrderAtTheirSpacingAndAFingerLeftDownIsLifted() throws {
        let t0 = Instant(microseconds: 5_000_000)
        func e(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
            InputEvent(time: t0 + .microseconds(ms * 1000), type: type, code: code, value: value)
        }
        // A finger lands and moves, and the recording ends before it lifts.
        let recorded = [
            e(0, EventType.abs, AbsCode.mtSlot, 0), e(0, EventType.abs, AbsCode.mtTrackingID, 7),
            e(0, EventType.abs, AbsCode.mtPositionX, 100), e(0, EventType.key, KeyCode.touch, 1), e(0, EventType.syn, 0, 0),
            e(12, EventType.abs, AbsCode.mtPositionX, 140), e(12, EventType.syn, 0, 0),
        ]
        let device = try PlayedDevice(node: "played:test", description: Self.panel, events: recorded, pause: .zero, plays: 1)
        let played = try readAll(device)
        #expect(played.map { [$0.type, $0.code, UInt16(bitPattern: Int16(truncatingIfNeeded: $0.value))] } == (recorded + [
            e(12, EventType.abs, AbsCode.mtSlot, 0), e(12, EventType.abs, AbsCode.mtTrackingID, -1),
            e(12, EventType.key, KeyCode.touch, 0), e(12, EventType.syn, 0, 0),
        ]).map { [$0.type, $0.code, UInt16(bitPattern: Int16(truncatingIfNeeded: $0.value))] })
        // Restamped on the monotonic clock, the recording's spacing kept.
        #expect(played[0].time != recorded[0].time)
        #expect(played[5].time - played[0].time == .milliseconds(12))
        #expect(played.last!.time >= played[5].time)
    }

    @Test func itPlaysAgainAsOftenAsAsked() throws {
        let events = [InputEvent(time: .zero, type: EventType.abs, code: AbsCode.mtPositionX, value: 1),
                      InputEvent(time: .zero, type: EventType.syn, code: 0, value: 0)]
        let device = try PlayedDevice(node: "played:twice", description: Self.panel, events: events, pause: .zero, plays: 3)
        #expect(try readAll(device).count == 6)
    }
}
