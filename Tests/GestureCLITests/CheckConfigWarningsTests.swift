import Foundation
import GestureCLI
import Testing

/// `check-config` warns of what `run` would refuse or never reach; `--strict` makes each an error.
@Suite("gestured check-config: warnings")
struct CheckConfigWarningsTests {
    /// Writes `yaml` to a fresh folder's `mine.yaml` with `mode`, and checks it as the user
    /// `uid` (0: root).
    /// `desktop` is `XDG_CURRENT_DESKTOP` (no compositor process is looked for).
    func check(_ yaml: String, mode: Int = 0o644, uid: UInt32 = 1000, strict: Bool = false, desktop: String? = nil) throws -> (status: Int32, path: String, out: CapturedOutput) {
        let folder = NSTemporaryDirectory() + "gestured-warn-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/mine.yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        var runner = CheckConfigRunner(path: path, printDefault: false, strict: strict)
        runner.effectiveUserID = uid
        runner.compositor = { nil }
        runner.currentDesktop = desktop
        var out = CapturedOutput()
        let status = runner.run(output: &out)
        try? FileManager.default.removeItem(atPath: folder)
        return (status, path, out)
    }

    static let fine = """
        layout:
          id: screen
          frame: [0, 0, 1280, 800]
          gestures:
            - kind: tap
              action: {exec: ["/usr/bin/true"]}
        """

