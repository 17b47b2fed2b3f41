import GestureConfiguration
import Gestures
import Testing
import TouchEvents

/// Device rules whose screen turns: where each source of the screen's turn puts the device,
/// and the layout it then drives.
@Suite("Screens that turn")
struct ScreenPlacementTests {
    static let yaml = """
        devices:
          - match: {name: "Kiosk*"}
            rotation: auto
            output: [800, 480]
          - match: {name: "Tablet*"}
            output-name: DSI-1
            layout: {landscape: wide, portrait: tall}
          - match: {name: "Fixed*"}
            output-name: HDMI-A-1
            rotation: 90
          - match: {kind: touchpad}
            rotation: auto
            layout: wide
        layouts:
          - id: wide
            frame: [0, 0, 800, 480]
            children:
              - id: menu
                frame: [0, 0, 200, 480]
          - id: tall
            frame: [0, 0, 480, 800]
        """

    func configuration() throws -> Configuration { try Configuration.parse(yaml: Self.yaml, path: "c.yaml") }

    @Test func theKeysAreRead() throws {
        let c = try configuration()
        #expect(c.devices[0].followsRotation && c.devices[0].outputName == nil)
        #expect(c.devices[1].followsRotation && c.devices[1].outputName == "DSI-1")
        #expect(c.devices[1].layout == "wide" && c.devices[1].portraitLayout == "tall")
        #expect(!c.devices[2].followsRotation && c.devices[2].rotation == .clockwise90)
        #expect(c.devices[3].turns(kind: .touchpad) == false && c.devices[0].turns(kind: .touchscreen))
        let locked = try Configuration.parse(yaml: "service: {rotation-lock: /run/gestured/rotation.lock}\nlayout: {id: root}\n", path: "c.yaml")
        #expect(locked.service.rotationLock == "/run/gestured/rotation.lock")
        let swapped = try Configuration.parse(yaml: "devices: [{swap-axes: true}]\nlayout: {id: root}\n", path: "c.yaml")
        #expect(swapped.devices[0].swapAxes)
    }

