import GestureProtocol
import GestureConfiguration
import GestureRuntime
import Gestures
import Logging
import SystemBus
import SystemLoop
import TouchEvents
import TouchInput

/// The configuration's actions: programs (`exec`, through ``ActionRunner``), the virtual
/// keyboard and pointer (``DesktopActions``), `emit` to socket clients, and the `when: {app: …}`
/// conditions that follow the focused app (``FocusTracker``, fed by the compositor,
/// ``CompositorLink``, or by socket clients' context), and the screens (``ScreenTracker``, fed
/// by the compositor and the ``Accelerometer``) that device rules with `rotation: auto` follow.
///
/// One user of the service's `SharedEventLoop` (the compositor's socket, the actions' deadlines);
/// the service's composition root (``GestureService``) hands it each session as it starts and
/// ends, and calls ``tend()`` after each turn's events.
final class ActionDispatcher {
    let runner: ActionRunner
    let desktop: DesktopActions
    let focus: FocusTracker
    let screens: ScreenTracker
    /// The compositor followed for `when: {app: …}` and the screens, if one was found.
    private(set) var compositor: CompositorLink?
    /// The accelerometer followed for `rotation: auto` without a compositor.
    private(set) var accelerometer: Accelerometer?
    private var saidNoBus = false
    /// Hears the machine wake, for the virtual touchpad.
    private var sleepWatcher: SleepWatcher?
    /// The owned touchscreens' sessions, by session (``leaveTheDesktopItsGestures(_:_:)``).
    private var ownedScreens: [ObjectIdentifier: OwnedScreen] = [:]
    /// When the running compositor was last looked at for them.
    private var desktopLookedAt: Instant?
    /// Makes the virtual keyboard and pointer (uinput); tests put recorders in its place.
    var makeVirtualInput: (VirtualInputKind) throws(InputError) -> any VirtualInputWriter = { kind throws(InputError) in
        kind == .touchpad ? try UInputDevice(virtualTouchDevice: kind.description) : try UInputDevice(description: kind.description)
    }
    /// The compositor running now (the runtime's finder): on GNOME and KDE an owned
    /// touchscreen leaves the shell the swipes it animates (``leaveTheDesktopItsGestures(_:_:)``).
    var runningCompositor: () -> RunningCompositor? = { nil }
    /// Sends an `emit` action's gesture to the socket clients whose subscription takes it.
    var emit: ((GestureEvent) -> Void)?
    private let loop: SharedEventLoop
    private let clock: any TouchClock
    private let logger: Logger
    /// Layouts built by ``rules(of:)`` whose session has not begun yet, by layout.
    private var builtLayouts: [ObjectIdentifier: BuiltLayout] = [:]
    /// The `when` conditions of each session under way (by recognizer), by session.
    private var sessionConditions: [ObjectIdentifier: [ObjectIdentifier: GestureCondition]] = [:]

    init(settings: ServiceSettings, loop: SharedEventLoop, clock: any TouchClock, logger: Logger) {
        runner = ActionRunner(timeout: settings.actionTimeout, maximum: settings.maxActions,
                              allowRoot: settings.actionsAsRoot, clock: clock, logger: logger)
        desktop = DesktopActions(logger: logger)
        focus = FocusTracker(logger: logger)
        screens = ScreenTracker(logger: logger)
        self.loop = loop
        self.clock = clock
        self.logger = logger
    }

    /// The next time something of the actions' is due: an action's timeout, a retry to reach
    /// the compositor.
    var nextDeadline: Instant? {
        Instant.earliest(Instant.earliest(runner.nextDeadline, compositor?.retryAt), desktop.nextDeadline)
    }

    /// After every wakeup: finished actions are collected, overdue ones stopped, and the
    /// compositor's connection looked after.
    func tend() {
        // Nothing runs on most turns (every frame of a device is one): then nothing is due.
        if !runner.running.isEmpty {
            runner.reap()
            if let deadline = runner.nextDeadline, deadline <= clock.now { runner.fireDeadlines() }
        }
        compositor?.tend()
        if let due = desktop.nextDeadline, due <= clock.now { desktop.fireDeadlines(at: clock.now) }
        if !ownedScreens.isEmpty { recheckDesktop() }
    }