    @Test func onGNOMEAndKDEAnOwnedTouchpadsGestureThatTakesTheShellsFingerCountsIsWarnedOf() throws {
        let yaml = """
            devices:
              - match: {kind: touchpad}
                own: true
            layout:
              id: pad
              gestures:
                - kind: swipe
                  touches: 3
                  action: {key: "super+right"}
                - kind: swipe
                  touches: 4
                  pass-through: true
                  action: {key: "super+left"}
                - kind: pinch
                  action: {key: "leftctrl+equal"}
            """
        let gnome = try check(yaml, desktop: "ubuntu:GNOME")
        #expect(gnome.status == 0)
        #expect(gnome.out.standardError == """
            \(gnome.path):7: warning: swipe(3 touches, left/right/up/down) owns 3-finger touchpad touches (the touchpad is owned: line 2), \
            which GNOME animates itself (its workspace and overview swipes): GNOME never sees them; give the gesture other finger counts, \
            or pass-through: true to share them
            \(gnome.path):14: warning: pinch(2+ touches) owns 3 and 4-finger touchpad touches (the touchpad is owned: line 2), \
            which GNOME animates itself (its workspace and overview swipes): GNOME never sees them; give the gesture other finger counts, \
            or pass-through: true to share them

            """)
        #expect(try check(yaml, desktop: "KDE").out.standardError.contains("which KDE Plasma animates itself"))
        #expect(try check(yaml, desktop: "sway").out.standardError == "")
        #expect(try check(yaml, strict: true, desktop: "GNOME").status == 2)
    }

    @Test func aFileWithNothingToSayHasNoWarning() throws {
        let r = try check(Self.fine, strict: true)
        #expect(r.status == 0)
        #expect(r.out.standardError == "")
        #expect(r.out.standardOutput == "\(r.path): OK — 1 region, 1 gesture (1 with actions), every touch device\n  screen: tap(1 tap, 1 touch)\n")
    }

    /// A file everyone may write: run refuses it, since it runs commands.
    @Test func aFileOthersMayWrite() throws {
        let r = try check(Self.fine, mode: 0o666)
        #expect(r.status == 0)
        #expect(r.out.standardError == "\(r.path): warning: gestured run would refuse it: writable by everyone (mode 666); it runs commands: chmod go-w \(r.path)\n")
        let strict = try check(Self.fine, mode: 0o664, strict: true)
        #expect(strict.status == 2)
        #expect(strict.out.standardOutput == "")
        #expect(strict.out.standardError == """
            \(strict.path): error: gestured run would refuse it: writable by its group (mode 664); it runs commands: chmod go-w \(strict.path)
            \(strict.path): 1 error (--strict: warnings are errors)

            """)
    }

    /// A region wholly outside its root (touches land in the root); one that reaches into it
    /// with its extended hit area is fine, and so is one touching its edge (a touch beyond the
    /// edge lands on it).
    @Test func aRegionWhollyOutsideItsRoot() throws {
        let r = try check("""
            layout:
              id: screen
              frame: [0, 0, 1280, 800]
              children:
                - id: back
                  frame: [1300, 0, 120, 120]
                  children:
                    - id: inner
                      frame: [10, 10, 20, 20]
                - id: edge
                  frame: [1290, 0, 40, 40]
                  hit-insets: -20
                - id: abutting
                  frame: [1280, 200, 40, 40]
            """)
        #expect(r.status == 0)
        #expect(r.out.standardError == """
            \(r.path):5:11: warning: region "back" lies wholly outside its root "screen" (at 1300.0, 0.0, 120.0 × 120.0; \
            the root is 0.0, 0.0, 1280.0 × 800.0): no touch can reach it
            \(r.path):8:15: warning: region "inner" lies wholly outside its root "screen" (at 1310.0, 10.0, 20.0 × 20.0; \
            the root is 0.0, 0.0, 1280.0 × 800.0): no touch can reach it

            """)
    }

    /// A second layout no device rule names: its gestures never fire.
    @Test func aLayoutNoDeviceRuleDrives() throws {
        let r = try check("""
            devices:
              - match: {kind: touchscreen}
                layout: main
            layouts:
              - id: main
                gestures: [{kind: tap}]
              - id: spare
                gestures: [{kind: tap}, {kind: long-press}]
            """)
        #expect(r.out.standardError == """
            \(r.path):7:9: warning: layout "spare" is driven by no device rule (give a rule `layout: spare`): its 2 gestures never fire

            """)
    }

    /// `hold-back` holds back only an owned touchscreen's touches (without `own: true` it is an
    /// error already).
    @Test func holdBackWhereNothingIsHeldBack() throws {
        let r = try check("""
            devices:
              - match: {kind: touchpad}
                own: true
                hold-back: 60ms
              - match: {kind: touchscreen}
                own: true
                hold-back: 60ms
            layout:
              id: pad
            """)
        #expect(r.out.standardError == """
            \(r.path):2: warning: hold-back applies only to owned touchscreens (`own: true`): a touchpad's touches are owned by their count as they land, so it is ignored

            """)
        // The summary says which devices are owned, and marks the gestures that take their touches.
        #expect(r.out.standardOutput.contains("  owns kind touchscreen (line 5), new touches held back 60.0 ms, touches taken end as the running compositor needs: its gestures marked * take their touches from the apps\n"))
    }

    @Test func anEndingOnATouchpad() throws {
        let r = try check("""
            devices:
              - match: {kind: touchpad}
                own: true
                end-owned-touches: lift
            layout:
              id: pad
            """)
        #expect(r.out.standardError == """
            \(r.path):2: warning: end-owned-touches applies only to owned touchscreens: a touchpad's owned touches stay on its twin as palms, which libinput leaves out, so it is ignored

            """)
    }

    /// As root, run runs no `exec` action unless asked to.
    @Test func execActionsCheckedAsRoot() throws {
        let r = try check(Self.fine, uid: 0)
        #expect(r.out.standardError == """
            \(r.path):5: warning: exec actions: run as root (as this check is) runs none of them, and says so only at the first \
            gesture; run gestured as its own user (the package's service does), or set service.actions-as-root: true

            """)
        let allowed = try check(Self.fine + "\nservice:\n  actions-as-root: true\n", uid: 0)
        #expect(allowed.out.standardError == "")
    }

    /// Owned devices and the gestures that take their touches, in the summary.
    @Test func theSummaryMarksGesturesThatOwnTheirTouches() throws {
        let r = try check("""
            devices:
              - match: {kind: touchscreen}
                own: true
            layout:
              id: screen
              frame: [0, 0, 1280, 800]
              gestures:
                - kind: swipe
                  touches: 3
                  action: {key: "leftmeta"}
                - kind: tap
                  action: {emit: true}
            """)
        #expect(r.out.standardOutput.hasSuffix("""
              owns kind touchscreen (line 2), touches taken end as the running compositor needs: its gestures marked * take their touches from the apps
              screen: swipe(3 touches, left/right/up/down)*, tap(1 tap, 1 touch)

            """))
    }
}

/// The two mistakes a new user's trial made that check-config did not see (issue 69, item 8).
@Suite("gestured check-config: unreachable regions")
struct UnreachableRegionTests {
    /// A region wholly covered by a later sibling (front-most: it takes every touch there) is
    /// unreachable; one that a later sibling covers only in part, or one covered by a hidden
    /// or disabled later sibling, is fine.
    @Test func aRegionCoveredByALaterSibling() throws {
        let r = try CheckConfigWarningsTests().check("""
            layout:
              id: screen
              frame: [0, 0, 1280, 800]
              children:
                - id: button
                  frame: [100, 100, 80, 40]
                  gestures: [{kind: tap}]
                - id: half
                  frame: [380, 100, 80, 40]
                  gestures: [{kind: tap}]
                - id: under-hidden
                  frame: [500, 100, 80, 40]
                  gestures: [{kind: tap}]
                - id: panel
                  frame: [0, 0, 400, 150]
                  gestures: [{kind: pan}]
                - id: veil
                  frame: [480, 80, 200, 200]
                  hidden: true
            """)
        #expect(r.status == 0)
        #expect(r.out.standardError == """
            \(r.path):5:11: warning: region "button" is wholly covered by "panel", a later sibling in front of it (at 0.0, 0.0, 400.0 × 150.0): no touch can reach it

            """)
    }

    /// A device rule's output smaller than its layout's root: the device maps onto the
    /// output's rectangle, and the rest of the root is out of reach; an output as large is
    /// fine.
    @Test func anOutputSmallerThanItsRoot() throws {
        func config(_ output: String) -> String {
            """
            devices:
              - match: {kind: touchscreen}
                output: \(output)
            layout:
              id: screen
              frame: [0, 0, 1280, 800]
              gestures: [{kind: tap}]
            """
        }
        let small = try CheckConfigWarningsTests().check(config("[800, 480]"))
        #expect(small.status == 0)
        #expect(small.out.standardError == """
            \(small.path):2: warning: output [800, 480] maps the device onto 0, 0, 800 × 480 of layout "screen", whose root is 0.0, 0.0, 1280.0 × 800.0: no touch reaches beyond it

            """)
        #expect(try CheckConfigWarningsTests().check(config("[1280, 800]")).out.standardError == "")
    }
}
