import Foundation
import GestureRuntime
import Gestures
import Testing

/// Which compositor runs, and how an owned touch must end for its apps (issue 64): the table
/// read from the compositors' sources, and the look at `/proc` (a made-up one here).
@Suite("The running compositor")
struct RunningCompositorTests {
    @Test(arguments: [
        ("cage", nil, OwnedTouchEnding.lift),
        ("sway", RunningCompositor.Version(1, 7), .lift),
        ("sway", RunningCompositor.Version(1, 8), .lift),
        ("sway", RunningCompositor.Version(1, 9), .cancel),
        ("sway", RunningCompositor.Version(1, 10), .cancel),
        ("sway", nil, .lift),               // its IPC did not answer: a lift is safe on every version
        ("Hyprland", nil, .lift),
        ("labwc", nil, .lift),
        ("weston", nil, .lift),
        ("wayfire", nil, .lift),
        ("gnome-shell", nil, .cancel),
        ("kwin_wayland", nil, .cancel),
        ("niri", nil, .cancel),
        ("some-new-compositor", nil, .cancel),
    ] as [(String, RunningCompositor.Version?, OwnedTouchEnding)])
    func eachCompositorGetsTheEndingItNeeds(name: String, version: RunningCompositor.Version?, ending: OwnedTouchEnding) {
        #expect(RunningCompositor.ending(name: name, version: version).ending == ending)
    }

    @Test func noCompositorKeepsLibinputsCancel() {
        #expect(RunningCompositor.ending(name: nil, version: nil) == (.cancel, "no compositor gestured knows is running: libinput's cancel"))
    }

    @Test func theFirstKnownCompositorUnderProcIsFound() throws {
        let proc = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-proc-\(getpid())")
        defer { try? FileManager.default.removeItem(at: proc) }
        for (pid, comm) in [(1, "systemd"), (420, "cage"), (77, "seatd"), (512, "sway"), (9, "kworker/0:1")] {
            let dir = proc.appendingPathComponent("\(pid)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try "\(comm)\n".write(to: dir.appendingPathComponent("comm"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: proc.appendingPathComponent("self"), withIntermediateDirectories: true)
        #expect(RunningCompositor.find(proc: proc.path) == RunningCompositor(name: "cage", pid: 420))
        try FileManager.default.removeItem(at: proc.appendingPathComponent("420"))
        // sway without an IPC socket that answers: its version is not known.
        #expect(RunningCompositor.find(proc: proc.path) == RunningCompositor(name: "sway", pid: 512))
        try FileManager.default.removeItem(at: proc.appendingPathComponent("512"))
        #expect(RunningCompositor.find(proc: proc.path) == nil)
    }
}
