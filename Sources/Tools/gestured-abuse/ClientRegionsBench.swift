// Clients' regions in a device's layout, as the service keeps them (ClientRegions): 400
// clients of 250 regions each, 100,000 regions with a tap each, over the built-in layout of a
// 300 x 200 mm touchscreen. What one client does must cost its own regions, not the others'.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureProtocol
import GestureService
import Gestures
import SystemLoop

struct ClientRegionsResult {
    var regions: Int
    /// Microseconds: one region registered, then the next touch landing on the layout (its
    /// hit test makes the index again where the change calls for it).
    var registerP50: Double
    var registerP99: Double
    /// One region unregistered, then a touch landing.
    var unregisterP50: Double
    var unregisterP99: Double
    /// A client of 250 regions leaving, then a touch landing.
    var leaveP50: Double
    var leaveP99: Double
    /// Hit tests with nothing changed.
    var hitP50: Double
    var hitP99: Double
}

/// A pseudo-random number generator with a fixed seed: the same layout every run.
struct BenchRandom {
    var seed: UInt64
    mutating func next() -> Double {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Double(seed >> 11) / Double(1 << 53)
    }
}

func clientRegion(_ i: Int, _ random: inout BenchRandom) -> RegionRequest {
    let w = 5 + random.next() * 20, h = 5 + random.next() * 20
    var spec = RegionRequest(id: "r\(i)", frame: Rect(x: random.next() * (300 - w), y: random.next() * (200 - h), width: w, height: h),
                             gestures: [GestureRequest(kind: .tap)])
    spec.hitInsets = EdgeInsets(all: -2)
    return spec
}

func clientRegionsBench(clients: Int = 400, perClient: Int = 250) -> ClientRegionsResult {
    let layout = Layout.standard(size: (300, 200), touchscreen: true)
    let layer = ClientRegions(layout: layout)
    var random = BenchRandom(seed: 7)
    var specs: [[RegionRequest]] = []
    for c in 1...clients {
        let list = (0..<perClient).map { clientRegion($0, &random) }
        specs.append(list)
        for spec in list { layer.install(spec, client: c) }
    }
    func touch() -> Bool { layout.hitTest(Point(x: random.next() * 300, y: random.next() * 200)) != nil }
    precondition(touch())
    var found = 0
    var register: [Double] = [], unregister: [Double] = [], leave: [Double] = [], hits: [Double] = []
    for round in 0..<200 {
        let client = 1 + (round * 37) % clients
        let spec = specs[client - 1][round % perClient]
        var start = now()
        layer.remove(spec.id, client: client)
        if touch() { found += 1 }
        unregister.append((now() - start) * 1e6)
        start = now()
        layer.install(spec, client: client)
        if touch() { found += 1 }
        register.append((now() - start) * 1e6)
    }
    for round in 0..<50 {
        let client = 1 + (round * 53) % clients
        let start = now()
        layer.removeAll(client: client)
        if touch() { found += 1 }
        leave.append((now() - start) * 1e6)
        for spec in specs[client - 1] { layer.install(spec, client: client) }
        if touch() { found += 1 }
    }
    for _ in 0..<20_000 {
        let start = now()
        if touch() { found += 1 }
        hits.append((now() - start) * 1e6)
    }
    precondition(found > 0, "no hits")
    precondition(layer.region("r0", client: clients) != nil, "a region went missing")
    return ClientRegionsResult(regions: clients * perClient,
                               registerP50: percentile(register, 0.5), registerP99: percentile(register, 0.99),
                               unregisterP50: percentile(unregister, 0.5), unregisterP99: percentile(unregister, 0.99),
                               leaveP50: percentile(leave, 0.5), leaveP99: percentile(leave, 0.99),
                               hitP50: percentile(hits, 0.5), hitP99: percentile(hits, 0.99))
}
