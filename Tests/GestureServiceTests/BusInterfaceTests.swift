import GestureProtocol
@testable import GestureService
import Gestures
import SystemBus
import Testing
import TouchEvents

/// What the service says on the system bus: each gesture event as its signal, and the
/// properties from the greeting. (scripts/check-dbus.py hears them on a real bus.)
@Suite("The service on the system bus")
struct BusInterfaceTests {
    @Test func eachStateIsItsSignal() {
        #expect(GestureState.allCases.map { BusInterface.member(of: $0) }
            == [nil, "GestureBegin", "GestureUpdate", "GestureEnd", "GestureCancel", nil, "GestureRecognized"])
    }

    @Test func aSignalCarriesTheEventsValuesByTheirProtocolNames() {
        var swipe = GestureEvent(kind: .swipe, state: .recognized, region: "panel", touches: 2, x: 60.5, y: 40, time: 0.25,
                                 values: .swipe(.init(direction: .left, translation: Point(x: -30, y: 1), velocity: Point(x: -400, y: 10),
                                                      decidedAfterMillimetres: 8, decidedAfter: .milliseconds(40))))
        swipe.device = "Panel"
        swipe.currentTouches = 1
        #expect(BusInterface.arguments(of: swipe) == [
            .string("swipe"), .string("panel"), .string("Panel"), .uint32(2), .double(60.5), .double(40),
            .dictionary([("time", .double(0.25)), ("current_touches", .int32(1)), ("dx", .double(-30)), ("dy", .double(1)),
                         ("vx", .double(-400)), ("vy", .double(10)), ("direction", .string("left")), ("decided_mm", .double(8)),
                         ("decided_ms", .double(40))]),
        ])
        let tap = GestureEvent(kind: .tap, state: .recognized, region: "root", touches: 1, x: 1, y: 2, values: .tap(.init(taps: 2)))
        #expect(BusInterface.arguments(of: tap).last == .dictionary([("time", .double(0)), ("taps", .int32(2))]))
        #expect(BusInterface.arguments(of: tap)[2] == .string(""), "a device not known is empty")
    }

    @Test func thePropertiesAreTheGreetings() {
        let greeting = Greeting(service: "0.1.0", devices: [Greeting.Device(name: "Panel", kind: "touchscreen", node: "/dev/input/event5")],
                                layouts: ["root", "kiosk"])
        #expect(BusInterface.property("Version", of: greeting) == .string("0.1.0"))
        #expect(BusInterface.property("ProtocolMinor", of: greeting) == .uint32(1))
        #expect(BusInterface.property("Devices", of: greeting)
            == .array(element: "(sss)", [.structure([.string("Panel"), .string("touchscreen"), .string("/dev/input/event5")])]))
        #expect(BusInterface.property("Devices", of: greeting)?.signature == "a(sss)")
        #expect(BusInterface.property("Layouts", of: greeting) == .array(element: "s", [.string("root"), .string("kiosk")]))
        #expect(BusInterface.property("Colour", of: greeting) == nil)
    }
}
