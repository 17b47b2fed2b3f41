import GestureTesting
import Gestures
import Testing
import TouchEvents

/// Something a closure captures, to see with a weak reference when the closure is gone.
private final class Canary {}

/// A weak reference to keep in an array.
private struct Weak<T: AnyObject> {
    weak var value: T?
}

/// The design's promise: a handler lives as long as its owner or its region, and nothing in
/// the pipeline keeps either alive. Each test watches the objects through weak references.
@Suite("Lifetimes")
struct LifetimeTests {
    private func screen() -> Region {
        Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
    }

    @Test func aRemovedRegionItsRecognizersAndItsClosuresAreReleased() {
        let root = screen()
        let pipeline = GesturePipeline(layout: Layout(root: root))
        let recorder = GestureRecorder(pipeline)
        let clock = ManualClock(pipeline: pipeline)
        var weakPopups: [Weak<Region>] = []
        var weakCanaries: [Weak<Canary>] = []
        var taps = 0
        // 200 popups opened, touched and removed, as the issue measured.
        for n in 0..<200 {
            do {
                let popup = Region(id: "popup", frame: Rect(x: 50, y: 20, width: 40, height: 40))
                let canary = Canary()
                popup.onTap { _ in
                    _ = canary
                    taps += 1
                }
                root.addChild(popup)
                var s = TouchScript()
                s.tap(at: .milliseconds(Double(n) * 1000), x: 60, y: 30)
                clock.play(s.frames)
                popup.removeFromParent()
                weakPopups.append(Weak(value: popup))
                weakCanaries.append(Weak(value: canary))
            }
        }
        #expect(taps == 200)
        #expect(recorder.gestures.count == 200)
        #expect(weakPopups.allSatisfy { $0.value == nil }, "no cache keeps a removed region")
        #expect(weakCanaries.allSatisfy { $0.value == nil }, "nor its closures")
    }

