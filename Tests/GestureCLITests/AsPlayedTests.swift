import Foundation
@testable import GestureCLI
import Testing
import TouchEvents
import TouchRecordings

/// `replay --uinput --as-played`: how late the kernel stamped what the player wrote, against the
/// recording's timing. (Reading a real device back is the real-kernel lane's: scripts/vm/e2e.sh.)
@Suite("replay --uinput --as-played")
struct AsPlayedTests {
    private func frame(_ ms: Int, _ values: [(UInt16, UInt16, Int32)]) -> [InputEvent] {
        let t = Instant.zero + .milliseconds(ms)
        return values.map { InputEvent(time: t, type: $0.0, code: $0.1, value: $0.2) }
            + [InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0)]
    }

    private let x = (EventType.abs, AbsCode.mtPositionX)
    private let y = (EventType.abs, AbsCode.mtPositionY)

    /// Frames written 10 ms apart; the player stalls 40 ms before the third and writes the
    /// three it owes together; the kernel leaves out a frame whose values did not change, and
    /// the Y of one that did: the latest stamp is 40 ms late, each frame matched to its own.
    @Test func aStallIsMeasuredFromTheKernelsStampsFrameByFrame() {
        let recorded = frame(0, [(x.0, x.1, 100), (y.0, y.1, 200)]) + frame(10, [(x.0, x.1, 110), (y.0, y.1, 200)])
            + frame(20, [(x.0, x.1, 110)]) + frame(30, [(x.0, x.1, 130)]) + frame(40, [(x.0, x.1, 140)])
            + frame(50, [(x.0, x.1, 150)])
        // As stamped, from 1000 ms: the frame of 20 ms (X unchanged) never came; those of 30
        // and 40 ms came at 1070 ms with the one of 50 ms.
        let stamped = frame(1000, [(x.0, x.1, 100), (y.0, y.1, 200)]) + frame(1010, [(x.0, x.1, 110)])
            + frame(1070, [(x.0, x.1, 130)]) + frame(1070, [(x.0, x.1, 140)]) + frame(1070, [(x.0, x.1, 150)])
        let player = UInputPlayer(recordingPath: "unused")
        #expect(player.stampedLateness(stamped, against: recorded) == .milliseconds(40))
        var faster = player
        faster.speed = 2
        // At twice the speed the frame of 30 ms was due at 15 ms: 55 ms late.
        #expect(faster.stampedLateness(stamped, against: recorded) == .milliseconds(55))
        #expect(player.stampedLateness(recorded, against: recorded) == .zero)
        #expect(player.stampedLateness([], against: recorded) == .zero)
    }

    /// The recording as played says where it came from, and reads back to the same events.
    @Test func theRecordingAsPlayedReadsBack() throws {
        let loaded = try Recording.load(path: repositoryRoot + "/fixtures/synthetic/drag-without-lift.yaml").device(nil)
        let yaml = LibinputRecordWriter(playedFrom: "drag.yaml").yaml(for: loaded)
        #expect(yaml.contains("# Played by gestured from drag.yaml into a virtual device, and read back:\n"))
        let path = NSTemporaryDirectory() + "as-played-\(UInt64.random(in: 0...UInt64.max)).yaml"
        try writeFileAtomically(yaml, to: path)
        let again = try Recording.load(path: path).device(nil)
        #expect(again.events == loaded.events.map { InputEvent(time: .zero + ($0.time - loaded.firstEventTime), type: $0.type, code: $0.code, value: $0.value) })
    }
}
