import Foundation

/// A point or vector in millimetres (on the touch surface) or layout units.
public struct Point: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    @inlinable public static func += (a: inout Point, b: Point) { a = a + b }

    /// Length as a vector.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }

    public var description: String { "(\(x), \(y))" }
}

/// An axis-aligned rectangle: origin at the top left, y down.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// True if `p` is inside or on the edge.
    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
}

/// Degrees in (-180, 180].
@inlinable
func normalizedDegrees(_ d: Double) -> Double {
    var a = d.truncatingRemainder(dividingBy: 360)
    if a > 180 { a -= 360 }
    if a <= -180 { a += 360 }
    return a
}
