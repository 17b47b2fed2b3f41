import Foundation
import GestureTesting
import Gestures
import Testing
import TouchEvents

/// The contract the core's unchecked state rests on — one thread at a time, never re-entered
/// but by a handler cancelling everything — checked in debug builds (`EntryCheck`). A broken
/// contract stops the program; here a test double hears it instead (`EntryViolations`, set for
/// these tests' tasks only), so each case says what the check found.
@Suite("The core checks its contract")
struct EntryCheckTests {
    /// What the checks said while `body` ran, on this task.
    static func violations(_ body: () -> Void) -> [String] {
        let heard = Lock<[String]>([])
        EntryViolations.$heard.withValue({ message in heard.withLock { $0.append(message) } }, operation: body)
        return heard.withLock { $0 }
    }

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

    @Test func feedingThePipelineAFrameFromItsOwnHandlerIsCaught() {
        let found = Self.violations { Self.tapWhoseHandler { pipeline, frames in pipeline.process(frames[0]) } }
        // Heard, not stopped, the frame goes on: the arena it reaches is inside its own walk too.
        #expect(found == [
            "GesturePipeline.process(_:) was entered again from inside itself (a handler may change regions or cancel, not feed or advance it)",
            "Arena.frameArrived() was entered again from inside itself (a handler may change regions or cancel, not feed or advance it)",
            "Arena.frameArrived() was entered again from inside itself (a handler may change regions or cancel, not feed or advance it)",
        ])
    }

    @Test func advancingThePipelineFromItsOwnHandlerIsCaught() {
        let found = Self.violations { Self.tapWhoseHandler { pipeline, frames in pipeline.advance(to: frames[0].time + .seconds(5)) } }
        #expect(found == ["GesturePipeline.advance(to:) was entered again from inside itself (a handler may change regions or cancel, not feed or advance it)"])
    }

    /// What a handler may do: cancel everything (a reload), on its own thread.
    @Test func aHandlerCancellingEverythingIsAllowed() {
        #expect(Self.violations { Self.tapWhoseHandler { pipeline, frames in pipeline.cancelAll(time: frames[0].time) } } == [])
    }

    /// One thread is inside the pipeline (a handler holding it there); this test's task enters
    /// meanwhile: caught, whichever entry point.
    @Test func aSecondThreadEnteringWhileOneIsInsideIsCaught() {
        let root = Region(id: "pad", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var script = TouchScript()
        script.tap(at: .zero, x: 20, y: 30)
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        root.onTap { _ in
            inside.signal()
            release.wait()
        }
        // Handed to the other thread on purpose: using it from two threads is the misuse.
        struct Handed: @unchecked Sendable { let pipeline: GesturePipeline; let frames: [TouchFrame] }
        let handed = Handed(pipeline: pipeline, frames: script.frames)
        Thread {
            for frame in handed.frames { handed.pipeline.process(frame) }
            done.signal()
        }.start()
        inside.wait()
        let found = Self.violations {
            pipeline.cancelAll(time: .zero)
            pipeline.process(handed.frames[0])
        }
        release.signal()
        done.wait()
        #expect(found == [
            "GesturePipeline.cancelAll(time:) was entered from a second thread while another was inside (one thread at a time)",
            "GesturePipeline.process(_:) was entered from a second thread while another was inside (one thread at a time)",
        ])
    }
}
