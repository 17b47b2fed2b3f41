import GestureConfiguration
import Gestures
import Testing
import TouchEvents

/// A touchscreen to set up.
private let screen = DeviceDescription(
    name: "Panel", id: InputID(bustype: 3, vendor: 1, product: 2, version: 0),
    codes: [EventType.syn: [0], EventType.key: [KeyCode.touch]],
    absInfo: [AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
              AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
              AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
              AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
    properties: [InputProperty.direct])

/// `own: true`, `hold-back` and `pass-through`, as users type them (issue 48's examples).
@Suite("Owning devices in a configuration")
struct OwnershipConfigurationTests {
    static let yaml = """
        devices:
          - match: {kind: touchscreen}
            own: true
            hold-back: 60ms
          - match: {kind: touchpad}
            own: true
        layout:
          id: screen
          gestures:
            - {kind: swipe, touches: 4, directions: [up], action: {exec: [/usr/bin/true]}}
            - {kind: swipe, touches: 3, directions: [left], action: {key: "leftmeta+left"}}
            - {kind: swipe, touches: 3, directions: [right], action: {emit: true}}
            - {kind: swipe, touches: 3, directions: [down], action: {exec: [/usr/bin/true]}, pass-through: true}
            - {kind: tap, touches: 3}
            - {kind: long-press, action: {emit: true}, pass-through: false}
            - {kind: pan, min-touches: 2, action: {scroll: vertical}}
          children:
            - id: app
              frame: [0, 0, 100, 100]
              pass-through: true
              gestures:
                - {kind: tap, action: {button: left}}
              children:
                - id: inner
                  frame: [0, 0, 10, 10]
                  gestures:
                    - {kind: pan, action: {scroll: vertical}}
                    - {kind: long-press, action: {exec: [/usr/bin/true]}, pass-through: false}
        """

    @Test func devicesAreOwnedAsTheRulesSayWithTheirHoldBack() throws {
        let c = try Configuration.parse(yaml: Self.yaml, path: "c.yaml")
        #expect(c.devices.map(\.ownership) == [TouchOwnership(holdBack: .milliseconds(60)), TouchOwnership()])
        let setup = c.setup(for: screen, node: nil)
        #expect(setup?.ownership == TouchOwnership(holdBack: .milliseconds(60)))
        // Without own, a device is shared.
        let shared = try Configuration.parse(yaml: "layout: {id: root}", path: "c.yaml")
        #expect(shared.setup(for: screen, node: nil)?.ownership == nil)
        // A bare number is milliseconds too.
        let bare = try Configuration.parse(yaml: "devices: [{own: true, hold-back: 25}]\nlayout: {id: root}", path: "c.yaml")
        #expect(bare.devices[0].holdBack == .milliseconds(25))
    }

    /// `end-owned-touches` (issue 64): how a touch the apps had ends when an owning gesture
    /// takes it; `auto` (the running compositor decides) unless the rule says.
    @Test func ownedTouchesEndAsTheRuleSays() throws {
        let c = try Configuration.parse(yaml: """
            devices:
              - match: {kind: touchscreen, name: "Atmel"}
                own: true
                end-owned-touches: lift   # cage drops libinput's cancel
              - match: {kind: touchscreen, name: "ELAN"}
                own: true
                end-owned-touches: cancel
              - match: {kind: touchscreen}
                own: true
            layout: {id: root}
            """, path: "c.yaml")
        #expect(c.devices.map(\.ownership?.ending) == [.lift, .cancel, .automatic])
        let summary = c.summary
        #expect(summary.contains("owns kind touchscreen, name \"Atmel\" (line 2), touches taken end with a lift:"))
        #expect(summary.contains("(line 5), touches taken end with libinput's cancel:"))
        #expect(summary.contains("(line 8), touches taken end as the running compositor needs:"))
    }

    @Test func aGestureOwnsItsTouchesWhenItActsOnTheDesktopUnlessItOrItsRegionPassesThem() throws {
        let c = try Configuration.parse(yaml: Self.yaml, path: "c.yaml")
        let layout = c.makeLayout(rootSize: SurfaceSize(width: 200, height: 100)).layout
        #expect(layout.root.recognizers.map(\.ownsTouches) == [true, true, false, false, false, true, true])
        #expect(layout.region("app")?.recognizers.map(\.ownsTouches) == [false])
        #expect(layout.region("inner")?.recognizers.map(\.ownsTouches) == [false, true])
    }

    @Test(arguments: [
        ("devices: [{hold-back: 60ms}]\nlayout: {id: root}",
         "c.yaml:1:23: hold-back keeps new touches from the apps of an owned device: add own: true to this device rule"),
        ("devices: [{own: true, hold-back: 2s}]\nlayout: {id: root}",
         "c.yaml:1:34: hold-back is a time in milliseconds from 0 to 1000 (60ms, or 60), not \"2s\""),
        ("devices: [{own: true, hold-back: 1500ms}]\nlayout: {id: root}",
         "c.yaml:1:34: hold-back is a time in milliseconds from 0 to 1000 (60ms, or 60), not \"1500ms\""),
        ("devices: [{end-owned-touches: lift}]\nlayout: {id: root}",
         "c.yaml:1:31: end-owned-touches says how an owned device's touches end for the apps: add own: true to this device rule"),
        ("devices: [{own: true, end-owned-touches: release}]\nlayout: {id: root}",
         "c.yaml:1:42: end-owned-touches is auto, cancel or lift, not \"release\""),
        ("devices: [{own: yes please}]\nlayout: {id: root}",
         "c.yaml:1:17: own must be true or false, not \"yes please\""),
        ("devices: [{own: \"true\"}]\nlayout: {id: root}",
         "c.yaml:1:17: own must be true or false without quotes: \"true\" in quotes is a string"),
        ("layout: {id: root, gestures: [{kind: tap, pass-through: 1}]}",
         "c.yaml:1:57: pass-through must be true or false, not \"1\""),
    ])
    func aBadOwnershipSettingSaysWhere(yaml: String, message: String) {
        #expect(error(yaml) == message)
    }
}
