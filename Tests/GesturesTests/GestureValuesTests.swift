import Gestures
import TouchEvents
import Testing

/// A gesture's payload, by kind, as its recognizer maps it onto the layout once.
struct GestureValuesTests {
    /// 100 x 50 mm onto 1000 x 500 units, mirrored left to right.
    let mirrored = SurfaceMapping(surface: SurfaceSize(width: 100, height: 50), output: SurfaceSize(width: 1000, height: 500), flipX: true)

    @Test func movementsMapAndAMirrorTurnsRotationsTheOtherWay() {
        #expect(GestureValues.pan(translation: Point(x: 2, y: 3), velocity: Point(x: -4, y: 1)).mapped(by: mirrored)
            == .pan(translation: Point(x: -20, y: 30), velocity: Point(x: 40, y: 10)))
        #expect(GestureValues.edgePan(edge: .left, translation: Point(x: 1, y: 0), velocity: .zero).mapped(by: mirrored)
            == .edgePan(edge: .left, translation: Point(x: -10, y: 0), velocity: .zero))
        let swipe = GestureValues.Swipe(direction: .up, translation: Point(x: 0, y: -20), velocity: Point(x: 0, y: -200),
                                        decidedAfterMillimetres: 15, decidedAfter: .milliseconds(30))
        var mapped = swipe
        mapped.translation = Point(x: 0, y: -200)
        mapped.velocity = Point(x: 0, y: -2000)
        #expect(GestureValues.swipe(swipe).mapped(by: mirrored) == .swipe(mapped), "millimetres of the decision stay millimetres")
        #expect(GestureValues.rotate(degrees: 30, degreesPerSecond: 90).mapped(by: mirrored) == .rotate(degrees: -30, degreesPerSecond: -90))
        #expect(GestureValues.rotate(degrees: 30, degreesPerSecond: 90).mapped(by: .identity) == .rotate(degrees: 30, degreesPerSecond: 90))
        #expect(GestureValues.pinch(scale: 2, spanMillimetres: 12, velocity: 1).mapped(by: mirrored) == .pinch(scale: 2, spanMillimetres: 12, velocity: 1))
        #expect(GestureValues.tap(taps: 2).mapped(by: mirrored) == .tap(taps: 2))
    }

    /// Typed gestures read their kind's payload; another kind is no such gesture.
    @Test func aTypedGestureIsOnlyItsOwnKind() {
        let g = Gesture(values: .pinch(scale: 1.5, spanMillimetres: 20, velocity: 0.25), state: .changed, time: .zero,
                        startTime: .zero, region: "map", touches: 2, location: .zero, recognizer: "pinch")
        let pinch = PinchGesture(g)
        #expect(pinch?.scale == 1.5 && pinch?.spanMillimetres == 20 && pinch?.velocity == 0.25)
        #expect(PanGesture(g) == nil && TapGesture(g) == nil)
        #expect(g.kind == .pinch && g.scale == 1.5 && g.velocity == Point(x: 0.25, y: 0) && g.translation == nil)
    }
}
