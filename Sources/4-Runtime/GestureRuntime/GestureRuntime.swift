import DeviceQuirks
import Gestures
import Logging
import ServiceLifecycle
import Synchronization
import SystemLoop
import TouchEvents
import TouchInput

/// Your layout's closures on live touch devices: libinput seat discovery and hotplug, each
/// device read through its ``DeviceSession`` (the same decoder and pipeline as a replay), the
/// recognizers' deadlines, `SYN_DROPPED` recovery and a clean stop — what `gestured run` is
/// built on.
///
/// ```swift
/// let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
/// root.onTap { tap in print("tap at", tap.location) }
/// // Touchscreens map onto the root's 1280 × 800: positions come in its units.
/// let runtime = try GestureRuntime(layout: Layout(root: root), screen: .rootFrame)
/// try runtime.run()   // blocks until stop(); in a ServiceGroup, `try await runtime.run()` stops on SIGTERM
/// ```
///
/// **Where closures run.** Everything — reading devices, recognizing, calling your handlers,
/// ``observer`` — happens on one thread: the one that called the blocking ``run()-7ktdp``, or
/// for `await runtime.run()` (``run()-55glx``, and in a `ServiceGroup`) a thread the runtime
/// starts for itself.
/// Handlers must not block it. To reach the main actor, hop: `Task { @MainActor in … }`. The
/// ``gestures`` sequence can be iterated from any task.
///
/// **Changing the layout while running.** Regions and recognizers belong to the runtime's
/// thread. From a handler (already on it) change them directly; from elsewhere, hand the change
/// to ``perform(_:)``, which runs it between two frames. Sequences on a region that is removed,
/// hidden or disabled end `cancelled`.
///
/// **Devices.** With ``LayoutSource/shared(_:)`` one device at a time drives the layout (the
/// first that matches; when it goes away, the next one present). A device that vanishes ends
/// its gestures `cancelled`; one that comes back starts afresh with the same closures. A device
/// that reports what no device can is reset and read on; one that cannot be read any more is
/// dropped, and the runtime goes on.
public final class GestureRuntime: @unchecked Sendable {
    /// Where each device's layout comes from.
    public enum LayoutSource {
        /// The built-in layout (`Layout.standard(size:touchscreen:)`) per device, in millimetres.
        case standard
        /// One layout, driven by one device at a time.
        case shared(Layout)
        /// A layout of its own for each device, or nil to leave the device alone.
        case perDevice((DeviceDescription) -> Layout?)
        /// Device rules decide each device's size, layout and mapping (a configuration's:
        /// `.rules(configuration)`, with `GestureConfiguration`), and which devices are used.
        case rules(any DeviceRules)
    }

    /// Why the runtime could not run.
    public enum RunError: Error, Sendable, CustomStringConvertible {
        /// The seat could not be opened (libinput, udev).
        case seat(InputError)
        /// A system call the loop needs failed.
        case system(SystemError)
        /// ``run()-7ktdp`` or ``run()-55glx`` was called while the runtime runs already.
        case alreadyRunning

        public var description: String {
            switch self {
            case .seat(let e): "cannot open the seat: \(e)"
            case .system(let e): "\(e)"
            case .alreadyRunning: "the runtime is running already"
            }
        }
    }

