import Foundation
import GestureProtocol
@testable import GestureService
import Testing

/// What all clients together may hold (ServiceBudgets): past a budget the process holding the
/// most is refused, never a newcomer. Every client of a test is in the test's process, so each
/// test says which process each connection comes from, in the order they connect.
@Suite("budgets over all socket clients", .serialized)
struct BudgetTests {
    /// A service whose connections come from `processes`, in order.
    func harness(_ budgets: ServiceBudgets, processes: [Int32]) throws -> Harness {
        var queue = processes
        return try Harness(socket: true, budgets: budgets) { service in
            service.clientProcess = { _ in queue.isEmpty ? nil : queue.removeFirst() }
        }
    }

    /// Each client's messages in short, the greeting left out.
    func said(_ c: RawClient) -> [String] { c.summary().filter { $0 != "greeting" } }

    @Test func pastTheConnectionsTheProcessWithTheMostLosesOne() throws {
        var budgets = ServiceBudgets()
        budgets.clients = 3
        let h = try harness(budgets, processes: [100, 100, 200, 100, 300])
        let a = try RawClient(h), b = try RawClient(h), c = try RawClient(h)
        #expect([a, b, c].map { $0.summary() } == [["greeting"], ["greeting"], ["greeting"]])
        // A fourth from process 100, which has the most: it is the one refused.
        let d = try RawClient(h)
        #expect(d.summary() == ["error service-full -"])
        #expect(d.isClosed)
        // A fifth from process 300: process 100's newest connection (b) makes room.
        let e = try RawClient(h)
        #expect(e.summary() == ["greeting"])
        #expect(b.summary() == ["error service-full -"])
        #expect(b.isClosed && !a.isClosed && !c.isClosed)
        // The warning for d; the one for b, within the second, is held back.
        #expect(h.log.lines.filter { $0.hasPrefix("warning socket client let go") }.map { $0.contains("client=4") } == [true])
    }

    @Test func pastTheRegionsTheProcessHoldingTheMostIsRefused() throws {
        var budgets = ServiceBudgets()
        budgets.regions = 4
        let h = try harness(budgets, processes: [100, 200])
        let a = try RawClient(h), b = try RawClient(h)
        _ = a.lines() + b.lines()
        func register(_ c: RawClient, _ ids: ClosedRange<Int>) {
            for i in ids {
                c.send(#"{"type": "register", "id": \#(i), "region": {"id": "r\#(i)", "frame": [\#(i * 10), 0, 5, 5], "gestures": [{"kind": "tap"}]}}"# + "\n")
            }
            h.service.runOnce(timeout: 0)
        }
        register(a, 1...3)
        register(b, 1...1)
        #expect(said(a) == ["reply register 1", "reply register 2", "reply register 3"])
        #expect(said(b) == ["reply register 1"])
        #expect(h.service.clientRegionCount == 4)
        // Full. Process 200 (one region) asks for another: process 100 (three) makes room.
        register(b, 2...2)
        #expect(said(b) == ["reply register 2"])
        #expect(said(a) == ["error service-full -"] && a.isClosed)
        #expect(h.service.clientRegionCount == 2)
        register(b, 3...5)
        // Full again, and process 200 holds the most: its own request is refused; it stays.
        #expect(said(b) == ["reply register 3", "reply register 4", "error service-full 5"])
        #expect(!b.isClosed && h.service.clientRegionCount == 4)
    }

    @Test func pastTheUnfinishedInputTheProcessHoldingTheMostLosesIt() throws {
        var budgets = ServiceBudgets()
        budgets.inputBytes = 100 * 1024
        let h = try harness(budgets, processes: [100, 200])
        let a = try RawClient(h), b = try RawClient(h)
        _ = a.lines() + b.lines()
        a.send(#"{"type": "ping", "id": 1, "pad": ""# + String(repeating: "x", count: 60 * 1024))
        h.service.runOnce(timeout: 0)
        b.send(#"{"type": "ping", "id": 2, "pad": ""# + String(repeating: "x", count: 50 * 1024))
        h.service.runOnce(timeout: 0)
        #expect(said(a) == ["error service-full -"] && a.isClosed)
        b.send("\"}\n")
        h.service.runOnce(timeout: 0)
        #expect(said(b) == ["pong"] && !b.isClosed)
    }

    @Test func pastTheUnsentOutputTheProcessWithTheMostNotReadLosesIt() throws {
        var budgets = ServiceBudgets()
        budgets.outputBytes = 50 * 1024
        let h = try harness(budgets, processes: [100, 200])
        let a = try RawClient(h), b = try RawClient(h)
        _ = b.lines()
        // a sends pings and reads nothing, until its answers fill its socket and then the budget.
        let pings = String(repeating: #"{"type": "ping", "id": 1}"# + "\n", count: 500)
        func letGo() -> Bool { h.log.lines.contains { $0.hasPrefix("warning socket client let go: the service is full") && $0.contains("messages waiting") } }
        for _ in 0..<100 where !letGo() {
            a.send(pings)
            h.service.runOnce(timeout: 0)
        }
        #expect(letGo())
        _ = a.lines()
        #expect(a.isClosed)
        #expect(!h.log.lines.contains { $0.contains("stopped reading") }, "the budget, before its own backlog limit")
        b.send(#"{"type": "ping", "id": 2}"# + "\n")
        h.service.runOnce(timeout: 0)
        #expect(said(b) == ["pong"])
    }
}
