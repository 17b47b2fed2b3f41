import DeviceQuirks
import Gestures
import Logging
import TouchEvents

/// One touch device from its kernel events to its gestures — the same for a live device and a
/// recording: device rule → surface → mapping → layout → decoder → pipeline, and the time
/// origin gesture times are counted from.
///
/// Feed it events (``process(_:)``) and drive its pipeline's deadlines; what a decoding error
/// means is the caller's to decide: a recording is bad input at that line, a live device is
/// reset (``recover(at:)``) and goes on.
public final class DeviceSession {
    /// Why a device cannot have a session.
    public enum SetupError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The device rules have no setup for it: they would not use it.
        case noRule
        /// It reports no position axes.
        case noPositionAxes

        public var description: String {
            switch self {
            case .noRule: "no device rule takes it"
            case .noPositionAxes: "it reports no position axes"
            }
        }
    }

    /// The device as the kernel describes it, with what its quirks add (an axis resolution
    /// from `AttrResolutionHint` where the kernel gives none).
    public let description: DeviceDescription
    /// What libinput's quirks files say about the device (empty: none matched, or no files).
    public let quirks: DeviceQuirks
    /// The device node, when known (`/dev/input/event5`).
    public let node: String?
    public let surface: TouchSurface
    public let layout: Layout
    public let pipeline: GesturePipeline
    // Unchecked exclusivity: read on every event (see the decoder's, below).
    /// The first event's time: gesture times are seconds from it.
    public private(set) var origin: Instant? {
        @inline(__always) get { _origin }
        set { _origin = newValue }
    }
    @exclusivity(unchecked) private var _origin: Instant?
    // Unchecked exclusivity: read on every frame, never while a call into the session is under way.
    /// Every frame, before the pipeline has it.
    public var onFrame: ((TouchFrame) -> Void)? {
        @inline(__always) get { _onFrame }
        set { _onFrame = newValue }
    }
    @exclusivity(unchecked) private var _onFrame: ((TouchFrame) -> Void)?
    /// Every frame, once the pipeline has handled it (its gestures delivered): the live view
    /// draws it then, with the contacts the pipeline left out (why each was left out, as `replay --explain` says it).
    public var afterFrame: ((TouchFrame) -> Void)? {
        @inline(__always) get { _afterFrame }
        set { _afterFrame = newValue }
    }
    @exclusivity(unchecked) private var _afterFrame: ((TouchFrame) -> Void)?
    /// Whether a live runtime owns the device's touches (the rules' setup's, else the one
    /// given): nil shares them with the compositor.
    public let ownership: TouchOwnership?
    /// What looks wrong in how the device meets the layout (a layout much larger than the
    /// device maps onto), for whoever starts the session to log.
    public let warnings: [String]
    /// (Unchecked exclusivity: read and written on every event, never while a call into it
    /// is under way — a handler does not feed the session it is called from.)
    @exclusivity(unchecked) private var decoder: TouchDecoder
    private let dropPolicy: TouchDecoder.DropPolicy

    /// With `rules` (a configuration's device rules): their setup for the device gives its
    /// size, its layout and how its surface maps onto it. Without: `layout`, or else the
    /// built-in layout (`Layout.standard(size:touchscreen:)`) sized to the surface, in
    /// millimetres; with a `screen`, a touchscreen maps onto it (see `Screen`), and the
    /// built-in layout is the screen's size (rules map by themselves: the screen is not used).
    /// `size` overrides any size the device or the rules give. `ownership` is for a layout in
    /// code (rules say their own). `quirks` are libinput's for the device
    /// (`QuirksDatabase.quirks(for:)`): its resolution and size where the kernel gives none,
    /// and its palm pressure and touch pressure thresholds.
    public init(device: DeviceDescription, node: String? = nil, rules: (any DeviceRules)? = nil,
                layout: Layout? = nil, screen: Screen? = nil, size: SurfaceSize? = nil,
                ownership: TouchOwnership? = nil, quirks: DeviceQuirks = DeviceQuirks(),
                dropPolicy: TouchDecoder.DropPolicy = .cancelUnknown,
                logger: Logger = Logger(label: "gestured.gestures")) throws(SetupError) {
        let device = device.applyingResolutionHint(quirks.resolutionHint)
        var setup: DeviceSetup?
        if let rules {
            guard let s = rules.setup(for: device, node: node) else { throw .noRule }
            setup = s
        }
        // AttrSizeHint: the size of a pad that reports no resolution, before gestured's own guess.
        var hinted = quirks.sizeHint
        if let axes = device.positionAxes, let x = device.absInfo[axes.x], x.resolution > 0 { hinted = nil }
        guard let surface = TouchSurface(device: device, size: size ?? setup?.size ?? hinted) else { throw .noPositionAxes }
        var mapping = SurfaceMapping.identity
        let chosen: Layout
        if let setup {
            (chosen, mapping) = setup.place(surface)
        } else {
            let touchscreen = device.kind == .touchscreen
            if let layout {
                chosen = layout
            } else if let size = screen?.size, touchscreen || screen!.includesTouchpads {
                chosen = Layout.standard(size: (size.width, size.height), touchscreen: touchscreen)
            } else {
                chosen = Layout.standard(size: (surface.size.width, surface.size.height), touchscreen: touchscreen)
            }
            if let screen, let m = screen.mapping(surface: surface.size, touchscreen: touchscreen,
                                                  deviceCalibration: device.calibrationMatrix, layout: chosen) {
                mapping = m
            }
        }
        warnings = setup?.placementStated == true ? [] : Self.mismatch(layout: chosen, mapping: mapping, surface: surface.size, kind: device.kind)
        description = device
        self.quirks = quirks
        self.node = node
        self.ownership = rules == nil ? ownership : setup?.ownership
        self.surface = surface
        self.layout = chosen
        self.dropPolicy = dropPolicy
        // Palms by pressure need each contact's pressure (ABS_MT_PRESSURE), as libinput has it:
        // a single-touch pad's ABS_PRESSURE is the whole touch's (an ALPS finger presses 66 of
        // its 0-127).
        let pressure = device.absInfo[AbsCode.mtPressure]
        var policy = (device.kind == .touchpad ? TouchPolicy.touchpad : .touchscreen)
            .resolved(pressureRange: pressure.map { $0.minimum...$0.maximum }, surfaceHeight: surface.size.height,
                      sizeAssumed: surface.sizeSource == .assumed)
        policy.boundingBoxContacts = device.properties.contains(InputProperty.semiMT)
        // Without a pressure per contact, a contact alone is the whole touch: a palm by its
        // pressure and width together (issue 65, item 2).
        if let (whole, width) = device.wholeTouchAxes {
            let p = Double(whole.maximum - whole.minimum) * GestureDefaults.wholeTouchPalmPressureShare
            let w = Double(width.maximum - width.minimum) * GestureDefaults.wholeTouchPalmWidthShare
            policy.wholeTouchPalm = WholeTouch(pressure: whole.minimum + Int32(p.rounded(.up)), width: width.minimum + Int32(w.rounded(.up)))
        }
        policy.apply(quirks, device: device)
        pipeline = GesturePipeline(layout: chosen, mapping: mapping, policy: policy, surface: surface.size, deviceName: device.name,
                                   logger: logger)
        decoder = TouchDecoder(device: device, surface: surface, dropPolicy: dropPolicy)
    }

    /// A warning when the layout's root is much larger (more than twice, on either axis) than
    /// what the whole surface maps onto: most of the layout would never be touched — a layout
    /// in pixels on a device in millimetres, without a screen.
    static func mismatch(layout: Layout, mapping: SurfaceMapping, surface: SurfaceSize, kind: DeviceKind) -> [String] {
        let root = layout.root.frame
        let corners = [Point(x: 0, y: 0), Point(x: surface.width, y: 0), Point(x: 0, y: surface.height),
                       Point(x: surface.width, y: surface.height)].map(mapping.point)
        let width = corners.map(\.x).max()! - corners.map(\.x).min()!
        let height = corners.map(\.y).max()! - corners.map(\.y).min()!
        guard root.width > 2 * width || root.height > 2 * height else { return [] }
        func f(_ v: Double) -> String { formatDecimal(v, places: 1, trailingZeros: .trimAll) }
        let units = mapping == .identity ? " mm (its own millimetres: no screen)" : ""
        let fix = kind == .touchscreen
            ? "give the layout's screen (GestureRuntime(layout:screen:), replay's screen:), or a configuration's output"
            : "touchpads keep millimetres unless the screen includes them (Screen(includesTouchpads: true))"
        return ["the layout's root is \(f(root.width)) × \(f(root.height)) but the \(kind) maps onto \(f(width)) × \(f(height))\(units) of it: "
                + "most of the layout cannot be touched; " + fix]
    }

    /// The surface-to-layout mapping.
    public var mapping: SurfaceMapping { pipeline.mapping }

    /// The latest event time decoded (`.zero` before any).
    public var lastTime: Instant { decoder.lastTime }

    /// One kernel event; the frames it completes go through the pipeline. Throws on input no
    /// device can produce (the decoder is then in an unknown state: ``recover(at:)``).
    public func process(_ event: InputEvent) throws(DecodeError) {
        if origin == nil { origin = event.time }
        // A closure of its own, not `emit: deliver`: a method passed as a closure is one made
        // on every event, retaining and releasing the session (about 40 instructions an event).
        try decoder.process(event) { deliver($0) }
    }

    /// The device's multitouch values in each slot as it has them now (`TouchDecoder.seed(slotValues:)`):
    /// a live device may have been touched before the session began.
    public func seed(slotValues: [[UInt16: Int32]]) {
        decoder.seed(slotValues: slotValues)
    }

    /// After a decoding error: every contact is cancelled (gestures in progress end
    /// `cancelled`) and decoding starts afresh.
    public func recover(at time: Instant) {
        decoder.cancelAll(time: time, emit: deliver)
        decoder = TouchDecoder(device: description, surface: surface, dropPolicy: dropPolicy)
    }

    /// The end of the events (a recording's last one): contacts still down are cancelled at
    /// the last event's time and every pending deadline fires.
    public func finish() {
        if origin != nil { decoder.cancelAll(time: decoder.lastTime, emit: deliver) }
        pipeline.finish()
    }

    /// The device went away (or the configuration changed, or its screen turned): gestures in
    /// progress end `cancelled` at `time` (never before the last event); `why` is logged with
    /// each recognizer's transition.
    public func cancel(at time: Instant, why: String = "the device went away") {
        pipeline.cancelAll(time: max(time, decoder.lastTime), why: why)
    }

    private func deliver(_ frame: TouchFrame) {
        onFrame?(frame)
        pipeline.process(frame)
        afterFrame?(frame)
    }
}
