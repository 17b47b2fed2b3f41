// A small program on the Gestures API: closures on a region, a handler bound to an owner,
// a delayed handler, a configure closure — replayed against a bundled recording.
//
//     swift run gestures-example
import GestureReplay
import GestureRuntime
import GestureConfiguration
import Gestures

/// Something with a lifetime that handlers are bound to (a view controller, a session).
final class PhotoViewer {
    var zoom = 1.0
    var log: [String] = []
}

let viewer = PhotoViewer()
let screen = Region(id: "photo", frame: Rect(x: 0, y: 0, width: 211, height: 127))

// Bound to `viewer`: it receives it, so the closure captures nothing, and the handler goes
// away with the viewer.
screen.onDoubleTap(owner: viewer) { viewer, tap in
    viewer.zoom = viewer.zoom == 1 ? 2 : 1
    viewer.log.append("double tap at \(Int(tap.location.x)),\(Int(tap.location.y)) mm: zoom \(viewer.zoom)")
}

// A single tap waits for the double tap to fail (added automatically), then 100 ms more.
let singleTap = screen.onTap(owner: viewer, delay: .milliseconds(100)) { viewer, tap in
    viewer.log.append("tap at \(Int(tap.location.x)),\(Int(tap.location.y)) mm")
}

screen.onPinch(owner: viewer, configure: { $0.minimumSpreadChange = 8 }) { viewer, pinch in
    if pinch.state == .ended { viewer.log.append("pinch to \(pinch.scale)") }
}

let recording = "fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
do {
    let result = try RecordingReplay.run(path: recording, layout: Layout(root: screen))
    for line in viewer.log { print(line) }
    print("\(result.gestures.count) gestures; single-tap handler active: \(singleTap.isActive)")
} catch {
    print("error: \(error)")
}

// The same from a configuration file: examples/kiosk.yaml describes the regions and their
// gestures; closures attach by region id, and a recording of a session plays through it.
do {
    let kiosk = try Configuration.load(path: "examples/kiosk.yaml")
    let session = "fixtures/synthetic/kiosk-session.yaml"
    _ = try RecordingReplay.run(path: session, rules: kiosk) { pipeline in
        pipeline.layout.region("play")?.onTap { tap in print("play tapped at x \(Int(tap.location.x)) px") }
        pipeline.layout.region("photo")?.onPinch { pinch in
            if pinch.state == .ended { print("photo pinched to \(pinch.scale)") }
        }
        // Where would a touch at (176, 420) go? Between two enlarged buttons, to the nearer one.
        print("hit test at (176, 420): \(pipeline.layout.hitTest(Point(x: 176, y: 420))?.id ?? "nothing")")
    }
} catch {
    print("error: \(error)")
}
