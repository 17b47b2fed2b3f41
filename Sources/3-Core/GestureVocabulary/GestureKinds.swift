import TouchEvents

/// The kinds of gesture.
public enum GestureKind: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case tap
    case longPress = "long-press"
    case pan
    case swipe
    case pinch
    case rotate
    case edgePan = "edge-pan"
    /// A recognizer of your own (a subclass of `GestureRecognizer`); its `Gesture.recognizer`
    /// says which. Configurations cannot name it.
    case custom

    /// The kinds a configuration file or a socket client may name: all but ``custom``.
    public static let named: [GestureKind] = allCases.filter { $0 != .custom }

    /// Discrete gestures happen once (`recognized`); continuous ones go began → changed → ended.
    public var isDiscrete: Bool { self == .tap || self == .swipe }
    public var description: String { rawValue }
}

/// UIKit's recognizer states. Discrete recognizers go possible → recognized or failed;
/// continuous ones possible → began → changed… → ended, cancelled or failed.
public enum GestureState: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case possible, began, changed, ended, cancelled, failed, recognized
    public var description: String { rawValue }
}

/// Directions of a swipe: four straight ones, and four diagonals for a swipe recognizer that
/// asks for one (`SwipeRecognizer.directions`).
public enum SwipeDirection: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case left, right, up, down
    case upLeft = "up-left"
    case upRight = "up-right"
    case downLeft = "down-left"
    case downRight = "down-right"

    /// Left, right, up and down: the directions a swipe has unless it is given diagonals.
    public static let straight: Set<SwipeDirection> = [.left, .right, .up, .down]
    /// True for the four diagonals.
    public var isDiagonal: Bool { !Self.straight.contains(self) }
    public var description: String { rawValue }
}

/// Edges of a region or surface.
public enum Edge: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case left, right, top, bottom
    public var description: String { rawValue }
}

