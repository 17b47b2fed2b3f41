import Foundation
@testable import GestureProtocol
import Gestures
import Testing

/// Each request's keys are spelt once, in its schema (``MessageSchema``): docs/protocol.md's
/// tables, the reader, the writer and the check for ignored keys all follow it.
@Suite("request schemas")
struct ProtocolSchemaTests {
    /// The rows of the first table after the line `heading` of docs/protocol.md: each cell's
    /// backticked names.
    static func table(after heading: String) throws -> [[[String]]] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let page = try String(contentsOf: url.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "\n" + heading + "\n").dropFirst().first, "no \(heading)")
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        return rows.map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { cell in
                cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }
        }
    }

    @Test func theDocumentedRequestTypesAndTheirKeysAreTheSchemas() throws {
        let rows = try Self.table(after: "## The client's requests")
        #expect(rows.map { $0[0] } == ClientRequest.types.map { [$0] })
        #expect(rows.map { $0[1] } == ClientRequest.kinds.map { $0.fields.map(\.name) })
    }

    @Test func theDocumentedRegionAndFilterKeysAreTheSchemas() throws {
        #expect(try Self.table(after: "### `register`").flatMap { $0[0] } == RegionRequest.keys)
        #expect(try Self.table(after: "### `update`").flatMap { $0[0] } == RegionUpdate.keys)
        #expect(try Self.table(after: "### `subscribe` and `unsubscribe`").flatMap { $0[0] } == EventFilter.keys)
    }

    /// A request written and read back is the same request, and every key it writes is one its
    /// schema knows (nothing written would come back as ignored).
    @Test func everyRequestWrittenReadsBackWithNothingIgnored() throws {
        let region = RegionRequest(id: "ok", frame: Rect(x: 1, y: 2, width: 3, height: 4),
                                   hitInsets: EdgeInsets(top: -1, left: -2, bottom: -3, right: -4), parent: "panel",
                                   gestures: [RecognizerSpec(kind: .tap)])
        var hidden = region
        hidden.hidden = true
        hidden.enabled = false
        let requests: [ClientRequest] = [
            .subscribe(EventFilter(regions: ["a"], kinds: [.tap], states: [.recognized], devices: ["Panel"])),
            .subscribe(EventFilter()), .unsubscribe, .register(region), .register(hidden),
            .update(RegionUpdate(id: "ok", frame: Rect(x: 0, y: 0, width: 1, height: 1), hitInsets: EdgeInsets(), hidden: true, enabled: false)),
            .update(RegionUpdate(id: "ok")), .unregister("ok"), .context(["app": "org.example"]), .ping,
        ]
        for request in requests {
            let line = ClientMessage(id: .number(7), request).jsonLine
            let read = try ClientMessage.parse(Array(line.utf8.dropLast()))
            #expect(read.request == request, "\(line)")
            #expect(read.ignored == [], "\(line)")
        }
    }
}
