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

    @inlinable public var minX: Double { x }
    @inlinable public var minY: Double { y }
    @inlinable public var maxX: Double { x + width }
    @inlinable public var maxY: Double { y + height }

    /// True if `p` is inside or on the edge. An empty rectangle contains nothing.
    @inlinable
    public func contains(_ p: Point) -> Bool {
        width > 0 && height > 0 && p.x >= x && p.x <= x + width && p.y >= y && p.y <= y + height
    }

    /// Distance from `p` to the nearest point of the rectangle (0 inside).
    @inlinable
    public func distance(to p: Point) -> Double {
        let dx = max(x - p.x, 0, p.x - (x + width))
        let dy = max(y - p.y, 0, p.y - (y + height))
        return (dx * dx + dy * dy).squareRoot()
    }

    /// This rectangle moved by `offset`.
    public func offset(by p: Point) -> Rect { Rect(x: x + p.x, y: y + p.y, width: width, height: height) }

    /// The smallest rectangle holding both (an empty one holds nothing).
    public func union(_ other: Rect) -> Rect {
        if width <= 0 || height <= 0 { return other }
        if other.width <= 0 || other.height <= 0 { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Grown by negative insets, shrunk by positive ones; a width or height below zero becomes zero.
    public func inset(by i: EdgeInsets) -> Rect {
        Rect(x: x + i.left, y: y + i.top,
             width: max(0, width - i.left - i.right), height: max(0, height - i.top - i.bottom))
    }
}

/// Distances inward from each edge: negative values extend an area beyond its frame.
public struct EdgeInsets: Sendable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge (`EdgeInsets(all: -10)` extends by 10 all round).
    public init(all v: Double) {
        self.init(top: v, left: v, bottom: v, right: v)
    }

    public static let zero = EdgeInsets()
}
