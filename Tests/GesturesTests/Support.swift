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
