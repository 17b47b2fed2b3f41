import GestureTesting
@testable import Gestures
import Testing
import TouchEvents

@Suite("Region tree and hit testing")
struct LayoutTests {
    /// A 200 x 100 screen with a panel and two small adjacent buttons in it.
    func kiosk() -> (Layout, panel: Region, a: Region, b: Region) {
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let panel = Region(id: "panel", frame: Rect(x: 0, y: 60, width: 200, height: 40))
        let a = Region(id: "a", frame: Rect(x: 10, y: 10, width: 10, height: 10), hitInsets: EdgeInsets(all: -8))
        let b = Region(id: "b", frame: Rect(x: 30, y: 10, width: 10, height: 10), hitInsets: EdgeInsets(all: -8))
        root.addChild(panel)
        panel.addChild(a)
        panel.addChild(b)
        return (Layout(root: root), panel, a, b)
    }

    /// Regions a socket client registered carry their namespace (``Region/namespace``: the client) and the
    /// client's own ids: the layout's id lookup and its own regions leave them out, however
    /// their ids compare with the layout's; hit testing and gestures still find them.
    @Test func clientsRegionsAreLeftOutOfTheLayoutsIdLookup() {
        let (layout, panel, _, _) = kiosk()
        #expect(layout.region("panel") === panel)
        let group = Region(id: "client 1", frame: layout.root.frame)
        group.namespace = 1
        group.isGroup = true
        let theirs = Region(id: "panel", frame: Rect(x: 150, y: 0, width: 50, height: 50))
        theirs.namespace = 1
        let tap = TapRecognizer()
        theirs.add(tap)
        group.addChild(theirs)
        layout.root.addChild(group)
        #expect(layout.region("panel") === panel, "the layout's own, though the client's joined last")
        let justTheirs = Region(id: "only theirs", frame: Rect(x: 150, y: 60, width: 10, height: 10))
        justTheirs.namespace = 1
        theirs.addChild(justTheirs)
        #expect(layout.region("only theirs") == nil)
        #expect(!layout.regionsOutsideNamespaces.contains { $0.namespace != nil })
        #expect(layout.regionsOutsideNamespaces.count == 4, "screen, panel, a, b")
        #expect(layout.hitTest(Point(x: 160, y: 10)) === theirs)
        theirs.removeFromParent()
        #expect(layout.region("panel") === panel)
        let g = tap.event(.recognized, time: .zero, TouchTracker())
        #expect(g.region == "panel" && g.namespace == 1, "its gestures say whose region it was, even once it left")
    }

    @Test func frontMostDeepestWins() {
        let (layout, _, _, _) = kiosk()
        #expect(layout.hitTest(Point(x: 15, y: 75))?.id == "a")       // in a's frame
        #expect(layout.hitTest(Point(x: 100, y: 80))?.id == "panel")  // panel only
        #expect(layout.hitTest(Point(x: 100, y: 20))?.id == "screen")
        #expect(layout.hitTest(Point(x: 250, y: 20)) == nil)
        // Later siblings are on top.
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        root.addChild(Region(id: "under", frame: Rect(x: 0, y: 0, width: 50, height: 50)))
        root.addChild(Region(id: "over", frame: Rect(x: 25, y: 25, width: 50, height: 50)))
        #expect(Layout(root: root).hitTest(Point(x: 30, y: 30))?.id == "over")
    }

    @Test func negativeInsetsExtendTheHitArea() {
        let (layout, _, a, _) = kiosk()
        #expect(a.hitArea == Rect(x: 2, y: 62, width: 26, height: 26))
        #expect(layout.hitTest(Point(x: 4, y: 64))?.id == "a")   // 6 mm outside a's frame
        #expect(layout.hitTest(Point(x: 1, y: 64))?.id == "panel")
    }

