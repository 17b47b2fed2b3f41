import TouchEvents

/// How a screen is turned and mirrored, as a Wayland compositor says it of an output
/// (`wl_output.transform`, sway's `transform`, Hyprland's `transform` 0–7): what a touch on
/// the panel is, on the screen as the user sees it.
///
/// The maps are wlroots' (`apply_output_transform` in `types/wlr_cursor.c`), on positions
/// normalised to 0…1 over the panel: with `.rotated90`, (x, y) → (1 − y, x), so the panel's
/// top edge is the user's right edge, as ``Rotation/clockwise90`` has it. The flipped ones
/// rotate, then mirror left and right.
public enum OutputTransform: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case normal = 0
    case rotated90 = 1
    case rotated180 = 2
    case rotated270 = 3
    case flipped = 4
    case flipped90 = 5
    case flipped180 = 6
    case flipped270 = 7

    /// The transform of a fixed `rotation` (no mirror).
    public init(_ rotation: Rotation) {
        switch rotation {
        case .none: self = .normal
        case .clockwise90: self = .rotated90
        case .upsideDown: self = .rotated180
        case .clockwise270: self = .rotated270
        }
    }

    /// From sway's names (`normal`, `90`, `180`, `270`, `flipped`, `flipped-90`, `flipped-180`,
    /// `flipped-270`); nil for any other.
    public init?(swayName name: String) {
        guard let found = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = found
    }

    /// sway's name for it.
    public var description: String {
        switch self {
        case .normal: "normal"
        case .rotated90: "90"
        case .rotated180: "180"
        case .rotated270: "270"
        case .flipped: "flipped"
        case .flipped90: "flipped-90"
        case .flipped180: "flipped-180"
        case .flipped270: "flipped-270"
        }
    }

    /// The turn, without the mirror.
    public var rotation: Rotation {
        switch self {
        case .normal, .flipped: .none
        case .rotated90, .flipped90: .clockwise90
        case .rotated180, .flipped180: .upsideDown
        case .rotated270, .flipped270: .clockwise270
        }
    }

    /// Mirrored left and right after the turn.
    public var isFlipped: Bool { rawValue >= 4 }

    /// A quarter turn: the screen's width and height swap.
    public var swapsSides: Bool { rawValue % 2 == 1 }

    /// A panel's size (any unit) as the user sees it under the transform.
    public func seen(_ size: SurfaceSize) -> SurfaceSize {
        swapsSides ? SurfaceSize(width: size.height, height: size.width) : size
    }
}
