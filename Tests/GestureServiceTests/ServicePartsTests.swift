import GestureProtocol
import GestureTesting
import GestureConfiguration
import GestureRuntime
@testable import GestureService
import Gestures
import Logging
import SystemLoop
import Testing
import TouchEvents
import TouchInputTesting

/// The service's parts, each on its own, without the service around them: the action
/// dispatcher, the client hub and what the view and the metrics are fed.
@Suite("The service's parts, each on its own")
struct ServicePartsTests {
    static let configuration = """
        layout:
          id: root
          gestures:
            - kind: tap
              action: {emit: true}
            - kind: long-press
              when: {app: firefox}
              action: {emit: true}
            - kind: swipe
        """

    /// A device session on the configuration above, on the test touchscreen, under `dispatcher`'s
    /// rules when given (its actions and conditions then known to it).
    func session(_ dispatcher: ActionDispatcher? = nil) throws -> DeviceSession {
        let configuration = try Configuration.parse(yaml: Self.configuration, path: "parts.yaml")
        return try DeviceSession(device: .testTouchscreen, node: "/dev/input/event7",
                                 rules: dispatcher.map { $0.rules(of: configuration) } ?? configuration)
    }

    func dispatcher() throws -> ActionDispatcher {
        ActionDispatcher(settings: ServiceSettings(), loop: try SharedEventLoop(clock: ManualClock()), clock: ManualClock(),
                         logger: Logger(label: "test"))
    }

    /// Attached to a session, the dispatcher gives every recognizer with an action a handler
    /// (the tap's `emit` sends its event), none to the swipe without one; the `when` gesture
    /// follows the focused app.
    @Test func theDispatcherRunsTheActionsOfASessionAndFollowsTheFocus() throws {
        let dispatcher = try dispatcher()
        let session = try session(dispatcher)
        var emitted: [String] = []
        dispatcher.emit = { emitted.append("\($0.kind) \($0.state) \($0.region)") }
        dispatcher.attach(session)
        let recognizers = session.layout.root.recognizers
        #expect(recognizers.map(\.kind) == [.tap, .longPress, .swipe])
        #expect(recognizers[1].isEnabled == false)
        dispatcher.focus.report("firefox", from: "client 1")
        dispatcher.applyFocus(to: session)
        #expect(recognizers[1].isEnabled == true)
        var script = TouchScript()
        script.tap(at: .zero, x: 50, y: 50)
        ManualClock(pipeline: session.pipeline).play(script.frames)
        session.pipeline.finish()
        #expect(emitted == ["tap recognized root"])
    }

    /// The hub keeps one layer of clients' regions per device's layout, in the order the
    /// sessions began, and lets a layout's go with its session; without a socket it has no
    /// client, and nothing waits for a turn.
    @Test func theHubKeepsALayerOfClientsRegionsPerLayout() throws {
        let loop = try SharedEventLoop(clock: ManualClock())
        let hub = ClientHub(loop: loop, logger: Logger(label: "test"), budgets: ServiceBudgets(), focus: FocusTracker(logger: Logger(label: "test")),
                            observability: ServiceObservability())
        let first = try session().layout
        let second = try session().layout
        hub.install(in: first)
        hub.install(in: second)
        #expect(hub.clientLayers.map { ObjectIdentifier($0.layout) } == [ObjectIdentifier(first), ObjectIdentifier(second)])
        hub.remove(first)
        #expect(hub.clientLayers.map { ObjectIdentifier($0.layout) } == [ObjectIdentifier(second)])
        #expect(hub.clientCount == 0 && hub.clientRegionCount == 0 && !hub.wantsTurnNow)
    }

    /// With neither the view nor the metrics served, watching a session costs it nothing (no
    /// observer put on its frames or failures), and a change of clients' regions is not even
    /// worked out.
    @Test func observabilityOffCostsNothing() throws {
        let session = try session()
        let observability = ServiceObservability()
        observability.watch(session)
        #expect(session.afterFrame == nil)
        #expect(session.pipeline.failureObserver == nil)
        var workedOut = 0
        observability.clientLayoutsChanged({ workedOut += 1; return [] }())
        #expect(workedOut == 0)
        #expect(observability.metricsAddress == nil && observability.view == nil)
    }
}