    @Test func positiveInsetsShrinkAndClampAtZero() {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let shrunk = Region(id: "shrunk", frame: Rect(x: 0, y: 0, width: 40, height: 40), hitInsets: EdgeInsets(all: 5))
        let gone = Region(id: "gone", frame: Rect(x: 50, y: 50, width: 10, height: 10), hitInsets: EdgeInsets(left: 8, right: 8))
        root.addChild(shrunk)
        root.addChild(gone)
        #expect(shrunk.hitArea == Rect(x: 5, y: 5, width: 30, height: 30))
        #expect(gone.hitArea == Rect(x: 58, y: 50, width: 0, height: 10))
        let layout = Layout(root: root)
        #expect(layout.hitTest(Point(x: 2, y: 2))?.id == "root")
        #expect(layout.hitTest(Point(x: 55, y: 55))?.id == "root")
        #expect(layout.hitTest(Point(x: 58, y: 55))?.id == "root")
    }

    @Test func hiddenOrDisabledRegionsAreNeitherHitNorExtendedNorAreTheirChildren() {
        for hide in [true, false] {
            let (layout, panel, a, _) = kiosk()
            if hide { a.isHidden = true } else { a.isEnabled = false }
            #expect(layout.hitTest(Point(x: 15, y: 75))?.id == "panel")
            #expect(layout.hitTest(Point(x: 4, y: 64))?.id == "panel")
            if hide { panel.isHidden = true } else { panel.isEnabled = false }
            #expect(layout.hitTest(Point(x: 35, y: 75))?.id == "screen", "b goes with its parent")
        }
    }

    @Test func anExtendedAreaReachesOutsideTheParent() {
        // A 10 mm button on the panel's top border, extended 8 mm: hittable above the panel.
        let (layout, _, _, b) = kiosk()
        b.frame = Rect(x: 30, y: 0, width: 10, height: 10)
        #expect(layout.hitTest(Point(x: 35, y: 55))?.id == "b")  // 5 mm above the panel
    }

    @Test func overlappingExtensionsGoToTheNearestTrueFrame() {
        // a is 10..20, b 30..40 (x), both extended by 8: 22..28 is in both extensions.
        let (layout, _, _, _) = kiosk()
        #expect(layout.hitTest(Point(x: 23, y: 75))?.id == "a")  // 3 mm from a, 7 from b
        #expect(layout.hitTest(Point(x: 27, y: 75))?.id == "b")  // b is on top, but a's 7 mm > b's 3 mm
        #expect(layout.hitTest(Point(x: 25, y: 75))?.id == "b")  // a tie goes to the front-most
        // A true frame beats any extension, even one in front of it.
        #expect(layout.hitTest(Point(x: 31, y: 75))?.id == "b")
        #expect(layout.hitTest(Point(x: 19, y: 75))?.id == "a")
    }

    @Test func regionsAreFoundByIDAndTheIndexFollowsChanges() {
        let (layout, panel, _, _) = kiosk()
        #expect(layout.region("b")?.id == "b")
        #expect(layout.region("nope") == nil)
        let c = Region(id: "c", frame: Rect(x: 100, y: 10, width: 20, height: 20))
        panel.addChild(c)
        #expect(layout.region("c") === c)
        #expect(layout.hitTest(Point(x: 110, y: 80))?.id == "c")
        c.frame = Rect(x: 150, y: 10, width: 20, height: 20)
        #expect(layout.hitTest(Point(x: 110, y: 80))?.id == "panel")
        c.removeFromParent()
        #expect(layout.region("c") == nil)
        #expect(layout.hitTest(Point(x: 160, y: 80))?.id == "panel")
    }