    @Test func theAccelerometerTurnsTheScreenAndTheLayoutIsReDerived() throws {
        let c = try configuration()
        let rule = c.devices[0]
        let surface = SurfaceSize(width: 200, height: 120)
        // Nothing says: unturned, as the rule alone says.
        #expect(c.placement(for: rule, kind: .touchscreen, screen: ScreenState())
            == ScreenPlacement(transform: .normal, output: SurfaceSize(width: 800, height: 480), source: "unturned: nothing says how the screen is turned"))
        let still = c.place(rule, surface: surface, kind: .touchscreen)
        #expect(still.layout.children[0].frame == Rect(x: 0, y: 0, width: 200, height: 480))
        // Turned a quarter: the output as seen is 480 x 800 and the menu stretches with it.
        let turned = ScreenState(accelerometer: .rotated90)
        #expect(c.placement(for: rule, kind: .touchscreen, screen: turned)
            == ScreenPlacement(transform: .rotated90, output: SurfaceSize(width: 480, height: 800), source: "accelerometer"))
        let placed = c.place(rule, surface: surface, kind: .touchscreen, screen: turned)
        #expect(placed.rootSize == SurfaceSize(width: 480, height: 800))
        #expect(placed.layout.frame == Rect(x: 0, y: 0, width: 480, height: 800))
        #expect(placed.layout.children[0].frame == Rect(x: 0, y: 0, width: 120, height: 800))
        // The panel's bottom-left corner is the user's top-left.
        #expect(placed.mapping.point(Point(x: 0, y: 120)) == Point(x: 0, y: 0))
        // Upside down: the same size, no stretch.
        let upsideDown = c.place(rule, surface: surface, kind: .touchscreen, screen: ScreenState(accelerometer: .rotated180))
        #expect(upsideDown.layout.children[0].frame == Rect(x: 0, y: 0, width: 200, height: 480))
        #expect(upsideDown.mapping.point(Point(x: 200, y: 120)) == Point(x: 0, y: 0))
    }

    @Test func theCompositorsOutputComesBeforeTheAccelerometerAndPicksThePortraitLayout() throws {
        let c = try configuration()
        let rule = c.devices[1]
        let surface = SurfaceSize(width: 150, height: 94)
        let outputs = [ScreenOutput(name: "HDMI-A-1", transform: .normal, size: SurfaceSize(width: 1920, height: 1080)),
                       ScreenOutput(name: "DSI-1", transform: .rotated270, size: SurfaceSize(width: 800, height: 1280))]
        let screen = ScreenState(outputs: outputs, accelerometer: .normal)
        #expect(c.placement(for: rule, kind: .touchscreen, screen: screen)
            == ScreenPlacement(transform: .rotated270, output: SurfaceSize(width: 800, height: 1280), source: "compositor output DSI-1"))
        let placed = c.place(rule, surface: surface, kind: .touchscreen, screen: screen)
        #expect(placed.layout.id == "tall")
        // Drawn 480 x 800, shown 800 x 1280: stretched to it.
        #expect(placed.layout.frame == Rect(x: 0, y: 0, width: 800, height: 1280))
        // Landscape again: the wide layout, stretched from 800 x 480 to 1280 x 800.
        let wide = ScreenState(outputs: [ScreenOutput(name: "DSI-1", transform: .normal, size: SurfaceSize(width: 1280, height: 800))])
        let back = c.place(rule, surface: surface, kind: .touchscreen, screen: wide)
        #expect(back.layout.id == "wide" && back.layout.children[0].frame == Rect(x: 0, y: 0, width: 320, height: 800))
        // Its output gone: nothing says how it turns (no accelerometer here either).
        #expect(c.placement(for: rule, kind: .touchscreen, screen: ScreenState(outputs: [outputs[0]])).transform == .normal)
    }

    @Test func aFixedRotationOnANamedOutputAndATouchpadDoNotTurn() throws {
        let c = try configuration()
        let outputs = [ScreenOutput(name: "HDMI-A-1", transform: .rotated180, size: SurfaceSize(width: 1080, height: 1920))]
        #expect(c.placement(for: c.devices[2], kind: .touchscreen, screen: ScreenState(outputs: outputs))
            == ScreenPlacement(transform: .rotated90, output: SurfaceSize(width: 1080, height: 1920), source: "compositor output HDMI-A-1"))
        #expect(c.placement(for: c.devices[3], kind: .touchpad, screen: ScreenState(outputs: outputs, accelerometer: .rotated90))
            == ScreenPlacement(transform: .normal, output: nil, source: "configuration"))
    }

    @Test func theOutputTouchDevicesAreMappedToIsTheOneWithoutAName() throws {
        let c = try configuration()
        let outputs = [ScreenOutput(name: "HDMI-A-1", transform: .normal, size: SurfaceSize(width: 1920, height: 1080)),
                       ScreenOutput(name: "eDP-1", transform: .rotated90, size: SurfaceSize(width: 1200, height: 1920))]
        // Two outputs and none named: the compositor's word decides; without it, the built-in panel.
        #expect(c.placement(for: c.devices[0], kind: .touchscreen, screen: ScreenState(outputs: outputs)).transform == .rotated90)
        let twoExternal = [outputs[0], ScreenOutput(name: "DP-2", transform: .rotated270, size: SurfaceSize(width: 1080, height: 1920))]
        #expect(c.placement(for: c.devices[0], kind: .touchscreen, screen: ScreenState(outputs: twoExternal)).transform == .normal)
        let touchOnHDMI = ScreenState(outputs: outputs, touchOutput: "HDMI-A-1")
        #expect(c.placement(for: c.devices[0], kind: .touchscreen, screen: touchOnHDMI).source == "compositor output HDMI-A-1")
        let mapped = c.placement(for: c.devices[0], kind: .touchscreen, screen: ScreenState(outputs: outputs, touchOutput: "eDP-1"))
        #expect(mapped == ScreenPlacement(transform: .rotated90, output: SurfaceSize(width: 480, height: 800), source: "compositor output eDP-1"))
    }
}

/// The configurations docs/configuration.md and docs/desktop.md show are what users copy: each
/// must pass check-config's checks of the file (no error, no warning), and on GNOME and KDE
/// none may take the finger counts their shells animate on a touchpad.
@Suite("The documentation's configurations")
struct ConfigurationPageTests {
    @Test(arguments: ["configuration.md", "desktop.md"])
    func everyYAMLBlockWithALayoutIsValidAndWarnsOfNothing(page: String) throws {
        let text = try String(contentsOfFile: repositoryRoot + "/docs/" + page, encoding: .utf8)
        var blocks: [String] = [], current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```yaml" { current = [] } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else { current?.append(String(line)) }
        }
        let configurations = blocks.filter { $0.contains("\nlayout:") || $0.contains("\nlayouts:") || $0.hasPrefix("layout") }
        #expect(configurations.count >= (page == "desktop.md" ? 3 : 2))
        for (i, yaml) in configurations.enumerated() {
            do throws(ConfigurationError) {
                let c = try Configuration.parse(yaml: yaml, path: "\(page) block \(i + 1)")
                #expect(c.warnings.isEmpty, "\(page) block \(i + 1): \(c.warnings)")
                #expect(c.warnings(shadowing: [3, 4], of: "GNOME").isEmpty, "\(page) block \(i + 1)")
            } catch {
                Issue.record("\(page) block \(i + 1): \(error)")
            }
        }
    }
}
