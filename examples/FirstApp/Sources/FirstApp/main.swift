// FirstApp: a 1280 x 800 screen in pixels with a "save" button at (1200, 40).
//
//     swift run FirstApp              on the machine's touchscreens (GestureRuntime)
//     swift run FirstApp RECORDING    replays a recording instead, without a configuration (GestureReplay)
import Gestures
import GestureReplay
import GestureRuntime

let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
let save = Region(id: "save", frame: Rect(x: 1152, y: 8, width: 96, height: 64))  // centre (1200, 40)
save.hitInsets = EdgeInsets(all: -12)   // a hit area 12 px larger all round than the button
root.addChild(save)
save.onTap { tap in
    print("save tapped at \(Int(tap.location.x.rounded())),\(Int(tap.location.y.rounded())) px")
}
let layout = Layout(root: root)

let arguments = CommandLine.arguments.dropFirst()
if let recording = arguments.first {
    // The same layout and screen as live, fed from a recording.
    let result = try RecordingReplay.run(path: recording, layout: layout, screen: .rootFrame)
    for warning in result.warnings { print("warning:", warning) }
    print("\(result.gestures.count) gesture events")
} else {
    // Touchscreens map onto the root's 1280 x 800; touchpads keep millimetres.
    let runtime = try GestureRuntime(layout: layout, screen: .rootFrame)
    try runtime.run()
}
