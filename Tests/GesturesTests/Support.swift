import GestureTesting
import Gestures
import TouchEvents

/// A layout with one region "pad", 200 x 100 mm, set up by `build`.
func layout(_ build: (Region) -> Void) -> Layout {
    let region = Region(id: "pad", frame: Rect(x: 0, y: 0, width: 200, height: 100))
    build(region)
    return Layout(root: region)
}

/// Plays `script` and returns the gesture log; without `until`, every pending deadline
/// fires at the end (as at the end of a recording).
func run(_ layout: Layout, _ script: TouchScript, until milliseconds: Double? = nil, policy: TouchPolicy = .touchscreen) -> [String] {
    let until = milliseconds.map(ms)
    let pipeline = GesturePipeline(layout: layout, policy: policy)
    let recorder = GestureRecorder(pipeline)
    let clock = ManualClock(pipeline: pipeline)
    clock.play(script.frames.filter { until == nil || $0.time <= until! })
    if let until { clock.advance(to: until) } else { pipeline.finish() }
    return recorder.lines
}

/// `milliseconds` after the clock's origin, where every script starts.
func ms(_ milliseconds: Double) -> Instant { .zero + .milliseconds(milliseconds) }

/// Two fingers scrolling down a touchpad from 0 ms, 0.5 mm every 10 ms for `steps` reports, and
/// a third contact landing at the pad's left edge at 400 ms (step 40): it stays where it landed
/// (jittering 0.1 mm), or moves down with the two. No finger lifts.
func scrollBesideAThirdContact(steps: Int, thirdMoves: Bool) -> TouchScript {
    var s = TouchScript()
    s.down(1, at: .zero, x: 40, y: 30, pressure: 60)
    s.down(2, at: .zero, x: 60, y: 30, pressure: 60)
    for step in 1...steps {
        let t = Duration.milliseconds(Double(step) * 10)
        s.move(1, at: t, x: 40, y: 30 + Double(step) * 0.5, pressure: 60)
        s.move(2, at: t, x: 60, y: 30 + Double(step) * 0.5, pressure: 60)
        if step == 40 { s.down(3, at: t, x: 4, y: 50, pressure: 60) }
        if step > 40 { s.move(3, at: t, x: thirdMoves ? 4 : 4 + Double(step % 2) * 0.1, y: 50 + (thirdMoves ? Double(step - 40) * 0.5 : 0), pressure: 60) }
    }
    return s
}
