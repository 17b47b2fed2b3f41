import Gestures
import TouchEvents
import Testing

/// A gesture's payload, by kind, as its recognizer maps it onto the layout once.
struct GestureValuesTests {
    /// 100 x 50 mm onto 1000 x 500 units, mirrored left to right.
    let mirrored = SurfaceMapping(surface: SurfaceSize(width: 100, height: 50), output: SurfaceSize(width: 1000, height: 500), flipX: true)

    @Test func movementsMapAndAMirrorTurnsRotationsTheOtherWay() {
        #expect(GestureValues.pan(.init(translation: Point(x: 2, y: 3), velocity: Point(x: -4, y: 1))).mapped(by: mirrored)
            == .pan(.init(translation: Point(x: -20, y: 30), velocity: Point(x: 40, y: 10))))
        #expect(GestureValues.edgePan(.init(edge: .left, translation: Point(x: 1, y: 0), velocity: .zero)).mapped(by: mirrored)
            == .edgePan(.init(edge: .left, translation: Point(x: -10, y: 0), velocity: .zero)))
        let swipe = GestureValues.Swipe(direction: .up, translation: Point(x: 0, y: -20), velocity: Point(x: 0, y: -200),
                                        decidedAfterMillimetres: 15, decidedAfter: .milliseconds(30))
        var mapped = swipe
        mapped.translation = Point(x: 0, y: -200)
        mapped.velocity = Point(x: 0, y: -2000)
        #expect(GestureValues.swipe(swipe).mapped(by: mirrored) == .swipe(mapped), "millimetres of the decision stay millimetres")
        let turn = GestureValues.rotate(.init(degrees: 30, degreesPerSecond: 90))
        #expect(turn.mapped(by: mirrored) == .rotate(.init(degrees: -30, degreesPerSecond: -90)))
        #expect(turn.mapped(by: .identity) == turn)
        let pinch = GestureValues.pinch(.init(scale: 2, spanMillimetres: 12, scalePerSecond: 1))
        #expect(pinch.mapped(by: mirrored) == pinch)
        #expect(GestureValues.tap(.init(taps: 2)).mapped(by: mirrored) == .tap(.init(taps: 2)))
    }

    /// Typed gestures read their kind's payload (the very struct the gesture holds) and the
    /// gesture's own fields; another kind is no such gesture.
    @Test func aTypedGestureIsOnlyItsOwnKind() throws {
        let values = GestureValues.Pinch(scale: 1.5, spanMillimetres: 20, scalePerSecond: 0.25)
        let g = Gesture(values: .pinch(values), state: .changed, time: .zero,
                        startTime: .zero, region: "map", touches: 2, location: .zero, recognizer: "pinch")
        let pinch = try #require(PinchGesture(g))
        #expect(pinch.values == values)
        #expect(pinch.scale == 1.5 && pinch.spanMillimetres == 20 && pinch.scalePerSecond == 0.25)
        #expect(pinch.state == .changed && pinch.region == "map" && pinch.touches == 2)
        #expect(PanGesture(g) == nil && TapGesture(g) == nil)
        let rotate = try #require(RotateGesture(Gesture(values: .rotate(.init(degrees: 90, degreesPerSecond: 0)), state: .began,
                                                        time: .zero, startTime: .zero, region: "map", touches: 2, location: .zero,
                                                        recognizer: "rotate")))
        #expect(rotate.radians == .pi / 2)
    }
}