    /// Where layouts come from (``replaceSource(_:restarting:)`` changes it).
    public private(set) var source: LayoutSource
    /// The screen touchscreens map onto (layouts in code; a configuration maps by its rules).
    public let screen: Screen?
    /// Which kinds of device to use (a configuration's device rules decide on their own).
    public let kinds: Set<DeviceKind>
    /// A device's session began (plugged in, or present at start): attach what depends on
    /// the device here. Called on the runtime's thread.
    public var onSessionStarted: ((DeviceSession) -> Void)?
    /// A device's session is over (the device went away, the runtime stopped).
    public var onSessionEnded: ((DeviceSession) -> Void)?
    /// Every gesture event of every device, before the handlers, with its session.
    public var observer: ((Gesture, DeviceSession) -> Void)?
    // Unchecked exclusivity on `latency`, `onFrameHandled` and `deliveredInFrame`: read on every
    // frame, on the runtime's one thread; each check cost about 80 instructions (the guard).
    /// Set it (`runtime.latency = LatencyMeter()`) to measure every live frame's latency, from
    /// the kernel's time stamp to the end of its handling; read it on the runtime's thread (in a
    /// handler, ``perform(_:)``, or once ``run()-7ktdp`` or ``run()-55glx`` has returned). Nil
    /// (the default) measures nothing.
    public var latency: LatencyMeter? {
        @inline(__always) get { _latency }
        set { _latency = newValue }
    }
    @exclusivity(unchecked) private var _latency: LatencyMeter?
    /// Each live frame's kernel time stamp and when its handling ended, on the runtime's thread
    /// (`gestured run --metrics`' latency histogram; an app's own latency figures); nil costs
    /// nothing.
    public var onFrameHandled: ((_ eventTime: Instant, _ handledAt: Instant) -> Void)? {
        @inline(__always) get { _onFrameHandled }
        set { _onFrameHandled = newValue }
    }
    @exclusivity(unchecked) private var _onFrameHandled: ((_ eventTime: Instant, _ handledAt: Instant) -> Void)?
    /// A device's trouble, on the runtime's thread: the kernel dropped its events, or it sent
    /// what no device should and was reset (`gestured run --metrics`; an app's health check).
    public var onDeviceTrouble: ((DeviceTrouble, DeviceSession) -> Void)?

    /// What went wrong with a device's events.
    public enum DeviceTrouble: Sendable {
        /// `SYN_DROPPED`: the kernel's buffer overflowed before it was read.
        case kernelDropped
        /// It sent what no device should: its contacts were reset.
        case reset
    }
    /// Whether devices driving a layout in code are owned (`TouchOwnership`; device rules
    /// say their own, a configuration's `own: true`): each is grabbed and a uinput twin stands
    /// in for it, which gets every touch no owning gesture takes (docs/ownership.md). Nil (the
    /// default) shares every touch with the compositor. Read when a device's session starts.
    public var ownership: TouchOwnership?
    /// libinput's quirks files (`QuirksDatabase.load()`): each device gets what they say about
    /// it — its palm pressure, when a touch begins by pressure, its resolution or size where the
    /// kernel gives none — matched on its name, ids and udev type and on ``quirksSystem`` (the
    /// DMI modalias and device tree). The initializers on a seat read the system's; nil (the
    /// initializer with a monitor, as tests use it, unless set) applies none. Read when a
    /// device's session starts.
    public var quirks: QuirksDatabase?
    /// The machine's DMI modalias and device-tree `compatible`, that quirks match laptops and
    /// boards by (`QuirksDatabase.systemDMI()`, `systemDeviceTree()`).
    public var quirksSystem: (dmi: String?, deviceTree: String?) = (nil, nil)
    /// Makes an owned device's twin (its description, its node): a uinput device by default
    /// (`UInputDevice(twinOf:node:)`); tests put a recorder here.
    public var makeTwin: (DeviceDescription, String) throws(InputError) -> any TwinOutput = { d, node throws(InputError) in
        try UInputDevice(twinOf: d, node: node)
    }
    /// The Wayland compositor running (``RunningCompositor/find(proc:askVersion:)``): an owned touchscreen with `TouchOwnership.ending` `automatic` ends its
    /// owned touches as that compositor needs. Asked as a device is owned, and again as a
    /// gesture takes touches once ``compositorRecheck`` has passed since it was last asked.
    /// The initializers on a seat look at this machine's processes; the one with a monitor
    /// (as tests use it) finds none unless set.
    public var findCompositor: () -> RunningCompositor? = { nil }
    /// How long what ``findCompositor`` said holds (5 s): a kiosk's compositor starts after the
    /// service, and the first owning gesture after that finds it.
    public static let compositorRecheck = Duration.seconds(5)
    /// How long a twin let go stays after the last events of its touches are written to it:
    /// 250 ms. When a uinput device goes, its readers lose what they had not read yet (the
    /// kernel's evdev answers a read with ENODEV before its buffer), and a compositor that reads
    /// the removal before the lift keeps the touch down in its app (cage drops libinput's cancel:
    /// in the e2e lane, now and then, a drag unplugged mid-touch stayed down). A compositor
    /// reads a device as soon as it can be read; 250 ms leaves room for a loaded machine.
    public static let twinLinger = Duration.milliseconds(250)
    /// Twins let go whose touches were just ended, each kept until its time (``twinLinger``).
    @exclusivity(unchecked) var lingeringTwins: [(output: any TwinOutput, until: Instant)] = []
    /// A gesture event was delivered since the last frame ended (for ``latency``).
    @exclusivity(unchecked) private var deliveredInFrame = false