    @Test func aRemovedRegionIsReleasedEvenWithATouchOnItWhenTheFingersLift() {
        let root = screen()
        let pipeline = GesturePipeline(layout: Layout(root: root))
        let recorder = GestureRecorder(pipeline)
        let clock = ManualClock(pipeline: pipeline)
        weak var weakPopup: Region?
        do {
            let popup = Region(id: "popup", frame: Rect(x: 50, y: 20, width: 40, height: 40))
            popup.onPan { _ in }
            root.addChild(popup)
            weakPopup = popup
            var s = TouchScript()
            s.down(1, at: .zero, x: 60, y: 30)
            s.move(1, at: .milliseconds(50), x: 80, y: 30)
            s.move(1, at: .milliseconds(100), x: 90, y: 30)
            s.up(1, at: .milliseconds(150))
            clock.play(Array(s.frames.prefix(2)))
            popup.removeFromParent()
            clock.play(Array(s.frames.dropFirst(2)))
        }
        #expect(recorder.lines == [
            "50.0ms pan began popup touches=1 at 80.0,30.0 d=20.0,0.0",
            "100.0ms pan cancelled popup touches=1 at 80.0,30.0 d=20.0,0.0",
        ])
        #expect(weakPopup == nil)
    }

    @Test func aGoneOwnersClosuresAreReleasedByTheNextFrameAnywhereInTheLayout() {
        let root = screen()
        let button = Region(id: "button", frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let elsewhere = Region(id: "elsewhere", frame: Rect(x: 100, y: 0, width: 50, height: 50))
        root.addChild(button)
        root.addChild(elsewhere)
        elsewhere.onTap { _ in }
        let pipeline = GesturePipeline(layout: Layout(root: root))
        weak var weakCanary: Canary?
        do {
            let owner = Owner()
            let canary = Canary()
            weakCanary = canary
            button.onTap(owner: owner) { _, _ in _ = canary }
        }
        // The owner is gone; the button is never touched again.
        #expect(weakCanary != nil, "released at a frame, not before: nothing polls")
        var s = TouchScript()
        s.down(1, at: .zero, x: 120, y: 20)
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(weakCanary == nil, "released by the first frame, on another region")
        #expect(button.recognizers.isEmpty, "and the recognizer made for it")
    }

    @Test func droppingARecorderWhileItsPipelineLivesIsSafe() {
        let pipeline = GesturePipeline(layout: layout { $0.onTap { _ in } })
        weak var weakRecorder: GestureRecorder?
        do {
            let recorder = GestureRecorder(pipeline)
            weakRecorder = recorder
        }
        #expect(weakRecorder == nil)
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        ManualClock(pipeline: pipeline).play(s.frames)
        pipeline.finish()
    }

    @Test func aHandlerReachesItsRegionThroughTheGestureWithoutCapturingIt() {
        let root = screen()
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var values: [String] = []
        weak var weakSlider: Region?
        do {
            let track = Region(id: "track", frame: Rect(x: 20, y: 10, width: 160, height: 40))
            let slider = Region(id: "slider", frame: Rect(x: 10, y: 10, width: 100, height: 20))
            track.addChild(slider)
            root.addChild(track)
            weakSlider = slider
            slider.onTap { tap in
                guard let region = tap.target else { return }
                let fraction = tap.localLocation.x / region.frame.width
                values.append("\(tap.region) \(fraction) at \(tap.localLocation.x),\(tap.localLocation.y)")
            }
            var s = TouchScript()
            s.tap(at: .zero, x: 55, y: 25)
            ManualClock(pipeline: pipeline).play(s.frames)
            track.removeFromParent()
        }
        #expect(values == ["slider 0.25 at 25.0,5.0"])
        #expect(weakSlider == nil, "the handler did not keep its region alive")
    }

    @Test func aHandlerThatRemovesItsRegionAndCancelsEverythingMidFrameIsSafe() {
        // The pan's handler, called in the middle of the arena's walk over its members, takes
        // its region out of the layout and cancels everything: the arena lets go of its
        // members there and then, and nothing else holds them. The walk goes on over the
        // members it started with (the long press, failed by the cancel, is skipped: it fails
        // once and is never asked again), and they go only once the frame is over.
        let root = screen()
        let layout = Layout(root: root)
        var pipeline: GesturePipeline?
        var seen: [String] = []
        weak var weakPanel: Region?
        weak var weakPan: PanRecognizer?
        do {
            let panel = Region(id: "panel", frame: Rect(x: 0, y: 0, width: 100, height: 100))
            root.addChild(panel)
            weakPanel = panel
            _ = panel.onPan(configure: { weakPan = $0 }) { [unowned panel] pan in
                seen.append("\(pan.time) pan \(pan.state)")
                if pan.state == .began {
                    panel.removeFromParent()
                    pipeline?.cancelAll(time: pan.time)
                }
            }
            _ = panel.onLongPress { press in seen.append("\(press.time) long press \(press.state)") }
        }
        pipeline = GesturePipeline(layout: layout)
        pipeline?.failureObserver = { recognizer, reason, time in seen.append("\(time) \(recognizer.name) failed: \(reason)") }
        var s = TouchScript()
        s.drag(from: Point(x: 10, y: 50), to: Point(x: 40, y: 50), at: .zero, duration: .milliseconds(60), steps: 6)
        ManualClock(pipeline: pipeline!).play(s.frames)
        #expect(seen == [
            "0.010000s pan began",
            "0.010000s pan cancelled",
            "0.010000s long-press(1 touch) failed: the device went away",
        ])
        #expect(weakPanel == nil && weakPan == nil, "released once the walk was over")
        #expect(pipeline?.isTracking == false)
    }

    @Test func aRecognizerMovedToARegionSinceGoneEndsCancelledWithoutIt() {
        // Moved off its region mid-pan to a region nothing keeps: its old sequence cancels it
        // at the next frame, and that last gesture has no region to be placed in: no target,
        // its local location the location itself. (The uncounted reference a recognizer reads
        // its region through goes with the region, as its weak one does.)
        let root = screen()
        let panel = Region(id: "panel", frame: Rect(x: 50, y: 0, width: 100, height: 100))
        root.addChild(panel)
        var pan: PanRecognizer?
        _ = panel.onPan(configure: { pan = $0 }) { _ in }
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var seen: [String] = []
        pipeline.observer = { g in
            seen.append("\(g.state) \(g.region) target=\(g.target?.id ?? "none") local=\(g.localLocation.x),\(g.localLocation.y)")
        }
        var s = TouchScript()
        s.drag(from: Point(x: 60, y: 50), to: Point(x: 90, y: 50), at: .zero, duration: .milliseconds(60), steps: 6)
        let clock = ManualClock(pipeline: pipeline)
        clock.play(Array(s.frames.prefix(3)))
        do {
            let elsewhere = Region(id: "elsewhere", frame: Rect(x: 500, y: 500, width: 10, height: 10))
            elsewhere.add(pan!)
        }
        #expect(pan?.region == nil)
        clock.play(Array(s.frames.dropFirst(3)))
        #expect(seen == [
            "began panel target=panel local=15.0,50.0",
            "changed panel target=panel local=20.0,50.0",
            "cancelled elsewhere target=none local=70.0,50.0",
        ])
    }
}
