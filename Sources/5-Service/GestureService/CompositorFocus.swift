import GestureProtocol
import Logging
import SystemLoop
import TouchEvents

/// Follows the compositor's focus for `when: {app: …}`: sway (and other i3-IPC compositors)
/// through `$SWAYSOCK`, Hyprland through its event socket. It connects at start, asks for the
/// focused window once, then only reads the events the compositor sends — no polling. When the
/// compositor goes away it says so, forgets the focus, and tries again after 1 s, doubling to
/// 30 s.
final class CompositorFocus {
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

    let compositor: Compositor
    private let focus: FocusTracker
    private let clock: any TouchClock
    private let logger: Logger
    private let watch: (Int32, @escaping (EventLoop.Event) -> Void) -> Void
    private let unwatch: (Int32) -> Void
    /// The event connection, and the one-off request connection (Hyprland's initial query).
    private var events: Int32 = -1
    private var request: Int32 = -1
    private var requestReply: [UInt8] = []
    private var swayDecoder = SwayIPC.Decoder()
    private var lines = LineFramer(maximumBytes: 64 << 10)
    /// When to try connecting again (nil: connected, or not started).
    private(set) var retryAt: Instant?
    private var retryDelay = CompositorFocus.firstRetry
    private var warned = false

    init(_ compositor: Compositor, focus: FocusTracker, clock: any TouchClock, logger: Logger,
         watch: @escaping (Int32, @escaping (EventLoop.Event) -> Void) -> Void, unwatch: @escaping (Int32) -> Void) {
        self.compositor = compositor
        self.focus = focus
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
                send(SwayIPC.message(type: SwayIPC.subscribe, payload: #"["window","workspace"]"#), on: fd)
                send(SwayIPC.message(type: SwayIPC.getTree, payload: ""), on: fd)
                adopt(fd)
            case .hyprland(let directory):
                let fd = try UnixSocket.connect(to: "\(directory)/.socket2.sock")
                lines = LineFramer(maximumBytes: 64 << 10)
                adopt(fd)
                // The focus now: asked once on the request socket, answered as it closes.
                if let query = try? UnixSocket.connect(to: "\(directory)/.socket.sock") {
                    send(Array("j/activewindow".utf8), on: query)
                    UnixSocket.setNonBlocking(query)
                    request = query
                    requestReply = []
                    watch(query) { [weak self] _ in self?.requestEvent() }
                }
            }
            logger.info("following the compositor's focus", metadata: ["compositor": "\(compositor.name)"])
            retryDelay = Self.firstRetry
            warned = false
        } catch {
            if !warned {
                logger.warning("cannot reach the compositor for when: {app: …}; trying again",
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
        closeRequest()
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
                if let app = SwayIPC.focus(type: m.type, payload: m.payload) { focus.report(app, from: compositor.name) }
            }
        case .hyprland:
            for line in lines.feed(bytes) {
                guard case .line(let text) = line else { continue }
                if let app = HyprlandIPC.focus(line: String(decoding: text, as: UTF8.self)) { focus.report(app, from: compositor.name) }
            }
        }
    }

    private func requestEvent() {
        guard request >= 0 else { return }
        let (bytes, closed) = drain(request)
        requestReply += bytes
        if requestReply.count > 1 << 20 {
            closeRequest()
        } else if closed {
            if let app = HyprlandIPC.focus(activeWindowReply: requestReply) { focus.report(app, from: compositor.name) }
            closeRequest()
        }
    }

    private func closeRequest() {
        guard request >= 0 else { return }
        unwatch(request)
        UnixSocket.close(request)
        request = -1
        requestReply = []
    }

    /// The connection broke: the focus is no longer known; try again later.
    private func lost(_ why: String) {
        logger.warning("lost the compositor's focus; trying again", metadata: ["compositor": "\(compositor.name)", "reason": "\(why)"])
        close()
        focus.forget(compositor.name)
        warned = true
        scheduleRetry()
    }

    /// At every turn of the loop: makes a reconnection that is due.
    func tend() {
        if let at = retryAt, at <= clock.now { connect() }
    }
}