    /// The configuration's settings, read again (a reload): what a running action was
    /// started with stays.
    func apply(_ settings: ServiceSettings) {
        runner.timeout = settings.actionTimeout
        runner.maximum = settings.maxActions
        runner.allowRoot = settings.actionsAsRoot
    }

    /// Lets go of every key and button held, and of the compositor. A touchpad gesture the
    /// stop cancelled keeps its fingers until libinput has ended it cancelled: on the system
    /// clock that is waited for here (at most ``TouchpadStroke/cancelHold``); lifted at once,
    /// libinput would end it as completed (a workspace switched by a service restart).
    func shutdown() {
        desktop.releaseTouchpad(reason: "stopping", going: false, at: clock.now)
        if let last = desktop.lastPendingLift, let monotonic = clock.monotonicInstant(at: last) {
            MonotonicClock.sleep(until: min(monotonic, MonotonicClock.now + TouchpadStroke.cancelHold))
        }
        desktop.releaseAll(reason: "stopping", stopping: true)
        compositor?.close()
    }

    // MARK: - Sessions

    /// `configuration`'s device rules, for the runtime: each layout they build is kept here,
    /// with its actions and conditions, until its session begins (``attach(_:)``).
    func rules(of configuration: Configuration) -> any DeviceRules {
        ReportingRules(configuration: configuration, screen: screens.state) { [weak self] built in self?.register(built) }
    }

    /// A layout built for a session about to begin: kept, with its actions and conditions,
    /// until ``attach(_:)``.
    func register(_ built: BuiltLayout) {
        builtLayouts[ObjectIdentifier(built.layout)] = built
    }

    /// A session began: each of its recognizers with an action gets a handler that runs it,
    /// and its `when` gestures follow the focus. A session whose layout did not come from
    /// ``rules(of:)`` has neither.
    func attach(_ session: DeviceSession) {
        guard let built = builtLayouts.removeValue(forKey: ObjectIdentifier(session.layout)) else { return }
        sessionConditions[ObjectIdentifier(session)] = built.conditions
        // Layout units to mm, for scroll and pointer ratios.
        let scale = session.mapping.scale
        let millimetresPerUnit = scale > 0 ? 1 / scale : 1
        let screen = SurfaceSize(width: session.layout.root.frame.width, height: session.layout.root.frame.height)
        for region in ClientRegions.configuredRegions(of: session.layout) {
            for recognizer in region.recognizers {
                guard let action = built.actions[ObjectIdentifier(recognizer)] else { continue }
                let label = "\(recognizer.name)@\(region.id)"
                let id = ObjectIdentifier(recognizer)
                recognizer.addHandler { [weak self, weak session] g in
                    guard let self else { return }
                    if action.usesKeyboard || action.usesPointer || action.usesTouchpad {
                        desktop.perform(action, g, recognizer: id, label: label, millimetresPerUnit: millimetresPerUnit, screen: screen)
                    }
                    guard action.runs(for: g) else { return }
                    let origin = session?.origin ?? g.startTime
                    if let argv = action.exec {
                        runner.start(argv, environment: ActionRunner.environment(GestureEvent(g, origin: origin)), label: label)
                    }
                    if action.emit { emit?(GestureEvent(g, origin: origin)) }
                }
            }
        }
        applyFocus(to: session)
        leaveTheDesktopItsGestures(session, built)
    }

    /// On GNOME and KDE, whose shell animates three-finger touchscreen swipes 1:1, an owned
    /// touchscreen leaves those to the shell: its gestures owning their touches leave it the
    /// finger counts that no gesture of the layout binds (``GestureSpec/binds(fingers:)``:
    /// `touches: 3` binds three; a pan's default 1 to 5 binds none).
    ///
    /// The shell often starts after the service (a system service at boot), and the user may
    /// change desktops: the running compositor is looked at again, as touches come, once
    /// ``desktopRecheck`` has passed since the last look, and each change is logged.
    func leaveTheDesktopItsGestures(_ session: DeviceSession, _ built: BuiltLayout) {
        guard session.ownership != nil, session.description.kind == .touchscreen else { return }
        let recognizers = Self.configuredRecognizers(of: session.layout)
        let screen = OwnedScreen(device: session.description.name, owning: recognizers.filter(\.ownsTouches),
                                 specs: recognizers.compactMap { built.gestures[ObjectIdentifier($0)] })
        ownedScreens[ObjectIdentifier(session)] = screen
        leave(screen, compositor: runningCompositor())
        desktopLookedAt = clock.now
    }

