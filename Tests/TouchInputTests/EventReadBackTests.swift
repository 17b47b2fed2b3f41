import CLibevdev
import Foundation
import Testing
import TouchEvents
@testable import TouchInput

/// What `replay --uinput --as-played` reads its device back with: the kernel's records as they
/// come, each with its own time, and a drop said.
@Suite("Reading a device back")
struct EventReadBackTests {
    @Test func readsEveryRecordWithItsTimeAndSaysADrop() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        #expect(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0)
        let reader = EventReadBack(fileDescriptor: fds[0], path: "pipe")
        let t0 = Instant(microseconds: 5_000_000)
        let written = [
            InputEvent(time: t0, type: EventType.abs, code: AbsCode.mtPositionX, value: 120),
            InputEvent(time: t0, type: EventType.syn, code: SynCode.report, value: 0),
            InputEvent(time: t0 + .microseconds(26), type: EventType.abs, code: AbsCode.mtPositionX, value: 130),
            InputEvent(time: t0 + .microseconds(26), type: EventType.syn, code: SynCode.report, value: 0),
        ]
        // More than one read's batch (64): every record still comes, in order.
        let many = Array(repeating: written, count: 20).flatMap { $0 }
        var records = many.map(\.kernelEvent)
        let bytes = records.count * MemoryLayout<input_event>.stride
        #expect(write(fds[1], &records, bytes) == bytes)
        var events: [InputEvent] = []
        try reader.readPending(into: &events)
        #expect(events == many)
        #expect(!reader.droppedByKernel)
        var dropped = [InputEvent(time: t0, type: EventType.syn, code: SynCode.dropped, value: 0).kernelEvent]
        #expect(write(fds[1], &dropped, MemoryLayout<input_event>.stride) == MemoryLayout<input_event>.stride)
        try reader.readPending(into: &events)
        #expect(reader.droppedByKernel)
        #expect(events.count == many.count + 1)
        close(fds[1])
    }
}
