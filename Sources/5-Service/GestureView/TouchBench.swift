import GestureConfiguration
import GestureProtocol
import GestureRuntime
import Gestures
import SystemLoop
import TouchEvents
import TouchRecordings

/// What runs a configuration's actions for the bench's sessions (`--run-actions`): the
/// service's own (`ConfiguredActions`, in GestureService).
public protocol TouchBenchActions: AnyObject {
    /// A layout built for a session about to begin, with its actions.
    func register(_ built: BuiltLayout)
    /// The session began: its recognizers with actions run them.
    func attach(_ session: DeviceSession)
    /// The session is over: its keys and buttons held are let go.
    func detach(_ session: DeviceSession)
    /// Whether `action` can run (a program refused as root, keys without a virtual keyboard
    /// cannot), for what the page is told.
    func canRun(_ action: ActionSpec) -> Bool
}

/// `gestured view --config FILE` with no recording: a touch bench. The page draws the
/// configuration's layout, and the mouse (or a touchscreen in the browser) puts touches on it.
/// They go through the very pipeline a device's do — as a made-up device's kernel events
/// (``TouchFrameEncoder``) into a ``DeviceSession``, on a surface of the device rule's size in
/// millimetres — and the gestures, failures and the actions they would run come back to the
/// page. Actions are shown, and run only with ``TouchBenchActions`` (`--run-actions`). **save** sends the page what was drawn as a
/// libinput-record recording (and writes it to ``savePath`` when given), which `replay`
/// plays to the same gestures.
///
/// The page's commands: `touch ID:PHASE:X:Y …` (one frame; PHASE `down`, `move`, `up` or
/// `cancel`, X and Y in layout units), `save`, `clear`.
public final class TouchBench {
    private let configuration: Configuration
    private let view: LiveView
    private let loop: SharedEventLoop
    private let clock: any TouchClock
    public let device: DeviceDescription
    /// Where **save** also writes the recording (nil: only to the page).
    public var savePath: String?
    /// Told of each save: where it was written (nil: only to the page), or why not, and how
    /// many events it holds.
    public var onSave: ((_ writtenTo: String?, _ error: String?, _ events: Int) -> Void)?
    private var session: DeviceSession
    private var encoder: TouchFrameEncoder
    /// Every event sent so far: what **save** writes.
    public private(set) var events: [InputEvent] = []
    /// The page's touches down, each with its contact's id and slot and where it is (mm).
    private var down: [(page: String, id: Int, slot: Int, at: Point)] = []
    private var nextID = 1
    /// The session's layout as the configuration built it, with its actions by recognizer.
    private var built: BuiltLayout?
    /// Runs the actions (nil: they are only shown).
    private let actions: TouchBenchActions?

    /// A made-up device the configuration's rules take (``Configuration/syntheticDevice(kind:size:)``:
    /// of `kind`, else the rule's, of `size` mm, else the rule's, else a 10.1" panel in the
    /// layout's proportions).
    public init(configuration: Configuration, kind: DeviceKind?, size: SurfaceSize?, view: LiveView, loop: SharedEventLoop,
                clock: any TouchClock, actions: TouchBenchActions? = nil) throws(SyntheticDeviceError) {
        self.configuration = configuration
        self.actions = actions
        self.view = view
        self.loop = loop
        self.clock = clock
        device = try configuration.syntheticDevice(kind: kind, size: size).device
        encoder = TouchFrameEncoder(device: device)
        do throws(DeviceSession.SetupError) {
            (session, built) = try Self.session(device, configuration, actions)
        } catch {
            throw SyntheticDeviceError(message: "\(configuration.path): the made-up \(device.kind) cannot be set up: \(error)")
        }
        attach()
        view.add(session)
        view.commands = ["touch", "save", "clear"]
        view.onCommand = { [unowned self] command in handle(command) }
        loop.addTimer(owner: ObjectIdentifier(self), next: { [unowned self] in session.pipeline.nextDeadline },
                      fire: { [unowned self] now in session.pipeline.advance(to: now) })
    }

    deinit { loop.removeWork(of: ObjectIdentifier(self)) }

    /// The session of a fresh bench, and its layout as the configuration built it.
    private static func session(_ device: DeviceDescription, _ configuration: Configuration, _ actions: TouchBenchActions?)
        throws(DeviceSession.SetupError) -> (DeviceSession, BuiltLayout?) {
        var built: BuiltLayout?
        let session = try DeviceSession(device: device, rules: ReportingRules(configuration: configuration) { b in
            built = b
            actions?.register(b)
        })
        actions?.attach(session)
        return (session, built)
    }