    /// How long what the running compositor is holds for ``leaveTheDesktopItsGestures(_:_:)``: 5 s.
    static let desktopRecheck = Duration.seconds(5)

    /// An owned touchscreen's gestures, for leaving the desktop its swipes.
    struct OwnedScreen {
        let device: String
        let owning: [GestureRecognizer]
        let specs: [GestureSpec]
    }

    /// Sets what `screen`'s owning gestures leave to `compositor`'s shell (nothing elsewhere),
    /// and says so when it changes.
    private func leave(_ screen: OwnedScreen, compositor: RunningCompositor?) {
        guard !screen.owning.isEmpty else { return }
        let animated = compositor?.animatedSwipeFingers(on: .touchscreen) ?? []
        let left = animated.filter { n in !screen.specs.contains { $0.binds(fingers: n) } }
        guard left != screen.owning.first?.leavesFingerCounts ?? [] else { return }
        for recognizer in screen.owning { recognizer.leavesFingerCounts = left }
        guard let desktop = compositor?.desktop, !left.isEmpty else {
            logger.info("the owned device's gestures take every finger count again: no shell animating its own swipes runs",
                        metadata: ["device": "\(screen.device)"])
            return
        }
        logger.info("\(desktop) animates its own touchscreen swipes: the owned device leaves them to it", metadata: [
            "device": "\(screen.device)", "fingers": "\(left.sorted().map(String.init).joined(separator: ", "))",
            "hint": "a gesture that binds the count (touches: 3) takes them",
        ])
    }

    /// Looks at the running compositor again for the owned touchscreens, when it is time.
    private func recheckDesktop() {
        let now = clock.now
        guard now >= (desktopLookedAt ?? .zero) + Self.desktopRecheck else { return }
        desktopLookedAt = now
        let compositor = runningCompositor()
        for screen in ownedScreens.values { leave(screen, compositor: compositor) }
    }

    /// A session ended: its gestures were cancelled, which released their keys; this makes sure.
    func sessionEnded(_ session: DeviceSession) {
        sessionConditions[ObjectIdentifier(session)] = nil
        ownedScreens[ObjectIdentifier(session)] = nil
        for recognizer in Self.configuredRecognizers(of: session.layout) { desktop.release(ObjectIdentifier(recognizer)) }
    }

    /// The recognizers of the configuration's regions (``ClientRegions/configuredRegions(of:)``).
    static func configuredRecognizers(of layout: Layout) -> [GestureRecognizer] {
        ClientRegions.configuredRegions(of: layout).flatMap(\.recognizers)
    }

    /// Enables the session's `when` gestures whose app has the focus, disables the others
    /// (a touch sequence already under way keeps what it began with).
    func applyFocus(to session: DeviceSession) {
        guard let conditions = sessionConditions[ObjectIdentifier(session)], !conditions.isEmpty else { return }
        for recognizer in Self.configuredRecognizers(of: session.layout) {
            guard let condition = conditions[ObjectIdentifier(recognizer)] else { continue }
            recognizer.isEnabled = condition.holds(focusedApp: focus.app)
        }
    }

    // MARK: - The desktop

    /// The virtual keyboard and pointer `configuration`'s actions need, made once (a reload
    /// may add one). Without uinput the service says so and runs on without those actions.
    func openVirtualInput(for configuration: Configuration) {
        let specs = configuration.gestures.compactMap(\.action)
        let needed: [(VirtualInputKind, Bool)] = [(.keyboard, specs.contains { $0.usesKeyboard }), (.pointer, specs.contains { $0.usesPointer }),
                                                  (.touchpad, specs.contains { $0.usesTouchpad })]
        for (kind, needs) in needed where needs && desktop.device(kind) == nil {
            do throws(InputError) {
                let device = try makeVirtualInput(kind)
                switch kind {
                case .keyboard: desktop.keyboard = device
                case .pointer: desktop.pointer = device
                case .touchpad: desktop.touchpad = device
                }
                logger.info("virtual \(kind.rawValue) ready", metadata: ["name": "\(kind.description.name)", "node": "\((device as? UInputDevice)?.node ?? "-")"])
            } catch {
                let what = switch kind {
                case .keyboard: "key and hold"
                case .pointer: "button, scroll and pointer"
                case .touchpad: "touchpad"
                }
                logger.error("no virtual \(kind.rawValue): \(what) actions are off until uinput is writable (/dev/uinput: the gestured group, see docs/desktop.md)",
                             metadata: ["error": "\(error.message)"])
            }
        }
    }