    /// The loop the runtime waits on: its own, or one it shares with others (the service's
    /// socket and clients; an app's own descriptors), each registering what it waits for.
    public let loop: SharedEventLoop
    private let makeMonitor: () throws(InputError) -> any DeviceMonitor
    private var monitor: (any DeviceMonitor)?
    let clock: any TouchClock
    let logger: Logger
    /// Every touch device the monitor reported (used or not), with its session while in use.
    // Unchecked exclusivity: read in every turn (the deadlines, each wakeup's device), on the
    // runtime's one thread.
    @exclusivity(unchecked) var devices = DeviceTable()
    private var saidNoDevices = false
    private let running = Atomic<Bool>(false)
    private let calls = Lock<[UncheckedCall]>([])
    /// Some call was handed over since the end of the last turn looked: most turns (a device's
    /// frame) have none, and take no lock.
    private let callsPending = Atomic<Bool>(false)
    private let streams = Lock<(next: Int, continuations: [Int: AsyncStream<Gesture>.Continuation])>((0, [:]))
    private let streamCount = Atomic<Int>(0)

    /// A closure handed to the runtime's thread (``perform(_:)``).
    private struct UncheckedCall: @unchecked Sendable {
        let body: () -> Void
    }

    /// Runs `layout`'s closures on the touch devices of `seat` (by default every touchscreen
    /// and touchpad; the first that matches drives the layout). With a `screen` (in the
    /// layout's units: `.rootFrame` is the root's frame), touchscreens map onto it and gestures
    /// come in its units, and touchpads are left alone unless the screen includes them; without,
    /// the layout is in the surface's millimetres.
    public convenience init(layout: Layout, screen: Screen? = nil, seat: String = "seat0",
                            kinds: Set<DeviceKind> = [.touchscreen, .touchpad],
                            logger: Logger = Logger(label: "gestured")) throws(RunError) {
        try self.init(source: .shared(layout), screen: screen, seat: seat, kinds: kinds, logger: logger)
    }

    /// Runs on the touch devices of `seat`, each with the layout `source` gives it (mapped onto
    /// `screen`, for a layout in code).
    public convenience init(source: LayoutSource, screen: Screen? = nil, seat: String = "seat0",
                            kinds: Set<DeviceKind> = [.touchscreen, .touchpad],
                            logger: Logger = Logger(label: "gestured")) throws(RunError) {
        try self.init(source: source, screen: screen, kinds: kinds, clock: MonotonicClock(), logger: logger) { () throws(InputError) in
            try LibinputSeat(seat: seat, logger: logger)
        }
        readSystemQuirks()
        findCompositor = RunningCompositor.finder()
    }

    /// Reads the system's quirks (``quirks``, ``quirksSystem``), logging every line the files
    /// have that libinput's format does not allow (the line is left out, the rest used).
    public func readSystemQuirks() {
        let database = QuirksDatabase.load()
        for problem in database.problems {
            logger.warning("a libinput quirks line is ignored", metadata: ["where": "\(problem.file):\(problem.line)", "why": "\(problem.message)"])
        }
        quirks = database
        quirksSystem = (QuirksDatabase.systemDMI(), QuirksDatabase.systemDeviceTree())
    }

    /// Runs on the devices `monitor` reports, with `clock` for deadlines: how tests and the
    /// service drive it, and an app that shares the loop with descriptors of its own.
    /// `monitor` is called once, when the runtime starts. With a `loop`, the runtime is one of
    /// its users (the service is another); without, it has its own. Drive it with ``run()-7ktdp``,
    /// or turn by turn: ``start()``, ``runOnce(timeout:)``, ``shutdown()``.
    public init(source: LayoutSource, screen: Screen? = nil, kinds: Set<DeviceKind> = [.touchscreen, .touchpad],
                clock: any TouchClock, logger: Logger, loop: SharedEventLoop? = nil,
                monitor: @escaping () throws(InputError) -> any DeviceMonitor) throws(RunError) {
        self.source = source
        self.screen = screen
        self.kinds = kinds
        self.clock = clock
        self.logger = logger
        makeMonitor = monitor
        if let loop {
            self.loop = loop
        } else {
            do throws(SystemError) {
                self.loop = try SharedEventLoop(clock: clock)
            } catch {
                throw .system(error)
            }
        }
        // What the runtime waits for besides its descriptors (added as devices come): the
        // recognizers' deadlines, the calls handed over by `perform`, and reads between other
        // users' work. The loop's closures hold the runtime unretained (a device's frame pays
        // no reference counting for it): the runtime takes them back when it goes (deinit).
        let me = ObjectIdentifier(self)
        self.loop.addTimer(owner: me, next: { [unowned(unsafe) self] in nextDeadline },
                           fire: { [unowned(unsafe) self] now in fireDeadlines(at: now) })
        self.loop.endOfTurn(owner: me) { [unowned(unsafe) self] in runCalls() }
        self.loop.addUrgentPoll(owner: me) { [unowned(unsafe) self] in devices.forEachInUse { read($0) } }
    }