    private func attach() {
        session.pipeline.observer = { [unowned self, unowned session] g in view.gesture(g, of: session) }
        session.pipeline.failureObserver = { [unowned self, unowned session] r, reason, time in
            view.failure(r, reason: reason, at: time, of: session)
        }
        session.afterFrame = { [unowned self, unowned session] frame in view.frame(frame, of: session) }
        // The actions, shown when they would run (as the service decides it); run only by `actions`.
        guard let built else { return }
        for region in session.layout.regions {
            for recognizer in region.recognizers {
                guard let action = built.actions[ObjectIdentifier(recognizer)] else { continue }
                let label = "\(recognizer.name)@\(region.id)"
                recognizer.addHandler { [unowned self, unowned session] gesture in
                    guard action.runs(for: gesture) else { return }
                    view.send(ViewMessages.action(label: label, action: action.summary, run: actions?.canRun(action) ?? false,
                                                  time: gesture.time - (session.origin ?? gesture.time)))
                }
            }
        }
    }

    func handle(_ command: String) {
        if command == "save" { return save() }
        if command == "clear" { return clear() }
        guard command.hasPrefix("touch ") else { return view.send(ViewMessages.error("unknown command: \(command.prefix(40)) (touch, save, clear)")) }
        switch Self.parseTouches(String(command.dropFirst(6))) {
        case .success(let touches): apply(touches)
        case .failure(let why): view.send(ViewMessages.error(why.message))
        }
    }

    struct BadTouch: Error { var message: String }

    /// `ID:PHASE:X:Y` groups, space-separated.
    static func parseTouches(_ text: String) -> Result<[(page: String, phase: String, at: Point)], BadTouch> {
        var out: [(String, String, Point)] = []
        for group in text.split(separator: " ") {
            let f = group.split(separator: ":", omittingEmptySubsequences: false)
            guard f.count == 4, !f[0].isEmpty, ["down", "move", "up", "cancel"].contains(String(f[1])),
                  let x = Double(f[2]), let y = Double(f[3]), x.isFinite, y.isFinite, abs(x) <= 1e7, abs(y) <= 1e7 else {
                return .failure(BadTouch(message: "a touch is ID:PHASE:X:Y (PHASE down, move, up or cancel), not \(group.prefix(40))"))
            }
            out.append((String(f[0]), String(f[1]), Point(x: x, y: y)))
        }
        guard !out.isEmpty, out.count <= 10 else { return .failure(BadTouch(message: "a touch command has 1 to 10 touches")) }
        return .success(out)
    }

    /// One frame: the page's touches that changed, the others still down.
    private func apply(_ touches: [(page: String, phase: String, at: Point)]) {
        let time = clock.now
        var phases: [Int: TouchPhase] = [:]
        let mapping = session.mapping
        let size = session.surface.size
        for t in touches {
            // Layout units to the surface; a touch off the surface is held at its edge.
            guard var mm = mapping.surfacePoint(t.at), mm.x.isFinite, mm.y.isFinite else { continue }
            mm = Point(x: min(max(mm.x, 0), size.width), y: min(max(mm.y, 0), size.height))
            if let i = down.firstIndex(where: { $0.page == t.page }) {
                down[i].at = mm
                phases[down[i].id] = t.phase == "up" ? .ended : t.phase == "cancel" ? .cancelled : phases[down[i].id] ?? .moved
            } else if t.phase == "down", down.count < 10 {
                let used = Set(down.map(\.slot))
                let slot = (0...).first { !used.contains($0) }!
                down.append((t.page, nextID, slot, mm))
                phases[nextID] = .began
                nextID += 1
            }
        }
        guard !phases.isEmpty else { return }
        let contacts = down.sorted { $0.slot < $1.slot }.map { d in
            TouchContact(id: d.id, slot: d.slot, phase: phases[d.id] ?? .stationary,
                         deviceX: Int32(d.at.x * 10), deviceY: Int32(d.at.y * 10), x: d.at.x, y: d.at.y)
        }
        down.removeAll { phases[$0.id] == .ended || phases[$0.id] == .cancelled }
        for event in encoder.events(for: TouchFrame(time: time, contacts: contacts)) {
            events.append(event)
            do throws(DecodeError) {
                try session.process(event)
            } catch {
                session.recover(at: event.time)
            }
        }
    }

    /// What was drawn, as a recording: to the page, and to ``savePath``.
    private func save() {
        let recorded = RecordedDevice(description: device, events: events, eventLines: [])
        let yaml = LibinputRecordWriter(source: "the touch bench (gestured view)").yaml(for: recorded)
        var written: String?
        var failed: String?
        if let savePath {
            do throws(RecordingError) {
                try writeFileAtomically(yaml, to: savePath)
                written = savePath
            } catch {
                failed = "\(error)"
                view.send(ViewMessages.error("\(error)"))
            }
        }
        onSave?(written, failed, events.count)
        view.send(ViewMessages.recording(yaml: yaml, events: events.count, savedTo: written))
    }

    /// Forgets what was drawn: a fresh session, no events.
    private func clear() {
        view.remove(session)
        view.clearHistory()
        session.pipeline.observer = nil
        session.pipeline.failureObserver = nil
        session.afterFrame = nil
        actions?.detach(session)
        if let fresh = try? Self.session(device, configuration, actions) { (session, built) = fresh }
        encoder = TouchFrameEncoder(device: device)
        events.removeAll()
        down.removeAll()
        attach()
        view.add(session)
    }
}
