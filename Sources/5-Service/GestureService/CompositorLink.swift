import GestureProtocol
import Logging
import SystemLoop
import TouchEvents

/// Follows the compositor: its focus for `when: {app: …}`, its outputs (their transform and
/// size) for device rules whose screen turns (`rotation: auto`, `output-name`). sway (and other
/// i3-IPC compositors) through `$SWAYSOCK`, Hyprland through its sockets. It connects at start,
/// asks once for what it follows, then only reads the events the compositor sends — no polling
/// (an output event, or Hyprland's monitor events, make it ask for the outputs again). When
/// the compositor goes away it says so, forgets what it told, and tries again after 1 s,
/// doubling to 30 s.
final class CompositorLink {
    enum Compositor: Equatable {
        case sway(socket: String)
        /// The instance's directory, holding `.socket.sock` and `.socket2.sock`.
        case hyprland(directory: String)

        var name: String {
            switch self {
            case .sway: "sway"
            case .hyprland: "hyprland"
            }
        }
    }

    /// The compositor the environment points at: `SWAYSOCK` (sway, or `I3SOCK`), else
    /// `HYPRLAND_INSTANCE_SIGNATURE` with an existing event socket.
    static func detect(environment: [String: String]) -> Compositor? {
        for key in ["SWAYSOCK", "I3SOCK"] {
            if let path = environment[key], path.hasPrefix("/") { return .sway(socket: path) }
        }
        let directories = HyprlandIPC.directories(environment: environment)
        if let found = directories.first(where: { UnixSocket.fileKind("\($0)/.socket2.sock").isSocket }) ?? directories.first {
            return .hyprland(directory: found)
        }
        return nil
    }

    static let firstRetry = Duration.seconds(1)
    static let longestRetry = Duration.seconds(30)

    /// What the link follows.
    struct Interests: Equatable {
        var focus: Bool
        var outputs: Bool
    }

    let compositor: Compositor
    let interests: Interests
    private let focus: FocusTracker
    private let screens: ScreenTracker
    private let clock: any TouchClock
    private let logger: Logger
    private let watch: (Int32, @escaping (EventLoop.Event) -> Void) -> Void
    private let unwatch: (Int32) -> Void
    /// The event connection, and Hyprland's one-off request connections (each answered as it
    /// closes), with what each asked and what came back so far.
    private var events: Int32 = -1
    private var requests: [Int32: (asked: HyprlandIPC.Request, reply: [UInt8])] = [:]
    private var swayDecoder = SwayIPC.Decoder()
    private var lines = LineFramer(maximumBytes: 64 << 10)
    /// When to try connecting again (nil: connected, or not started).
    private(set) var retryAt: Instant?
    private var retryDelay = CompositorLink.firstRetry
    private var warned = false

    init(_ compositor: Compositor, interests: Interests, focus: FocusTracker, screens: ScreenTracker, clock: any TouchClock, logger: Logger,
         watch: @escaping (Int32, @escaping (EventLoop.Event) -> Void) -> Void, unwatch: @escaping (Int32) -> Void) {
        self.compositor = compositor
        self.interests = interests
        self.focus = focus
        self.screens = screens
        self.clock = clock
        self.logger = logger
        self.watch = watch
        self.unwatch = unwatch
    }