    deinit {
        loop.removeWork(of: ObjectIdentifier(self))
        for entry in devices.all {
            entry.session?.pipeline.observer = nil
            loop.unwatch(entry.device.fileDescriptor)
        }
        if let monitor { loop.unwatch(monitor.fileDescriptor) }
    }

    // MARK: - Running

    /// Runs on the calling thread until ``stop()``: devices, hotplug, deadlines and your
    /// closures, all on this thread. Devices in use are let go cleanly at the end.
    public func run() throws(RunError) {
        try start()
        loop.run()
        shutdown()
    }

    /// Runs on a thread of its own until ``stop()``, the task is cancelled, or (in a
    /// `ServiceGroup`) graceful shutdown begins.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                    do throws(SystemError) {
                        try startThread { [self] in
                            do throws(RunError) {
                                try self.run()
                                done.resume()
                            } catch {
                                done.resume(throwing: error)
                            }
                        }
                    } catch {
                        done.resume(throwing: RunError.system(error))
                    }
                }
            } onCancel: {
                self.stop()
            }
        } onGracefulShutdown: {
            self.stop()
        }
    }

    /// Ends ``run()-7ktdp`` or ``run()-55glx`` (at once if it has not started). Safe from any
    /// thread.
    public func stop() {
        loop.stop()
    }

    /// Runs `body` on the runtime's thread between two frames — where a change to the layout
    /// (adding, removing, enabling, moving regions) is safe. Safe to call from any thread;
    /// `body` runs once the loop wakes (at once if it is waiting), so what it touches must be
    /// touched only there.
    public func perform(_ body: @escaping () -> Void) {
        let call = UncheckedCall(body: body)
        calls.withLock { $0.append(call) }
        callsPending.store(true, ordering: .releasing)
        loop.wakeUp()
    }

    /// Every gesture event of every device, from now on, for as long as the sequence is
    /// iterated; it ends when the runtime stops. If the consumer falls behind by more than
    /// `buffer` events, the oldest are dropped.
    public func gestures(buffer: Int = 1024) -> AsyncStream<Gesture> {
        AsyncStream(bufferingPolicy: .bufferingNewest(buffer)) { continuation in
            let id = streams.withLock { state in
                let id = state.next
                state.next += 1
                state.continuations[id] = continuation
                return id
            }
            streamCount.add(1, ordering: .relaxed)
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                if self.streams.withLock({ $0.continuations.removeValue(forKey: id) }) != nil {
                    self.streamCount.subtract(1, ordering: .relaxed)
                }
            }
        }
    }

    /// Every gesture event of every device (``gestures(buffer:)`` with its default buffer).
    public var gestures: AsyncStream<Gesture> { gestures() }

    /// The sessions of the devices in use (on the runtime's thread).
    public var sessions: [DeviceSession] { devices.inUse.compactMap(\.session) }

    /// Opens the seat and takes the devices already present (for a runtime driven turn by
    /// turn; ``run()-7ktdp`` does it).
    public func start() throws(RunError) {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { throw .alreadyRunning }
        let monitor: any DeviceMonitor
        do throws(InputError) {
            monitor = try makeMonitor()
        } catch {
            running.store(false, ordering: .releasing)
            throw .seat(error)
        }
        self.monitor = monitor
        loop.watch(monitor.fileDescriptor, priority: .urgent) { [unowned self] _ in
            if let monitor = self.monitor { apply(monitor.changes()) }
        }
        apply(monitor.changes())
        if devices.noneInUse && !saidNoDevices {
            logger.notice("no touch devices yet: waiting for one to be plugged in")
            saidNoDevices = true
        }
    }

    /// One turn of the loop: waits up to `timeout` ms (-1: until something happens), handles
    /// what did, and fires every deadline that has passed by the runtime's clock.
    public func runOnce(timeout: Int32) {
        loop.runOnce(timeout: timeout)
    }

    /// Lets every device go: gestures in progress end `cancelled`, sessions end, the gesture
    /// sequences finish (for a runtime driven turn by turn; ``run()-7ktdp`` does it).
    public func shutdown() {
        let now = clock.now
        for entry in devices.inUse { end(entry.device.node, at: now) }
        for entry in devices.all {
            letGo(entry, at: now)
            loop.unwatch(entry.device.fileDescriptor)
        }
        devices.removeAll()
        // The compositor reads the twins' last lifts before they go: on the system clock,
        // waited for here (at most ``twinLinger``); on a manual one, they go with the runtime.
        if let last = lingeringTwins.last?.until, let monotonic = clock.monotonicInstant(at: last) {
            MonotonicClock.sleep(until: min(monotonic, MonotonicClock.now + Self.twinLinger))
            lingeringTwins.removeAll()
        }
        if let monitor { loop.unwatch(monitor.fileDescriptor) }
        monitor = nil
        let continuations = streams.withLock { state in
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        streamCount.store(0, ordering: .relaxed)
        for c in continuations { c.finish() }
        running.store(false, ordering: .releasing)
    }

    /// Every device starts over with layouts from `source` (a configuration reloaded, an app's
    /// screen changed): gestures in progress end `cancelled`. Call it on the runtime's thread
    /// (from a handler, or through ``perform(_:)``).
    ///
    /// With `restarting`, only the devices it picks (by description and node) start over (a
    /// screen turned: its touchscreens); the others keep their sessions, and their gestures go on.
    public func replaceSource(_ source: LayoutSource, restarting: ((DeviceDescription, String) -> Bool)? = nil) {
        self.source = source
        let now = clock.now
        let picked = devices.all.filter { restarting?($0.device.description, $0.device.node) ?? true }
        for entry in picked where entry.session != nil { end(entry.device.node, at: now, why: "its layout was replaced (a reload, a screen turned)") }
        for entry in picked {
            use(entry.device)
            // No longer used: the compositor gets the device back.
            if entry.session == nil { letGo(entry, at: now) }
        }
    }

    // MARK: - The loop

    private func runCalls() {
        guard callsPending.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let pending = calls.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for call in pending { call.body() }
    }

    private var nextDeadline: Instant? {
        var earliest: Instant?
        devices.forEachInUse { entry in
            if let t = entry.session?.pipeline.nextDeadline, t < earliest ?? .distantFuture { earliest = t }
            if let t = entry.twin?.filter.nextDeadline, t < earliest ?? .distantFuture { earliest = t }
        }
        if let t = lingeringTwins.first?.until, t < earliest ?? .distantFuture { earliest = t }
        return earliest
    }

    private func fireDeadlines(at now: Instant) {
        // Twins kept so that their last lifts are read go now (kept in the order they came).
        if let first = lingeringTwins.first, first.until <= now { lingeringTwins.removeAll { $0.until <= now } }
        devices.forEachInUse { entry in
            guard let session = entry.session else { return }
            if (session.pipeline.nextDeadline ?? .distantFuture) <= now { session.pipeline.advance(to: now) }
            guard let twin = entry.twin else { return }
            // A gesture recognized at its deadline (a long press) takes its touches now; one
            // that failed there (a double tap timed out) lets the lifts it held go.
            if twin.claimedSinceWrite {
                twin.claimedSinceWrite = false
                write(twin.filter.ownershipChanged(at: now), to: entry)
            }
            if (entry.twin?.filter.nextDeadline ?? .distantFuture) <= now, let twin = entry.twin {
                write(twin.filter.deadlinePassed(now), to: entry)
            }
        }
    }

    // MARK: - Devices

    private func apply(_ changes: [DeviceChange]) {
        for change in changes {
            switch change {
            case .added(let device):
                // A node reported again without its removal: the old device goes first.
                if devices.entry(node: device.node) != nil { remove(device.node, reason: "replaced") }
                devices.add(device)
                let fd = device.fileDescriptor
                // Unretained: every wakeup of the device calls it (see the loop's closures above).
                loop.watch(fd, priority: .urgent) { [unowned(unsafe) self] _ in
                    if let entry = devices.entry(descriptor: fd) { read(entry) }
                }
                use(device)
            case .removed(let node):
                remove(node, reason: "removed")
            }
        }
    }

    /// Starts a session on `device` if the source has a layout for it.
    private func use(_ device: any TouchDevice) {
        let d = device.description
        var layout: Layout?
        var rules: (any DeviceRules)?
        switch source {
        case .rules(let r):
            rules = r
        case .standard, .shared, .perDevice:
            guard kinds.contains(d.kind) else {
                logger.info("touch device not used: not a kind asked for", metadata: ["device": "\(d.name)", "kind": "\(d.kind)"])
                return
            }
            // A layout in screen units: a touchpad is not on the screen (it would drive the
            // layout in millimetres, and keep the touchscreen from it).
            if let screen, d.kind == .touchpad, !screen.includesTouchpads {
                logger.info("touch device not used: a touchpad, and the layout's screen does not include touchpads",
                            metadata: ["device": "\(d.name)", "node": "\(device.node)"])
                return
            }
            if case .shared(let shared) = source {
                if let user = devices.inUse.first(where: { $0.session?.layout === shared }) {
                    logger.info("touch device not used: the layout is driven by another device", metadata: [
                        "device": "\(d.name)", "node": "\(device.node)", "in_use_by": "\(user.device.node)",
                    ])
                    return
                }
                layout = shared
            } else if case .perDevice(let make) = source {
                guard let made = make(d) else {
                    logger.info("touch device not used: no layout for it", metadata: ["device": "\(d.name)", "node": "\(device.node)"])
                    return
                }
                layout = made
            }
        }
        let session: DeviceSession
        do throws(DeviceSession.SetupError) {
            let matched = quirks?.quirks(for: QuirksDevice(description: d, dmi: quirksSystem.dmi, deviceTree: quirksSystem.deviceTree))
            session = try DeviceSession(device: d, node: device.node, rules: rules, layout: layout,
                                        screen: screen, ownership: ownership, quirks: matched ?? DeviceQuirks(),
                                        dropPolicy: device.resynchronizesAfterDrops ? .resynchronize : .cancelUnknown, logger: logger)
        } catch .noRule {
            logger.info("touch device not used by the device rules", metadata: ["device": "\(d.name)", "node": "\(device.node)"])
            return
        } catch {
            logger.warning("touch device not used: it reports no position axes", metadata: ["device": "\(d.name)", "node": "\(device.node)"])
            return
        }
        // Unretained, and without weak references (which would put every retain of the
        // session and the runtime, on every event, on the slow path): the observer is taken
        // away when the session ends (`end`), when it goes (its deinit) and when the runtime
        // goes (deinit).
        session.pipeline.observer = { [unowned(unsafe) self, unowned(unsafe) session] g in
            self.deliver(g, session)
        }
        // Touched before (the service restarted, the configuration reloaded): what its slots
        // hold, the kernel will not send again.
        session.seed(slotValues: device.slotValues())
        devices.entry(node: device.node)?.session = session
        saidNoDevices = false
        if let entry = devices.entry(node: device.node) { setUpOwnership(entry, session) }
        let surface = session.surface
        var details: Logger.Metadata = [
            "device": "\(d.name)", "node": "\(device.node)", "kind": "\(d.kind)", "size_mm": "\(surface.size)",
            "size_from": "\(surface.sizeSource.rawValue)", "touch": "\(d.touchProtocol)",
        ]
        if !session.quirks.entries.isEmpty {
            details["quirks"] = "\(session.quirks.entries.map(\.description).joined(separator: "; "))"
        }
        if surface.sizeSource == .assumed {
            details["hint"] = "the device reports no resolution, and udev's hwdb gives none: its size is assumed, and a press may move 1.43 times as far and still tap (the size may be 30% off); give its size in the configuration (devices: size: [w, h])"
        }
        logger.info("touch device added", metadata: details)
        for warning in session.warnings {
            logger.warning("the layout does not fit the device", metadata: ["device": "\(d.name)", "node": "\(device.node)", "problem": "\(warning)"])
        }
        onSessionStarted?(session)
    }

    private func deliver(_ gesture: Gesture, _ session: DeviceSession) {
        deliveredInFrame = true
        observer?(gesture, session)
        guard streamCount.load(ordering: .relaxed) > 0 else { return }
        let continuations = streams.withLock { Array($0.continuations.values) }
        for c in continuations { c.yield(gesture) }
    }

    /// Ends the session of the device at `node`: its gestures end `cancelled` at `time`.
    private func end(_ node: String, at time: Instant, why: String = "the device went away") {
        guard let entry = devices.entry(node: node), let session = entry.session else { return }
        entry.session = nil
        session.cancel(at: time, why: why)
        onSessionEnded?(session)
        session.pipeline.observer = nil
        session.pipeline.onTouchClaim = nil
    }

    private func remove(_ node: String, reason: String) {
        if let entry = devices.entry(node: node), entry.session != nil {
            end(node, at: clock.now)
            logger.info("touch device \(reason)", metadata: ["device": "\(entry.device.description.name)", "node": "\(node)"])
        }
        if let entry = devices.entry(node: node) { letGo(entry, at: clock.now) }
        if let entry = devices.remove(node: node) { loop.unwatch(entry.device.fileDescriptor) }
        // A shared layout the device drove goes to the next device present.
        if case .shared = source, devices.noneInUse {
            for other in devices.all where devices.noneInUse { use(other.device) }
        }
        if devices.noneInUse && !saidNoDevices {
            logger.notice("no touch devices left: waiting for one to be plugged in")
            saidNoDevices = true
        }
    }

    /// The kernel's buffer for the device overflowed before it was read (the process was not
    /// scheduled in time, or stopped): its events were lost.
    private func saySynDropped(_ device: any TouchDevice) {
        logger.notice(device.resynchronizesAfterDrops
                      ? "the kernel dropped events from the device (it was not read in time): its state is read again"
                      : "the kernel dropped events from the device (it was not read in time): its contacts are cancelled",
                      metadata: ["device": "\(device.node)"])
    }

    private func read(_ entry: DeviceTable.Entry) {
        let device = entry.device
        // One clock reading per frame measured (its end), one more for a wakeup timed.
        let woke: Instant? = latency?.timesWakeup() == true ? clock.now : nil
        deliveredInFrame = false  // what deadlines delivered since belongs to no frame
        do throws(InputError) {
            let present: Bool
            if let session = entry.session {
                // The session unwrapped once for the whole read, and the twin with it: the
                // closure holds them without a reference count per event (unwrapping the
                // session in there retained and released it on every event, about 40
                // instructions).
                let twin = entry.twin
                present = try device.readPending { event in handle(event, session, twin, entry, woke: woke) }
            } else {
                present = try device.readPending { _ in }  // not used: drained and dropped
            }
            if !present { remove(device.node, reason: "gone") }
        } catch {
            logger.error("cannot read a touch device", metadata: ["device": "\(device.node)", "error": "\(error.message)"])
            remove(device.node, reason: "failed")
        }
    }

    /// One event a device in use sent: to its twin (when owned) and its session; at the end of
    /// its frame, what the twin passes on and the frame's latency.
    @inline(__always)
    private func handle(_ event: InputEvent, _ session: DeviceSession, _ twin: OwnedTwin?, _ entry: DeviceTable.Entry, woke: Instant?) {
        twin?.filter.add(event)
        if event.type == EventType.syn && event.code == SynCode.dropped {
            saySynDropped(entry.device)
            onDeviceTrouble?(.kernelDropped, session)
        }
        do throws(DecodeError) {
            try session.process(event)
        } catch {
            logger.warning("device sent what no device should: contacts reset", metadata: [
                "device": "\(entry.device.node)", "error": "\(error)",
            ])
            session.recover(at: event.time)
            // Its decoder starts over: the pipeline's ids count again, and what it
            // held lifts for will not be decided.
            twin?.filter.startOver()
            onDeviceTrouble?(.reset, session)
        }
        guard event.isReport else { return }
        // The frame's gestures are known: the twin gets what no owned gesture took.
        if let twin {
            twin.claimedSinceWrite = false
            write(twin.filter.endFrame(), to: entry)
        }
        if latency != nil || onFrameHandled != nil {
            let handled = clock.now
            latency?.record(eventTime: event.time, wokeAt: woke, handledAt: handled, deliveredGesture: deliveredInFrame)
            onFrameHandled?(event.time, handled)
            deliveredInFrame = false
        }
    }
}

extension GestureRuntime: Service {}
