// A kiosk's closures on live touch devices, with only the public products: a play button, a
// slider and a photo area, each with its closures, run by GestureRuntime in a ServiceGroup
// (SIGTERM and SIGINT stop it cleanly). Every handler call prints one line.
//
//     swift run live-kiosk                 # the touch devices of seat0 (needs read access to them)
//     swift run live-kiosk --replay FILE   # the same closures over a recording, for comparison
//
// The layout is in millimetres on the touch surface (no configuration or Screen maps it to a screen).
#if canImport(Glibc)
import Glibc
#endif
import Gestures
import GestureReplay
import GestureRuntime
import Logging
import ServiceLifecycle
import TouchEvents

/// What the closures drive: the state of the app.
final class Kiosk {
    var playing = false
    var volume = 0.5
    var zoom = 1.0
}

/// One line per handler call: which handler, the gesture's state, and where in its region.
func say<Values>(_ what: String, _ gesture: TypedGesture<Values>) {
    let x = formatDecimal(gesture.localLocation.x, places: 1), y = formatDecimal(gesture.localLocation.y, places: 1)
    writeLine(1, "\(what) \(gesture.state) in \(gesture.region) at \(x),\(y)")
}

/// Writes a line straight to a descriptor (1: stdout, 2: stderr), unbuffered, so that each
/// line is out when the handler returns, also into a pipe.
func writeLine(_ fd: Int32, _ text: String) {
    var bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
}

/// The layout: a 300 x 200 mm screen with a play button, a volume slider and a photo area.
func makeLayout(for kiosk: Kiosk) -> Layout {
    let screen = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 300, height: 200))
    let play = Region(id: "play", frame: Rect(x: 40, y: 100, width: 40, height: 25))
    play.hitInsets = EdgeInsets(top: -5, left: -5, bottom: -5, right: -5)
    let slider = Region(id: "slider", frame: Rect(x: 90, y: 35, width: 110, height: 30))
    let photo = Region(id: "photo", frame: Rect(x: 0, y: 0, width: 300, height: 200))
    screen.addChild(photo)
    screen.addChild(play)
    screen.addChild(slider)

    play.onTap(owner: kiosk) { kiosk, tap in
        kiosk.playing.toggle()
        say("play", tap)
    }
    // The slider reads its own frame through the gesture: it captures nothing.
    slider.onPan(owner: kiosk, maximumTouches: 1) { kiosk, pan in
        if let region = pan.target { kiosk.volume = min(max(pan.localLocation.x / region.frame.width, 0), 1) }
        say("slider", pan)
    }
    photo.onPinch(owner: kiosk) { kiosk, pinch in
        kiosk.zoom = pinch.scale
        say("photo pinch", pinch)
    }
    photo.onLongPress(owner: kiosk) { _, press in say("photo long press", press) }
    photo.onSwipe(owner: kiosk, [.left, .right]) { _, swipe in say("photo swipe \(swipe.direction)", swipe) }
    return Layout(root: screen)
}

let kiosk = Kiosk()
let layout = makeLayout(for: kiosk)
let arguments = CommandLine.arguments.dropFirst()

if arguments.first == "--replay", let path = arguments.dropFirst().first {
    do {
        _ = try RecordingReplay.run(path: path, layout: layout)
    } catch {
        writeLine(2, "live-kiosk: \(error)")
        exit(2)
    }
} else if arguments.isEmpty {
    var logger = Logger(label: "live-kiosk") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .info
    do {
        let runtime = try GestureRuntime(layout: layout, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [runtime], gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: logger))
        try await group.run()
    } catch {
        writeLine(2, "live-kiosk: \(error)")
        exit(1)
    }
} else {
    writeLine(2, "usage: live-kiosk [--replay RECORDING]")
    exit(2)
}
