import GestureTesting
import Gestures
import TouchEvents
import Testing

/// One rule for a touch beyond the layout's root, the same in routing and `Layout.hitTest`:
/// within 3% of the root's width (height) beyond its frame, the root's nearest point; farther
/// out, nothing. A device reporting past its declared range is brought onto its surface first.
@Suite("Beyond the root")
struct BeyondTheRootTests {
    /// A 200 x 100 root with a 20 x 20 button in its top right corner; what each taps.
    func corner() -> (Layout, () -> [String]) {
        final class Log { var lines: [String] = [] }
        let log = Log()
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let button = Region(id: "corner", frame: Rect(x: 180, y: 0, width: 20, height: 20))
        root.addChild(button)
        for region in [root, button] {
            let id = region.id  // not the region: its own closure would keep it alive
            region.onTap { tap in log.lines.append("\(id) at \(tap.location.x),\(tap.location.y)") }
        }
        return (Layout(root: root), { log.lines })
    }

    /// Where a touch at `p` is hit-tested, and where a tap there is routed.
    func both(_ p: Point, surface: SurfaceSize? = nil) -> (hit: String?, tapped: [String]) {
        let (layout, log) = corner()
        let pipeline = GesturePipeline(layout: layout, surface: surface)
        var script = TouchScript()
        script.tap(at: .zero, x: p.x, y: p.y)
        let clock = ManualClock(pipeline: pipeline)
        clock.play(script.frames)
        pipeline.finish()
        return (layout.hitTest(p)?.id, log())
    }

    @Test func aLittleBeyondTheRootIsTakenAtItsNearestPointInBoth() {
        // 6 mm right of a 200 mm root is 3%: the corner button, at the root's edge.
        #expect(both(Point(x: 206, y: 10)) == ("corner", ["corner at 206.0,10.0"]))
        #expect(both(Point(x: 190, y: -3)) == ("corner", ["corner at 190.0,-3.0"]))
        #expect(both(Point(x: -5, y: 50)) == ("root", ["root at -5.0,50.0"]))
        #expect(Layout(root: Region(id: "r", frame: Rect(x: 0, y: 0, width: 200, height: 100))).landing(Point(x: 206, y: -3))
            == Point(x: 200, y: 0))
    }

    @Test func fartherOutNothingIsHitAndTheTouchIsIgnored() {
        #expect(both(Point(x: 206.5, y: 10)) == (nil, []))
        #expect(both(Point(x: 190, y: -3.5)) == (nil, []))
        #expect(both(Point(x: 400, y: 400)) == (nil, []))
    }

    /// A device reporting past its declared range, however far, is on its surface: taken at the
    /// surface's edge, then mapped (here onto a root as big as the surface).
    @Test func aTouchBeyondTheDevicesSurfaceIsTakenAtItsEdge() {
        #expect(both(Point(x: 230, y: 10), surface: SurfaceSize(width: 200, height: 100)).tapped == ["corner at 230.0,10.0"])
        #expect(both(Point(x: 230, y: 10)).tapped == [])
    }
}
