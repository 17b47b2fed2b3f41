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
func run(_ layout: Layout, _ script: TouchScript, until ms: Double? = nil) -> [String] {
    let pipeline = GesturePipeline(layout: layout)
    let recorder = GestureRecorder(pipeline)
    let clock = ManualClock(pipeline: pipeline)
    clock.play(script.frames.filter { ms == nil || Double($0.time) <= ms! * 1000 })
    if let ms { clock.advance(toMilliseconds: ms) } else { pipeline.finish() }
    return recorder.lines
}
