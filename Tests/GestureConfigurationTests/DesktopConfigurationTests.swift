import GestureConfiguration
import Gestures
import Testing
import TouchEvents
import TouchInputTesting

/// Desktop actions, named layouts and `when` in the configuration (issue 18).
@Suite("Desktop configuration")
struct DesktopConfigurationTests {
    @Test func theDesktopExampleIsValidAndSaysWhatItMeans() throws {
        let c = try Configuration.load(path: repositoryRoot + "/examples/desktop.yaml")
        #expect(c.summary == """
            \(repositoryRoot)/examples/desktop.yaml: OK — 2 layouts, 2 regions, 6 gestures (6 with actions), 2 device rules
              layout touchpad (kind touchpad):
                touchpad: swipe(3 touches, left), pan(3 touches), pinch(2+ touches) (when app: firefox, org.mozilla.firefox), tap(1 tap, 3 touches)
              layout screen (kind touchscreen):
                screen: pan(2 touches), edge-pan(right)

            """)
        #expect(c.layouts.map(\.id) == ["touchpad", "screen"])
        #expect(c.devices.map(\.layout) == ["touchpad", "screen"])
        let touchpad = c.layouts[0].gestures
        #expect(touchpad[0].action?.key?.codes == [125, 106])  // KEY_LEFTMETA, KEY_RIGHT
        #expect(touchpad[1].action?.hold?.codes == [56])  // KEY_LEFTALT
        #expect(touchpad[1].action?.on == [.began, .ended])
        #expect(touchpad[2].action?.key?.description == "leftctrl+equal")
        #expect(touchpad[2].action?.on == [.ended])
        #expect(touchpad[2].when == GestureCondition(apps: ["firefox", "org.mozilla.firefox"]))
        #expect(touchpad[3].action?.button == .middle)
        let screen = c.layouts[1].gestures
        #expect(screen[0].action?.scroll == .both)
        #expect(screen[1].action?.key?.description == "leftmeta+a")
    }

    @Test func eachDeviceDrivesTheLayoutItsRuleNames() throws {
        let c = try Configuration.load(path: repositoryRoot + "/examples/desktop.yaml")
        let pad = try #require(c.rule(for: .testTouchpad, node: nil))
        let screen = try #require(c.rule(for: .testTouchscreen, node: nil))
        #expect(c.layout(for: pad).id == "touchpad")
        #expect(c.layout(for: screen).id == "screen")
        let built = c.buildLayout(c.layout(for: pad), rootSize: SurfaceSize(width: 100, height: 60))
        #expect(built.layout.root.id == "touchpad")
        #expect(built.actions.count == 4)
        #expect(built.conditions.count == 1)
        // A rule without `layout:` drives the first.
        #expect(c.layout(for: DeviceRule()).id == "touchpad")
    }

    @Test func oneLayoutKeepsWorking() throws {
        let c = try Configuration.parse(yaml: "layout: {id: root, gestures: [{kind: tap, action: {key: KEY_PLAYPAUSE}}]}\n", path: "c.yaml")
        #expect(c.layouts.count == 1)
        #expect(c.layout.gestures[0].action?.key?.codes == [164])
    }

    @Test func whenTakesOneAppOrAListAndComparesWithoutCase() throws {
        let c = try Configuration.parse(yaml: "layout: {id: root, gestures: [{kind: pinch, when: {app: Firefox}, action: {emit: true}}]}\n", path: "c.yaml")
        let condition = try #require(c.layout.gestures[0].when)
        #expect(condition.holds(focusedApp: "firefox"))
        #expect(!condition.holds(focusedApp: "foot"))
        #expect(!condition.holds(focusedApp: nil))
    }

    @Test(arguments: [
        ("layout: {id: a}\nlayouts: [{id: b}]\n", "c.yaml:2:10: give either layout (one) or layouts (several, each with an id), not both"),
        ("layouts: []\n", "c.yaml:1:10: layouts must list at least one layout (a root region with an id)"),
        ("layouts:\n  - {id: pad}\n  - {id: pad}\n", "c.yaml:3:10: duplicate layout id \"pad\" (first at line 2)"),
        ("devices: [{match: {kind: touchpad}, layout: pda}]\nlayouts: [{id: pad}, {id: screen}]\n",
         "c.yaml:1:45: no layout \"pda\" (layouts: pad, screen)"),
        ("layout: {id: root, gestures: [{kind: swipe, action: {key: \"leftmta+right\"}}]}\n",
         "c.yaml:1:59: unknown key \"leftmta\" in key (did you mean leftmeta?): keys are the kernel's names in lower case, KEY_LEFTMETA → leftmeta"),
        ("layout: {id: root, gestures: [{kind: swipe, action: {key: ctrl+c}}]}\n",
         "c.yaml:1:59: unknown key \"ctrl\" in key (did you mean leftctrl?): keys are the kernel's names in lower case, KEY_LEFTMETA → leftmeta"),
        ("layout: {id: root, gestures: [{kind: swipe, action: {key: zzzzzz}}]}\n",
         "c.yaml:1:59: unknown key \"zzzzzz\" in key: keys are the kernel's names in lower case, KEY_LEFTMETA → leftmeta"),
        ("layout: {id: root, gestures: [{kind: swipe, action: {key: \"leftctrl++\"}}]}\n",
         "c.yaml:1:59: key \"leftctrl++\" has an empty key name: write keys joined by +, e.g. \"leftctrl+c\""),
        ("layout: {id: root, gestures: [{kind: swipe, action: {key: a+a}}]}\n", "c.yaml:1:59: key \"a+a\" names a twice"),
        ("layout: {id: root, gestures: [{kind: swipe, action: {key: btn_left}}]}\n",
         "c.yaml:1:59: unknown key \"btn_left\" in key: keys are the kernel's names in lower case, KEY_LEFTMETA → leftmeta"),
        ("layout: {id: root, gestures: [{kind: tap, action: {hold: leftalt}}]}\n",
         "c.yaml:1:58: hold keeps keys down while a gesture lasts; a tap happens at once: use key"),
        ("layout: {id: root, gestures: [{kind: pan, action: {hold: leftalt, on: [began]}}]}\n",
         "c.yaml:1:71: hold presses at began and releases at ended (or cancelled): on must be [began, ended] or left out"),
        ("layout: {id: root, gestures: [{kind: tap, action: {button: back}}]}\n", "c.yaml:1:60: unknown button \"back\" (known: left, right, middle)"),
        ("layout: {id: root, gestures: [{kind: pinch, action: {scroll: both}}]}\n",
         "c.yaml:1:62: scroll follows a pan's movement: it goes on a pan or edge-pan, not a pinch"),
        ("layout: {id: root, gestures: [{kind: pan, action: {scroll: diagonal}}]}\n", "c.yaml:1:60: unknown scroll \"diagonal\" (known: vertical, horizontal, both)"),
        ("layout: {id: root, gestures: [{kind: pan, action: {scroll: both, on: [began]}}]}\n",
         "c.yaml:1:70: scroll follows every change of the pan: leave out on"),
        ("layout: {id: root, gestures: [{kind: pan, action: {pointer: fly}}]}\n", "c.yaml:1:61: pointer takes move (relative motion from the pan), not \"fly\""),
        ("layout: {id: root, gestures: [{kind: pinch, when: {title: x}, action: {emit: true}}]}\n",
         "c.yaml:1:52: unknown key \"title\" in when (known: app)"),
        ("layout: {id: root, gestures: [{kind: pinch, when: {app: []}, action: {emit: true}}]}\n", "c.yaml:1:57: app must name at least one app"),
    ] as [(String, String)])
    func desktopMistakesAreReportedWithTheirPlace(yaml: String, message: String) {
        #expect(error(yaml) == message)
    }

    @Test func keyNamesAreTheKernelsInLowerCase() {
        #expect(KeyNames.code("leftmeta") == 125)
        #expect(KeyNames.code("KEY_LEFTMETA") == 125)
        #expect(KeyNames.code("LeftMeta") == 125)
        #expect(KeyNames.code("btn_left") == nil)
        #expect(KeyNames.code("reserved") == nil)
        #expect(KeyNames.name(125) == "leftmeta")
        #expect(KeyNames.name(KeyCode.left) == nil)
        #expect(KeyNames.suggestion(for: "shift") == "leftshift")
        // super is accepted as it is (GNOME's and KDE's name for the logo key); win only suggested.
        #expect(KeyNames.code("super") == 125 && KeyNames.code("Super") == 125)
        #expect(KeyNames.code("win") == nil && KeyNames.suggestion(for: "win") == "leftmeta")
        #expect(KeyNames.suggestion(for: "volumup") == "volumeup")
        #expect(KeyNames.suggestion(for: "qqqqqqqq") == nil)
        #expect(!KeyNames.keyboardCodes.contains(KeyCode.left))
        #expect(KeyNames.keyboardCodes.count > 400)
    }
}