    /// Starts following the compositor's focus when some gesture of `configuration` has
    /// `when: {app: …}`, and its outputs when `outputs` and some device rule's screen turns
    /// (`rotation: auto`, `output-name`); a link following other things is replaced.
    func followFocus(for configuration: Configuration, environment: [String: String], outputs: Bool = false) {
        let interests = CompositorLink.Interests(focus: configuration.gestures.contains { $0.when != nil },
                                                 outputs: outputs && configuration.devices.contains { $0.turns(kind: .touchscreen) })
        guard interests != compositor?.interests else { return }
        compositor?.close()
        compositor = nil
        guard interests.focus || interests.outputs else { return }
        guard let found = CompositorLink.detect(environment: environment) else {
            if interests.focus {
                logger.notice("when: {app: …} gestures follow socket clients' context: no compositor found (SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE)")
            }
            return
        }
        let c = CompositorLink(found, interests: interests, focus: focus, screens: screens, clock: clock, logger: logger,
                               watch: { [weak self] fd, handler in self?.loop.watch(fd, handler) },
                               unwatch: { [weak self] fd in self?.loop.unwatch(fd) })
        compositor = c
        c.connect()
    }

    /// The virtual touchpad made again (the machine woke up: GNOME 46 and Plasma 6.1 stop
    /// reading a virtual touchpad after a lid close): its gestures in progress are cancelled,
    /// the old device goes and a new one comes.
    func remakeTouchpad(reason: String) {
        guard desktop.touchpad != nil else { return }
        desktop.releaseTouchpad(reason: reason, going: true)
        desktop.touchpad = nil
        do throws(InputError) {
            let device = try makeVirtualInput(.touchpad)
            desktop.touchpad = device
            logger.info("virtual touchpad made again", metadata: ["reason": "\(reason)", "node": "\((device as? UInputDevice)?.node ?? "-")"])
        } catch {
            logger.error("no virtual touchpad: touchpad actions are off", metadata: ["error": "\(error.message)"])
        }
    }

    /// Listens on `bus` (nil: no system bus) for the machine waking up, when some action of
    /// `configuration` drives the virtual touchpad: it is made again then.
    func followSleep(for configuration: Configuration, bus: SystemBus?) {
        guard sleepWatcher == nil, configuration.gestures.contains(where: { $0.action?.usesTouchpad == true }) else { return }
        guard let bus else {
            logger.info("no system bus: the virtual touchpad is not made again after a suspend (GNOME 46 and Plasma 6.1 stop reading it then)")
            return
        }
        do throws(SystemBusError) {
            sleepWatcher = try SleepWatcher(bus: bus, logger: logger) { [weak self] in self?.remakeTouchpad(reason: "the machine woke up") }
        } catch {
            logger.warning("cannot hear the machine wake: the virtual touchpad is not made again after a suspend", metadata: ["error": "\(error)"])
        }
    }

    /// Starts following the accelerometer on `bus` (nil: no system bus) when some device rule
    /// of `configuration` has `rotation: auto` and no compositor says how the screens turn.
    func followAccelerometer(for configuration: Configuration, bus: SystemBus?) {
        accelerometer?.lock = configuration.service.rotationLock
        guard accelerometer == nil, compositor?.interests.outputs != true,
              configuration.devices.contains(where: { $0.followsRotation && $0.turns(kind: .touchscreen) }) else { return }
        guard let bus else {
            // Said once, not at every reload.
            if !saidNoBus { logger.info("no accelerometer: rotation: auto keeps the screen as it is", metadata: ["reason": "no system bus"]) }
            saidNoBus = true
            return
        }
        let a = Accelerometer(bus: bus, screens: screens, lock: configuration.service.rotationLock, logger: logger)
        accelerometer = a
        a.start()
    }
}
