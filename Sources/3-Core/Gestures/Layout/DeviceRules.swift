import TouchEvents

/// What decides, device by device, whether a touch device is used, its size, and how its
/// surface maps onto which layout: a configuration's device rules (`GestureConfiguration`'s
/// `Configuration` conforms), or rules of your own.
///
/// A runtime (`GestureRuntime`'s `LayoutSource.rules`) and a replay (`RecordingReplay`) ask
/// for a device's ``DeviceSetup`` once, when the device's session starts; a device with no
/// setup is left alone.
public protocol DeviceRules {
    /// How `device` (at `node`, when known: `/dev/input/event5`) is set up, or nil to leave
    /// it alone.
    func setup(for device: DeviceDescription, node: String?) -> DeviceSetup?

    /// Where the rules come from (a configuration file's path), for errors that name it; nil
    /// by default.
    var origin: String? { get }
}

extension DeviceRules {
    public var origin: String? { nil }
}

/// One device's setup under ``DeviceRules``: the size it is taken to have, and, once its
/// surface is known, the layout it drives and how the surface maps onto it.
public struct DeviceSetup {
    /// The surface's size in millimetres, over what the device reports (nil: the device's own).
    public var size: SurfaceSize?
    /// Where the surface lies on the layout was stated (a configuration's `output`): a
    /// layout much larger than the surface maps onto is then meant, and not warned about.
    public var placementStated: Bool
    /// The layout the device drives, and how its surface (size known) maps onto it. Called
    /// once per session: each device gets layout objects of its own unless the closure
    /// returns a shared one.
    public var place: (TouchSurface) -> (layout: Layout, mapping: SurfaceMapping)
    /// Whether the device's touches are owned (a configuration's `own: true`): nil leaves the
    /// device shared with the compositor.
    public var ownership: TouchOwnership?

    public init(size: SurfaceSize? = nil, placementStated: Bool = false, ownership: TouchOwnership? = nil,
                place: @escaping (TouchSurface) -> (layout: Layout, mapping: SurfaceMapping)) {
        self.size = size
        self.placementStated = placementStated
        self.ownership = ownership
        self.place = place
    }
}

/// A device whose touches gestured owns: a runtime grabs it (`EVIOCGRAB`) and passes what no
/// gesture owns to a virtual twin the compositor reads instead; a gesture whose recognizer
/// owns its touches (``GestureRecognizer/ownsTouches``) takes them from the apps
/// (docs/ownership.md).
public struct TouchOwnership: Sendable, Equatable {
    /// The longest a new touch on a touchscreen is kept from the apps while it may still become
    /// part of an owned gesture (a configuration's `hold-back: 60ms`): if it does, the apps
    /// never see it; if not, its events reach them up to that much later, unchanged (at once
    /// once no owning gesture can take it; not kept at all where none could). Zero by default:
    /// a touch reaches the apps at once, and one an owned gesture takes later is cancelled
    /// there. Touchpads ignore it (an owned touch turns palm there, which libinput leaves out).
    public var holdBack: Duration
    /// How a touch the apps already had ends when an owning gesture takes it (a
    /// configuration's `end-owned-touches`): with libinput's cancel, with a plain lift where
    /// the compositor drops that cancel, or as the compositor reading the twin needs.
    public var ending: OwnedTouchEnding

    public init(holdBack: Duration = .zero, ending: OwnedTouchEnding = .automatic) {
        self.holdBack = holdBack
        self.ending = ending
    }
}

/// How a touchscreen touch the apps already had ends on an owned device's twin when an
/// owning gesture takes it (docs/ownership.md, "Compositors"). A compositor is to pass
/// libinput's `TOUCH_CANCEL` on to the app as `wl_touch.cancel`; some drop it (cage, sway
/// before 1.9, Hyprland, labwc), and there a cancelled touch stays down in the app for good.
public enum OwnedTouchEnding: String, Sendable, Equatable, CaseIterable {
    /// As the compositor reading the twin needs: a lift where it is known to drop libinput's
    /// cancel, a cancel elsewhere (the runtime looks at the running compositor).
    case automatic = "auto"
    /// libinput's cancel (`MT_TOOL_PALM`, then the lift: `TOUCH_CANCEL`): an app that acts on
    /// a lift does nothing.
    case cancel
    /// A plain lift where the touch is, at once, in the frame the gesture takes it: the app
    /// reads the end of a touch (of a drag, for a swipe that has moved), and no touch is left
    /// down where the compositor drops the cancel.
    case lift
}