    /// The id map follows regions as they come, go and move, without being made again; with
    /// two regions of one id, the first in depth-first order is found, and the other once the
    /// first has gone.
    @Test func theIDMapFollowsAddsRemovesMovesAndDuplicates() {
        let (layout, panel, a, _) = kiosk()
        #expect(layout.region("a") === a)
        let box = Region(id: "box", frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let inner = Region(id: "inner", frame: Rect(x: 0, y: 0, width: 5, height: 5))
        box.addChild(inner)
        layout.root.addChild(box)
        #expect(layout.region("inner") === inner)
        box.removeFromParent()
        #expect(layout.region("inner") == nil && layout.region("box") == nil)
        panel.addChild(box)  // back, somewhere else
        #expect(layout.region("inner") === inner)
        // A second "a", later in depth-first order than the first.
        let otherA = Region(id: "a", frame: Rect(x: 0, y: 0, width: 5, height: 5))
        layout.root.addChild(otherA)
        #expect(layout.region("a") === a)
        a.removeFromParent()
        #expect(layout.region("a") === otherA)
        otherA.removeFromParent()
        #expect(layout.region("a") == nil)
    }

    /// A group is never hit: a touch passes through it to what lies below, and its children
    /// are hit as anywhere else (front-most, deepest, extended areas by the nearest true frame,
    /// across the group's border).
    @Test func aGroupPassesTouchesThroughToItsChildrenAndBelow() {
        let (layout, _, _, _) = kiosk()
        let group = Region(id: "group", frame: Rect(x: 100, y: 0, width: 100, height: 100))
        group.isGroup = true
        let near = Region(id: "near", frame: Rect(x: 10, y: 10, width: 10, height: 10), hitInsets: EdgeInsets(all: -5))
        let far = Region(id: "far", frame: Rect(x: 26, y: 10, width: 10, height: 10), hitInsets: EdgeInsets(all: -5))
        let edge = Region(id: "edge", frame: Rect(x: -5, y: 40, width: 10, height: 10))
        group.addChild(near)
        group.addChild(far)
        group.addChild(edge)
        layout.root.addChild(group)
        #expect(layout.hitTest(Point(x: 150, y: 50))?.id == "screen")  // the group's own area
        #expect(layout.hitTest(Point(x: 130, y: 45))?.id == "screen")  // amid its children, in none
        #expect(layout.hitTest(Point(x: 112, y: 12))?.id == "near")
        #expect(layout.hitTest(Point(x: 122, y: 15))?.id == "near")    // 2 mm from near, 4 from far
        #expect(layout.hitTest(Point(x: 124, y: 15))?.id == "far")     // 4 mm from near, 2 from far
        #expect(layout.hitTest(Point(x: 97, y: 45))?.id == "edge")     // outside the group's frame
        #expect(layout.hitTest(Point(x: 150, y: 80))?.id == "panel")   // the panel under the group
        group.isHidden = true
        #expect(layout.hitTest(Point(x: 112, y: 12))?.id == "screen")
        group.isHidden = false
        // Moved: its children with it.
        group.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(layout.hitTest(Point(x: 12, y: 12))?.id == "near")
        #expect(layout.hitTest(Point(x: 112, y: 12))?.id == "screen")
    }

    /// A group and its regions go when they leave the layout, though it was hit-tested (its
    /// index is kept on it): nothing holds them back.
    @Test func aGroupThatLeftTheLayoutIsFreed() {
        let (layout, _, _, _) = kiosk()
        weak var gone: Region?
        weak var goneChild: Region?
        do {
            let group = Region(id: "group", frame: Rect(x: 0, y: 0, width: 200, height: 100))
            group.isGroup = true
            let child = Region(id: "child", frame: Rect(x: 150, y: 10, width: 10, height: 10))
            group.addChild(child)
            layout.root.addChild(group)
            #expect(layout.hitTest(Point(x: 155, y: 15))?.id == "child")
            #expect(group.groupIndex != nil)
            group.removeFromParent()
            #expect(layout.hitTest(Point(x: 155, y: 15))?.id == "screen")
            gone = group
            goneChild = child
        }
        #expect(gone == nil && goneChild == nil)
    }

    /// A change in one group re-indexes that group only: another group's index is kept.
    @Test func aChangeInOneGroupKeepsTheOtherGroupsIndex() {
        let (layout, _, _, _) = kiosk()
        let one = Region(id: "one", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let two = Region(id: "two", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        for (group, x) in [(one, 150.0), (two, 170.0)] {
            group.isGroup = true
            group.addChild(Region(id: "\(group.id).button", frame: Rect(x: x, y: 10, width: 10, height: 10)))
            layout.root.addChild(group)
        }
        #expect(layout.hitTest(Point(x: 175, y: 15))?.id == "two.button")
        #expect(one.groupIndex != nil && two.groupIndex != nil)
        one.addChild(Region(id: "one.more", frame: Rect(x: 100, y: 10, width: 10, height: 10)))
        #expect(one.groupIndex == nil && two.groupIndex != nil)
        #expect(layout.hitTest(Point(x: 105, y: 15))?.id == "one.more")
        #expect(layout.hitTest(Point(x: 175, y: 15))?.id == "two.button")
        layout.region("one.button")?.frame = Rect(x: 0, y: 10, width: 10, height: 10)
        #expect(one.groupIndex == nil && two.groupIndex != nil)
        #expect(layout.hitTest(Point(x: 5, y: 15))?.id == "one.button")
        one.removeFromParent()
        #expect(two.groupIndex != nil)
        #expect(layout.hitTest(Point(x: 5, y: 15))?.id == "screen")
    }
}

@Suite("Surface to layout mapping")
struct MappingTests {
    let surface = SurfaceSize(width: 100, height: 50)
    let output = SurfaceSize(width: 800, height: 400)

    @Test func scalesToTheOutput() {
        let m = SurfaceMapping(surface: surface, output: output)
        #expect(m.point(Point(x: 25, y: 10)) == Point(x: 200, y: 80))
        #expect(m.vector(Point(x: 1, y: 1)) == Point(x: 8, y: 8))
        #expect(m.scale == 8 && !m.mirrors)
    }

    @Test(arguments: [
        (Rotation.none, Point(x: 0, y: 0), Point(x: 800, y: 0)),
        (.clockwise90, Point(x: 800, y: 0), Point(x: 800, y: 400)),
        (.upsideDown, Point(x: 800, y: 400), Point(x: 0, y: 400)),
        (.clockwise270, Point(x: 0, y: 400), Point(x: 0, y: 0)),
    ])
    func rotations(rotation: Rotation, topLeft: Point, topRight: Point) {
        // Where the surface's top-left and top-right corners land on the layout.
        let m = SurfaceMapping(surface: surface, output: output, rotation: rotation)
        #expect(m.point(Point(x: 0, y: 0)) == topLeft)
        #expect(m.point(Point(x: 100, y: 0)) == topRight)
        #expect(!m.mirrors)
    }

    @Test func flipsMirror() {
        let x = SurfaceMapping(surface: surface, output: output, flipX: true)
        #expect(x.point(Point(x: 0, y: 10)) == Point(x: 800, y: 80))
        #expect(x.mirrors)
        let y = SurfaceMapping(surface: surface, output: output, flipY: true)
        #expect(y.point(Point(x: 0, y: 10)) == Point(x: 0, y: 320))
        let both = SurfaceMapping(surface: surface, output: output, flipX: true, flipY: true)
        #expect(!both.mirrors)
    }

    @Test func libinputCalibrationMatrix() {
        // libinput's documented 90° matrix [0 -1 1 / 1 0 0], and a crop to the left half
        // of a dual-head surface [2 0 0 / 0 1 0].
        let turned = SurfaceMapping(surface: surface, output: output, calibration: [0, -1, 1, 1, 0, 0])
        #expect(turned.point(Point(x: 0, y: 0)) == Point(x: 800, y: 0))
        #expect(turned.point(Point(x: 100, y: 0)) == Point(x: 800, y: 400))
        let half = SurfaceMapping(surface: surface, output: output, calibration: [2, 0, 0, 0, 1, 0])
        #expect(half.point(Point(x: 25, y: 25)) == Point(x: 400, y: 200))
    }

    @Test func gesturesAreReportedInLayoutUnitsAndDirections() {
        // A panel mounted rotated 90°: a drag along the surface's +x is a swipe down on screen.
        let layout = layout { $0.add(SwipeRecognizer(directions: [.down])) }
        layout.root.frame = Rect(x: 0, y: 0, width: 800, height: 400)
        let pipeline = GesturePipeline(layout: layout, mapping: SurfaceMapping(
            surface: surface, output: SurfaceSize(width: 800, height: 400), rotation: .clockwise90))
        let recorder = GestureRecorder(pipeline)
        var s = TouchScript()
        s.drag(from: Point(x: 20, y: 25), to: Point(x: 60, y: 25), at: .zero, duration: .milliseconds(100))
        ManualClock(pipeline: pipeline).play(s.frames)
        // 4 mm per 10 ms step: 16 mm at 40 ms. (36, 25) mm is (0.36, 0.5) of the surface, turned
        // (0.5, 0.36) of the layout; 16 mm of the surface's x are 0.16 of the layout's height.
        #expect(recorder.lines == ["40.0ms swipe recognized pad touches=1 down at 400.0,144.0 d=0.0,64.0"])
    }

    @Test func rotationIsClockwiseOnTheLayoutEvenWhenMirrored() {
        let layout = layout { $0.add(RotateRecognizer()) }
        let pipeline = GesturePipeline(layout: layout, mapping: SurfaceMapping(surface: surface, output: surface, flipX: true))
        let recorder = GestureRecorder(pipeline)
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 25)
        s.down(2, at: .zero, x: 60, y: 25)
        s.move(1, at: .milliseconds(10), x: 40, y: 15)  // the pair turns clockwise on the surface…
        s.move(2, at: .milliseconds(10), x: 60, y: 35)
        s.up(1, at: .milliseconds(20))
        s.up(2, at: .milliseconds(20))
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(recorder.gestures.first.flatMap(RotateGesture.init).map { $0.degrees < 0 } == true, "…and anticlockwise in the mirror")
    }
}

@Suite("Touch sequences per region")
struct SequenceTests {
    func twoButtons() -> (Layout, [String]) {
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let left = Region(id: "left", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        let right = Region(id: "right", frame: Rect(x: 110, y: 10, width: 40, height: 40))
        root.addChild(left)
        root.addChild(right)
        left.add(TapRecognizer())
        right.add(TapRecognizer())
        root.add(PinchRecognizer())
        return (Layout(root: root), [])
    }

    @Test func twoButtonsCanBePressedAtOnce() {
        let (layout, _) = twoButtons()
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 20)
        s.down(2, at: .milliseconds(20), x: 120, y: 20)
        s.up(1, at: .milliseconds(60))
        s.up(2, at: .milliseconds(90))
        #expect(run(layout, s) == [
            "60.0ms tap recognized left touches=1 taps=1 at 20.0,20.0",
            "90.0ms tap recognized right touches=1 taps=1 at 120.0,20.0",
        ])
    }

