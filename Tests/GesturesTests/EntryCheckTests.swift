import Foundation
import GestureTesting
import Gestures
import Testing
import TouchEvents

/// The contract the core's unchecked state rests on — one thread at a time, never re-entered
/// but by a handler cancelling everything — checked in debug builds (`EntryCheck`): breaking it
/// stops the program (each case runs in a process of its own), keeping it does not.
@Suite("The core checks its contract")
struct EntryCheckTests {
    /// A tap whose handler runs `body` with the pipeline, played through it.
    static func tapWhoseHandler(_ body: @escaping (GesturePipeline, [TouchFrame]) -> Void) {
        let root = Region(id: "pad", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var script = TouchScript()
        script.tap(at: .zero, x: 20, y: 30)
        let frames = script.frames
        root.onTap { [unowned pipeline] _ in body(pipeline, frames) }
        let clock = ManualClock(pipeline: pipeline)
        clock.play(frames)
        clock.advance(by: .seconds(1))
    }

    @Test func feedingThePipelineAFrameFromItsOwnHandlerStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            EntryCheckTests.tapWhoseHandler { pipeline, frames in pipeline.process(frames[0]) }
        }
    }

    @Test func advancingThePipelineFromItsOwnHandlerStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            EntryCheckTests.tapWhoseHandler { pipeline, frames in pipeline.advance(to: frames[0].time + .seconds(5)) }
        }
    }

    /// Another thread driving the pipeline while a handler runs inside it.
    @Test func aSecondThreadEnteringWhileOneIsInsideStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            EntryCheckTests.tapWhoseHandler { pipeline, frames in
                // Sent to the other thread on purpose: that is the misuse checked.
                struct Handed: @unchecked Sendable { let pipeline: GesturePipeline }
                let handed = Handed(pipeline: pipeline), time = frames[0].time
                let done = DispatchSemaphore(value: 0)
                let other = Thread {
                    handed.pipeline.cancelAll(time: time)
                    done.signal()
                }
                other.start()
                done.wait()
            }
        }
    }

    /// What a handler may do: cancel everything (a reload), on its own thread; and the program
    /// goes on.
    @Test func aHandlerCancellingEverythingIsAllowed() async {
        await #expect(processExitsWith: .success) {
            EntryCheckTests.tapWhoseHandler { pipeline, frames in pipeline.cancelAll(time: frames[0].time) }
        }
    }
}
