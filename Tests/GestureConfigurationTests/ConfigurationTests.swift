import Foundation
import GestureTesting
import GestureConfiguration
import Gestures
import Testing
import TouchEvents

let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// The error text for configuration `yaml` (named "c.yaml"), or nil if it is valid.
func error(_ yaml: String) -> String? {
    do throws(ConfigurationError) {
        _ = try Configuration.parse(yaml: yaml, path: "c.yaml")
        return nil
    } catch {
        return error.description
    }
}

@Suite("Configuration")
struct ConfigurationTests {
    @Test func theKioskExampleIsValid() throws {
        let c = try Configuration.load(path: repositoryRoot + "/examples/kiosk.yaml")
        #expect(c.summary == """
            \(repositoryRoot)/examples/kiosk.yaml: OK — 8 regions, 13 gestures (13 with actions), 1 device rule
              screen: edge-pan(left), edge-pan(bottom), swipe(4 touches, down)
                photo: tap(1 tap, 1 touch), tap(2 taps, 1 touch), pan(1-2 touches), pinch(2+ touches), rotate(2+ touches)
                controls
                  previous: tap(1 tap, 1 touch)
                  play: tap(1 tap, 1 touch)
                  next: tap(1 tap, 1 touch)
                  volume: pan(1 touch)
                  settings: long-press(1 touch)

            """)
        let play = try #require(c.layout.all.first { $0.id == "play" })
        #expect(play.frame == Rect(x: 84, y: 28, width: 44, height: 44))
        #expect(play.hitInsets == EdgeInsets(all: -16))
        #expect(play.gestures.first?.action?.exec == ["/usr/bin/playerctl", "play-pause"])
        #expect(c.layout.all.first { $0.id == "settings" }?.hidden == true)
        #expect(c.devices.first?.size == SurfaceSize(width: 154, height: 86))
    }

    /// Diagonals in a swipe's directions make its recognizer tell eight directions apart.
    @Test func aSwipeMayAskForDiagonals() throws {
        let c = try Configuration.parse(yaml: "layout: {id: root, gestures: [{kind: swipe, touches: 3, directions: [up-left, up-right, up]}]}",
                                        path: "c.yaml")
        let swipe = c.makeLayout(rootSize: SurfaceSize(width: 800, height: 480)).layout.root.recognizers.first as? SwipeRecognizer
        #expect(swipe?.directions == [.upLeft, .upRight, .up] && swipe?.touches == 3)
        #expect(swipe?.name == "swipe(3 touches, up/up-left/up-right)")
    }

    @Test func theBuiltLayoutHitTestsLikeTheFile() throws {
        let c = try Configuration.load(path: repositoryRoot + "/examples/kiosk.yaml")
        let (layout, actions) = c.makeLayout(rootSize: SurfaceSize(width: 800, height: 480))
        #expect(actions.count == 13)
        #expect(layout.hitTest(Point(x: 176, y: 420))?.id == "play")      // extension overlap, nearer play
        #expect(layout.hitTest(Point(x: 172, y: 420))?.id == "previous")
        #expect(layout.hitTest(Point(x: 662, y: 420))?.id == "controls")  // the hidden settings button
        #expect(layout.hitTest(Point(x: 400, y: 200))?.id == "photo")
        #expect(layout.hitTest(Point(x: 50, y: 200))?.id == "screen")
    }

    @Test func thePrintedDefaultIsTheBuiltInLayout() throws {
        let c = try Configuration.parse(yaml: Configuration.defaultYAML(), path: "default.yaml")
        let built = c.makeLayout(rootSize: SurfaceSize(width: 120, height: 80)).layout
        let standard = Layout.standard(size: (120, 80), touchscreen: true)
        #expect(built.root.frame == standard.root.frame)
        #expect(built.root.recognizers.map(\.name) == standard.root.recognizers.map(\.name))
        #expect(built.root.recognizers.map(\.simultaneousKinds) == standard.root.recognizers.map(\.simultaneousKinds))
        #expect(built.root.recognizers.map { GestureSpec(recognizer: $0) } == standard.root.recognizers.map { GestureSpec(recognizer: $0) })
    }

    @Test func deviceRulesMatchByNameKindAndNode() throws {
        let c = try Configuration.parse(yaml: """
            devices:
              - match: {name: "Atmel*Touchscreen", kind: touchscreen}
                output: [800, 480]
              - match: {node: /dev/input/event7}
                rotation: 90
                flip: [x]
            layout: {id: root}
            """, path: "c.yaml")
        #expect(c.devices[0].matches(name: "Atmel maXTouch Touchscreen", kind: .touchscreen, node: nil))
        #expect(!c.devices[0].matches(name: "Atmel maXTouch Touchscreen", kind: .touchpad, node: nil))
        #expect(!c.devices[0].matches(name: "Atmel maXTouch", kind: .touchscreen, node: nil))
        #expect(c.devices[1].matches(name: "anything", kind: .touchpad, node: "/dev/input/event7"))
        #expect(c.devices[1].rotation == .clockwise90 && c.devices[1].flipX && !c.devices[1].flipY)
    }

    @Test func mappingDefaults() throws {
        let c = try Configuration.parse(yaml: "layout: {id: root, frame: [0, 0, 800, 480]}", path: "c.yaml")
        let rule = DeviceRule()
        let screen = c.mapping(for: rule, surface: SurfaceSize(width: 100, height: 50), kind: .touchscreen)
        #expect(screen.mapping.point(Point(x: 100, y: 50)) == Point(x: 800, y: 480), "a touchscreen maps onto the root")
        let pad = c.mapping(for: rule, surface: SurfaceSize(width: 100, height: 50), kind: .touchpad)
        #expect(pad.mapping == .identity, "a touchpad keeps its millimetres")
    }
}

/// Every kind of mistake, with its exact message.
@Suite("Invalid configurations")
struct InvalidConfigurationTests {
    @Test(arguments: [
        ("", "c.yaml:1:1: the configuration is empty: it needs a layout"),
        ("layout: [1, 2", "c.yaml:2:1: invalid YAML: while parsing a flow sequence did not find expected ',' or ']'"),
        ("- a\n- b\n", "c.yaml:1:1: the configuration must be a mapping (key: value lines)"),
        ("devices: []\n", "c.yaml:1:1: missing \"layout\": the region tree (a root region with an id), or \"layouts\": several"),
        ("layuot: {id: root}\n", "c.yaml:1:1: unknown key \"layuot\" in the configuration (known: devices, layout, layouts, service)"),
        ("service: {socket: gestured.sock}\nlayout: {id: root}\n", "c.yaml:1:19: socket must be an absolute path, not \"gestured.sock\""),
        ("service: {max-actions: 0}\nlayout: {id: root}\n", "c.yaml:1:24: max-actions must be a whole number from 1 to 64, not \"0\""),
        ("service: {threads: 2}\nlayout: {id: root}\n", "c.yaml:1:11: unknown key \"threads\" in service (known: seat, socket, socket-group, action-timeout, max-actions, actions-as-root, rotation-lock)"),
        ("layout: {frame: [0, 0, 10, 10]}\n", "c.yaml:1:9: the layout needs an id"),
        ("layout: {id: 7}\n", nil),
        ("layout: {id: root, colour: red}\n", "c.yaml:1:20: unknown key \"colour\" in the layout (known: id, frame, hit-insets, hidden, enabled, pass-through, gestures, children)"),
        ("layout: {id: root, frame: 5}\n", "c.yaml:1:27: frame ([x, y, width, height]) must be a list of 4 numbers"),
        ("layout: {id: root, frame: [0, 0, -10, 10]}\n", "c.yaml:1:27: region \"root\" has a negative size (-10.0 x 10.0): width and height must be 0 or more"),
        ("layout: {id: root, frame: [0, 0, ten, 10]}\n", "c.yaml:1:34: frame ([x, y, width, height]) must be a number, not \"ten\""),
        ("layout: {id: root, hidden: maybe}\n", "c.yaml:1:28: hidden must be true or false, not \"maybe\""),
        ("layout: {id: root, hit-insets: [1, 2]}\n", "c.yaml:1:32: hit-insets ([top, left, bottom, right], or one number for all) must be a list of 4 numbers"),
        ("layout: {id: root, hit-insets: {top: -5, middle: 1}}\n", "c.yaml:1:42: unknown key \"middle\" in hit-insets (known: top, left, bottom, right)"),
        ("layout:\n  id: root\n  children:\n    - {id: a, frame: [0, 0, 1, 1]}\n    - {id: a, frame: [0, 0, 1, 1]}\n",
         "c.yaml:5:12: duplicate region id \"a\" (first at line 4)"),
        ("layout:\n  id: root\n  children:\n    - {id: a}\n", "c.yaml:4:7: region \"a\" needs a frame ([x, y, width, height] in its parent's coordinates)"),
        ("layout: {id: root, gestures: [{kind: flick}]}\n", "c.yaml:1:38: unknown gesture kind \"flick\" (known: tap, long-press, pan, swipe, pinch, rotate, edge-pan)"),
        ("layout: {id: root, gestures: [{taps: 2}]}\n", "c.yaml:1:31: a gesture needs a kind (tap, long-press, pan, swipe, pinch, rotate, edge-pan)"),
        ("layout: {id: root, gestures: [{kind: tap, directions: [up]}]}\n", "c.yaml:1:43: unknown key \"directions\" in a tap gesture (known: kind, action, when, pass-through, simultaneous-with, max-distance, max-duration, max-interval, max-movement, taps, touches)"),
        ("layout: {id: root, gestures: [{kind: swipe, directions: [up, sideways]}]}\n", "c.yaml:1:62: unknown direction \"sideways\" in directions (known: left, right, up, down, up-left, up-right, down-left, down-right)"),
        ("layout: {id: root, gestures: [{kind: swipe, directions: []}]}\n", "c.yaml:1:57: directions must not be empty"),
        ("layout: {id: root, gestures: [{kind: edge-pan, edges: [middle]}]}\n", "c.yaml:1:56: unknown edge \"middle\" in edges (known: left, right, top, bottom)"),
        ("layout: {id: root, gestures: [{kind: tap, taps: 0}]}\n", "c.yaml:1:49: taps must be a whole number from 1 to 10, not \"0\""),
        ("layout: {id: root, gestures: [{kind: tap, touches: 2.5}]}\n", "c.yaml:1:52: touches must be a whole number from 1 to 10, not \"2.5\""),
        ("layout: {id: root, gestures: [{kind: pan, min-touches: 3, max-touches: 2}]}\n", "c.yaml:1:72: max-touches 2 is less than min-touches 3"),
        ("layout: {id: root, gestures: [{kind: pinch, min-touches: 1}]}\n", "c.yaml:1:58: min-touches must be a whole number from 2 to 10, not \"1\""),
        ("layout: {id: root, gestures: [{kind: tap, max-movement: -1}]}\n", "c.yaml:1:57: max-movement is in millimetres and must be 0 to 1000, not \"-1\""),
        ("layout: {id: root, gestures: [{kind: long-press, min-duration: 0}]}\n", "c.yaml:1:64: min-duration is in milliseconds and must be more than 0 and at most 60000, not \"0\""),
        ("layout: {id: root, gestures: [{kind: swipe, angle-tolerance: 60}]}\n", "c.yaml:1:62: angle-tolerance is in degrees and must be more than 0 and at most 45, not \"60\""),
        ("layout: {id: root, gestures: [{kind: swipe, min-velocity: fast}]}\n", "c.yaml:1:59: min-velocity must be a number, not \"fast\""),
        ("layout: {id: root, gestures: [{kind: pan, simultaneous-with: [zoom]}]}\n", "c.yaml:1:63: unknown gesture kind \"zoom\" in simultaneous-with (known: tap, long-press, pan, swipe, pinch, rotate, edge-pan)"),
        ("layout: {id: root, gestures: [{kind: custom}]}\n", "c.yaml:1:38: unknown gesture kind \"custom\" (known: tap, long-press, pan, swipe, pinch, rotate, edge-pan)"),
        ("layout: {id: root, gestures: [{kind: pan, simultaneous-with: [custom]}]}\n", "c.yaml:1:63: unknown gesture kind \"custom\" in simultaneous-with (known: tap, long-press, pan, swipe, pinch, rotate, edge-pan)"),
        ("layout: {id: root, gestures: [{kind: tap, action: {run: x}}]}\n", "c.yaml:1:52: unknown key \"run\" in an action (known: exec, emit, key, hold, button, scroll, pointer, touchpad, on)"),
        ("layout: {id: root, gestures: [{kind: tap, action: {emit: false}}]}\n", "c.yaml:1:51: an action needs one of exec (a program to run), emit: true (send to socket clients), key, hold, button, scroll, pointer or touchpad"),
        ("layout: {id: root, gestures: [{kind: tap, action: {exec: []}}]}\n", "c.yaml:1:58: exec must list the program and its arguments, e.g. [\"/usr/bin/playerctl\", \"play-pause\"]"),
        ("layout: {id: root, gestures: [{kind: tap, action: {exec: [playerctl, next]}}]}\n", "c.yaml:1:59: exec runs a program without a shell: give its absolute path, not \"playerctl\""),
        ("layout: {id: root, gestures: [{kind: tap, action: {emit: true, on: [ended]}}]}\n", "c.yaml:1:68: \"on\" applies to continuous gestures; a tap happens once"),
        ("layout: {id: root, gestures: [{kind: pan, action: {emit: true, on: [moved]}}]}\n", "c.yaml:1:69: unknown state \"moved\" in on (known: began, changed, ended)"),
        ("devices: [{match: {kind: keyboard}}]\nlayout: {id: root}\n", "c.yaml:1:26: unknown device kind \"keyboard\" (known: touchscreen, touchpad)"),
        ("devices: [{rotation: 45}]\nlayout: {id: root}\n", "c.yaml:1:22: rotation must be 0, 90, 180, 270 or auto, not \"45\""),
        ("devices: [{rotation: 1e300}]\nlayout: {id: root}\n", "c.yaml:1:22: rotation must be 0, 90, 180, 270 or auto, not \"1e300\""),
        ("devices: [{rotation: sideways}]\nlayout: {id: root}\n", "c.yaml:1:22: rotation must be 0, 90, 180, 270 or auto, not \"sideways\""),
        ("devices: [{output-name: \"\"}]\nlayout: {id: root}\n", "c.yaml:1:25: output-name must be non-empty text"),
        ("devices: [{swap-axes: sometimes}]\nlayout: {id: root}\n", "c.yaml:1:23: swap-axes must be true or false, not \"sometimes\""),
        ("devices: [{layout: {landscape: root}}]\nlayout: {id: root}\n", "c.yaml:1:20: layout per orientation names two layouts: {landscape: ID, portrait: ID}"),
        ("devices: [{layout: {landscape: root, portrait: root, square: root}}]\nlayout: {id: root}\n", "c.yaml:1:54: unknown key \"square\" in layout (a layout per orientation) (known: landscape, portrait)"),
        ("devices: [{layout: {landscape: root, portrait: root}}]\nlayout: {id: root}\n", "c.yaml:1:20: a layout per orientation needs a screen that turns: add rotation: auto (or output-name) to this device rule"),
        ("devices: [{rotation: auto, layout: {landscape: root, portrait: tall}}]\nlayout: {id: root}\n", "c.yaml:1:64: no layout \"tall\" (layouts: root)"),
        ("service: {rotation-lock: locked}\nlayout: {id: root}\n", "c.yaml:1:26: rotation-lock is the absolute path of a file that holds the screen's rotation while it exists, not \"locked\""),
        ("devices: [{calibration: [1, 0, 0, 0, 1]}]\nlayout: {id: root}\n", "c.yaml:1:25: calibration (libinput's matrix: a b c d e f) must be a list of 6 numbers"),
        ("devices: [{flip: [z]}]\nlayout: {id: root}\n", "c.yaml:1:19: flip takes x and y, not \"z\""),
        ("devices: [{size: [0, 86]}]\nlayout: {id: root}\n", "c.yaml:1:18: size must be positive, not 0.0 x 86.0"),
        ("devices: [{match: {serial: 1}}]\nlayout: {id: root}\n", "c.yaml:1:20: unknown key \"serial\" in match (known: name, kind, node)"),
        ("devices: {kind: touchpad}\nlayout: {id: root}\n", "c.yaml:1:10: devices must be a list"),
    ] as [(String, String?)])
    func reportsTheFirstMistakeWithItsPlace(yaml: String, message: String?) {
        #expect(error(yaml) == message)
    }

    @Test func aMissingFileSaysSo() {
        do throws(ConfigurationError) {
            _ = try Configuration.load(path: "/nonexistent/gestured.yaml")
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/gestured.yaml: cannot read the configuration: "))
        }
    }
}