    /// Connects (at start, and when ``retryAt`` has come).
    func connect() {
        retryAt = nil
        do throws(SystemError) {
            switch compositor {
            case .sway(let path):
                let fd = try UnixSocket.connect(to: path)
                swayDecoder = SwayIPC.Decoder()
                let kinds = (interests.focus ? [#""window""#, #""workspace""#] : []) + (interests.outputs ? [#""output""#] : [])
                send(SwayIPC.message(type: SwayIPC.subscribe, payload: "[" + kinds.joined(separator: ",") + "]"), on: fd)
                if interests.focus { send(SwayIPC.message(type: SwayIPC.getTree, payload: ""), on: fd) }
                if interests.outputs { send(SwayIPC.message(type: SwayIPC.getOutputs, payload: ""), on: fd) }
                adopt(fd)
            case .hyprland(let directory):
                let fd = try UnixSocket.connect(to: "\(directory)/.socket2.sock")
                lines = LineFramer(maximumBytes: 64 << 10)
                adopt(fd)
                // What holds now: asked once on the request socket, answered as it closes.
                if interests.focus { ask(.activeWindow) }
                if interests.outputs {
                    ask(.monitors)
                    ask(.touchOutput)
                }
            }
            let following = [interests.focus ? "focus" : nil, interests.outputs ? "outputs" : nil].compactMap { $0 }
            logger.info("following the compositor", metadata: ["compositor": "\(compositor.name)", "for": "\(following.joined(separator: ", "))"])
            retryDelay = Self.firstRetry
            warned = false
        } catch {
            if !warned {
                logger.warning("cannot reach the compositor for when: {app: …} or the screens' rotation; trying again",
                               metadata: ["compositor": "\(compositor.name)", "error": "\(error.message)"])
                warned = true
            }
            scheduleRetry()
        }
    }

    /// Closes the connections.
    func close() {
        if events >= 0 {
            unwatch(events)
            UnixSocket.close(events)
            events = -1
        }
        for fd in requests.keys { closeRequest(fd) }
        retryAt = nil
    }

    private func adopt(_ fd: Int32) {
        UnixSocket.setNonBlocking(fd)
        events = fd
        watch(fd) { [weak self] _ in self?.eventsEvent() }
    }

    private func send(_ bytes: [UInt8], on fd: Int32) {
        bytes.withUnsafeBytes { _ = UnixSocket.send(fd, $0) }
    }

    private func scheduleRetry() {
        retryAt = clock.now + retryDelay
        retryDelay = min(retryDelay * 2, Self.longestRetry)
    }

    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    /// Everything waiting on `fd`, and whether the other end has closed it.
    private func drain(_ fd: Int32) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        while true {
            switch buffer.withUnsafeMutableBytes({ UnixSocket.read(fd, into: $0) }) {
            case .data(let count): bytes += buffer[0..<count]
            case .wouldBlock: return (bytes, false)
            case .closed: return (bytes, true)
            }
        }
    }

    private func eventsEvent() {
        guard events >= 0 else { return }
        let (bytes, closed) = drain(events)
        handle(bytes[...])
        if closed && events >= 0 { lost("the compositor closed its socket") }
    }

    private func handle(_ bytes: ArraySlice<UInt8>) {
        switch compositor {
        case .sway:
            let messages: [(type: UInt32, payload: [UInt8])]
            do throws(SwayIPC.Decoder.DecodeError) {
                messages = try swayDecoder.feed(bytes)
            } catch {
                lost("the compositor sent something that is not i3 IPC (\(error))")
                return
            }
            for m in messages {
                if m.type == SwayIPC.outputEvent, events >= 0 {
                    // The event says only that something changed: the outputs are asked for again.
                    send(SwayIPC.message(type: SwayIPC.getOutputs, payload: ""), on: events)
                } else if m.type == SwayIPC.getOutputs {
                    if let outputs = SwayIPC.outputs(m.payload) { screens.report(outputs: outputs, from: compositor.name) }
                } else if interests.focus, let app = SwayIPC.focus(type: m.type, payload: m.payload) {
                    focus.report(app, from: compositor.name)
                }
            }
        case .hyprland:
            for line in lines.feed(bytes) {
                guard case .line(let bytes) = line else { continue }
                let text = String(decoding: bytes, as: UTF8.self)
                if interests.outputs, HyprlandIPC.outputsChanged(line: text) {
                    ask(.monitors)
                    if text.hasPrefix("configreloaded>>") { ask(.touchOutput) }
                } else if interests.focus, let app = HyprlandIPC.focus(line: text) {
                    focus.report(app, from: compositor.name)
                }
            }
        }
    }

    /// Asks Hyprland's request socket (a connection per request, answered as it closes).
    private func ask(_ request: HyprlandIPC.Request) {
        guard case .hyprland(let directory) = compositor,
              let fd = try? UnixSocket.connect(to: "\(directory)/.socket.sock") else { return }
        send(Array(request.rawValue.utf8), on: fd)
        UnixSocket.setNonBlocking(fd)
        requests[fd] = (request, [])
        watch(fd) { [weak self] _ in self?.requestEvent(fd) }
    }

    private func requestEvent(_ fd: Int32) {
        guard var pending = requests[fd] else { return }
        let (bytes, closed) = drain(fd)
        pending.reply += bytes
        requests[fd] = pending
        if pending.reply.count > 1 << 20 {
            closeRequest(fd)
        } else if closed {
            closeRequest(fd)
            switch pending.asked {
            case .activeWindow:
                if let app = HyprlandIPC.focus(activeWindowReply: pending.reply) { focus.report(app, from: compositor.name) }
            case .monitors:
                if let outputs = HyprlandIPC.outputs(monitorsReply: pending.reply) { screens.report(outputs: outputs, from: compositor.name) }
            case .touchOutput:
                if let name = HyprlandIPC.touchOutput(optionReply: pending.reply) { screens.report(touchOutput: name) }
            }
        }
    }

    private func closeRequest(_ fd: Int32) {
        guard requests.removeValue(forKey: fd) != nil else { return }
        unwatch(fd)
        UnixSocket.close(fd)
    }

    /// The connection broke: the focus is no longer known; try again later.
    private func lost(_ why: String) {
        logger.warning("lost the compositor; trying again", metadata: ["compositor": "\(compositor.name)", "reason": "\(why)"])
        close()
        focus.forget(compositor.name)
        screens.forgetOutputs(from: compositor.name)
        warned = true
        scheduleRetry()
    }

    /// At every turn of the loop: makes a reconnection that is due.
    func tend() {
        if let at = retryAt, at <= clock.now { connect() }
    }
}