    @Test func aSecondTouchInTheOwnersAreaJoinsItsSequence() {
        // Two fingers on the left button: one two-finger sequence there (the tap needs one).
        let (layout, _) = twoButtons()
        let tap = layout.region("left")!.recognizers[0]
        var s = TouchScript()
        s.down(1, at: .zero, x: 15, y: 20)
        s.down(2, at: .milliseconds(10), x: 40, y: 20)
        s.up(1, at: .milliseconds(60))
        s.up(2, at: .milliseconds(60))
        #expect(run(layout, s) == [])
        #expect(tap.failureReason == "2 touches > 1 required")
    }

    @Test func ancestorsRecognizersTakePartAndTouchesOnAHeldRegionJoin() {
        // A pinch on the screen, starting on the left button: the screen's pinch is in the
        // left button's sequence, so the second finger, on the bare screen, joins it.
        let (layout, _) = twoButtons()
        var s = TouchScript()
        s.down(1, at: .zero, x: 30, y: 30)
        s.down(2, at: .zero, x: 80, y: 30)
        for step in 1...5 {
            s.move(1, at: .milliseconds(Double(step) * 10), x: 30 - Double(step) * 3, y: 30)
            s.move(2, at: .milliseconds(Double(step) * 10), x: 80 + Double(step) * 3, y: 30)
        }
        s.up(1, at: .milliseconds(60))
        s.up(2, at: .milliseconds(60))
        let log = run(layout, s)
        #expect(log.first == "20.0ms pinch began screen touches=2 at 55.0,30.0 scale=1.24")
        #expect(log.last == "60.0ms pinch ended screen touches=2 at 55.0,30.0 scale=1.60")
    }

    @Test func aTouchOutsideEveryRegionIsIgnored() {
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let button = Region(id: "button", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        root.addChild(button)
        button.add(TapRecognizer())
        root.isEnabled = true
        let layout = Layout(root: root)
        layout.root.isHidden = false
        var s = TouchScript()
        s.tap(at: .zero, x: 100, y: 80)
        let pipeline = GesturePipeline(layout: layout)
        let recorder = GestureRecorder(pipeline)
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(recorder.lines.isEmpty)
        #expect(!pipeline.isTracking)
    }
}
