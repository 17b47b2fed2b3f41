import GestureProtocol
import GestureHTTP
import GestureRuntime
import Gestures
import Logging
import SystemLoop
import TouchEvents

/// The live view: a web page, served by the process itself, that draws what it sees — each
/// device's layout (regions, extended hit areas), its contacts with short trails (palms,
/// thumbs and hovers marked as left out), each gesture with its region, and why each
/// recognizer failed in the latest touch sequence (`replay --explain`'s text).
///
/// Raw touch positions are sensitive (a PIN typed on an on-screen keypad), so:
/// - it is off unless asked for (`gestured run --view ADDRESS`, `gestured view RECORDING`);
/// - it listens on loopback unless another address is given, and a non-loopback address is
///   refused without ``Options/allowRemote`` (`--view-allow-remote`);
/// - the page and its feed ask for a token, random per start, printed in the address to open;
/// - one viewer at a time: a second is told another is watching, and let go.
///
/// The owner feeds it: ``add(_:)`` and ``remove(_:)`` as devices come and go, ``frame(_:of:)``
/// after each frame, ``gesture(_:of:)`` and ``failure(_:reason:at:of:)``. With nobody watching
/// these return at once.
public final class LiveView {
    public struct Options: Sendable {
        public var address: ListenAddress
        /// A non-loopback address is refused without this.
        public var allowRemote = false
        /// The token the page asks for (nil: 128 random bits, hex). For tests.
        public var token: String?

        public init(address: ListenAddress, allowRemote: Bool = false, token: String? = nil) {
            self.address = address
            self.allowRemote = allowRemote
            self.token = token
        }
    }

    public enum SetupError: Error, Sendable, CustomStringConvertible {
        case remoteNotAllowed(ListenAddress)
        case listen(SystemError)

        public var description: String {
            switch self {
            case .remoteNotAllowed(let a):
                return "\(a): the view shows raw touch positions (a PIN typed on screen among them) and listens on loopback only; "
                    + "to serve it at \(a.host), add --view-allow-remote (and prefer an SSH tunnel: ssh -L PORT:127.0.0.1:PORT)"
            case .listen(let e):
                return "cannot serve the view at \(e.path): \(e.message)"
            }
        }
    }

    public let token: String
    private let server: WebServer
    private let logger: Logger
    private let source: String
    private let title: String
    /// The viewer, while one is connected.
    public private(set) var viewer: WebSocketPeer?
    /// The devices shown, in the order they came, each with its key in the messages.
    private var sessions: [(key: String, session: DeviceSession)] = []
    /// Messages the owner adds to a viewer's first ones (`gestured view`'s play state).
    public var greeting: (() -> [String])?
    /// Devices whose layout changed in this turn (``layoutChanged(_:)``).
    private var changed: [DeviceSession] = []
    private let loop: SharedEventLoop
    /// A command from the viewer (`play`, `pause`, `step`, `restart`; the touch bench's
    /// `touch …`, `save`, `clear`), whole.
    public var onCommand: ((String) -> Void)?
    /// The commands the owner takes, by their first word; others are answered with an error.
    public var commands = ["play", "pause", "step", "restart"]
    /// A viewer connected (true) or left (false).
    public var onViewerChange: ((Bool) -> Void)?
    /// What a viewer that connects late is shown first (``History``).
    private var history = History()

    /// What a viewer that connects late gets, after the devices: the gesture events so far (the
    /// latest ``History/gestureLimit``), the failures of the latest touches, and each device's
    /// last frame. Kept whether or not anyone watches, as values: written as messages only when
    /// a viewer connects (a pan's every frame is a gesture event).
    struct History {
        /// The most gesture events kept: a page lists no more than a few screens of them.
        static let gestureLimit = 2000
        /// The most failures kept for the latest touches (a layout's every recognizer, a few times).
        static let failureLimit = 200
        var gestures: [(key: String, gesture: Gesture)] = []
        /// The latest touches' failures, each as its message, with its time.
        var failures: [(time: Instant, message: String)] = []
        /// Each device's last frame, by key, and whether contacts were down after it.
        var frames: [(key: String, frame: TouchFrame, down: Bool)] = []

        mutating func gesture(_ g: Gesture, key: String) {
            // Dropped a quarter at a time: a removal moves the rest once in a while, not each time.
            if gestures.count >= Self.gestureLimit { gestures.removeFirst(Self.gestureLimit / 4) }
            gestures.append((key, g))
        }

        mutating func failure(_ message: String, at time: Instant) {
            if failures.count < Self.failureLimit { failures.append((time, message)) }
        }

        /// A frame of `key`: touches landing on a device with none down are new touches, whose
        /// failures replace the last ones (as the page shows them) — but for those of this very
        /// frame, which the pipeline reported before the frame came here.
        mutating func frame(_ frame: TouchFrame, key: String) {
            let i = frames.firstIndex { $0.key == key }
            let wasDown = i.map { frames[$0].down } ?? false
            if !wasDown, frame.contacts.contains(where: { $0.phase == .began }) { failures.removeAll { $0.time < frame.time } }
            let down = frame.contacts.contains { !$0.phase.isFinal }
            if let i { frames[i] = (key, frame, down) } else { frames.append((key, frame, down)) }
        }

        mutating func forget(_ key: String) {
            frames.removeAll { $0.key == key }
            gestures.removeAll { $0.key == key }
        }
    }

    /// Forgets what a late viewer would be shown (`gestured view`'s restart).
    public func clearHistory() {
        history = History()
    }

    /// Serves the view at `options.address` on `loop`; `source` is `live` or `recording`.
    public init(options: Options, loop: SharedEventLoop, clock: any TouchClock, logger: Logger,
                source: String, title: String) throws(SetupError) {
        guard options.address.isLoopback || options.allowRemote else { throw .remoteNotAllowed(options.address) }
        token = options.token ?? TCPSocket.randomBytes(16).map { b in
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: [hex[Int(b >> 4)], hex[Int(b & 15)]], as: UTF8.self)
        }.joined()
        self.logger = logger
        self.loop = loop
        self.source = source
        self.title = title
        var route: ((HTTPRequest) -> WebServer.Route)?
        do throws(SystemError) {
            server = try WebServer(address: options.address, loop: loop, clock: clock, logger: logger) { request in route!(request) }
        } catch {
            throw .listen(error)
        }
        route = { [unowned self] request in self.route(request) }
        loop.endOfTurn(owner: ObjectIdentifier(self)) { [unowned self] in drawChanged() }
    }

    deinit {
        // The viewer's handlers hold the view: closing the server would call them as it goes.
        viewer?.onClose = nil
        viewer?.onText = nil
        server.close()
        loop.removeWork(of: ObjectIdentifier(self))
    }

    /// Where it listens (with the port chosen, for port 0).
    public var address: ListenAddress { server.address }

    /// The address to open, with the token.
    public var url: String { "http://\(server.address)/?token=\(token)" }

    /// Stops serving; a viewer is told the service is stopping.
    public func close() { server.close() }

    // MARK: - What the owner feeds it

    /// A device to show.
    public func add(_ session: DeviceSession) {
        let key = Self.key(of: session, among: sessions.map(\.key))
        sessions.append((key, session))
        viewer?.send(text: ViewMessages.device(session, key: key))
    }

    /// A device gone.
    public func remove(_ session: DeviceSession) {
        guard let i = sessions.firstIndex(where: { $0.session === session }) else { return }
        let key = sessions.remove(at: i).key
        changed.removeAll { $0 === session }
        history.forget(key)
        viewer?.send(text: ViewMessages.removed(key: key))
    }

    /// These layouts changed (a client's regions): their devices are drawn again at the end of
    /// the loop's turn (once, however many changes the turn made).
    public func layoutChanged(_ layouts: [Layout]) {
        guard viewer != nil else { return }
        for entry in sessions where layouts.contains(where: { $0 === entry.session.layout }) {
            if !changed.contains(where: { $0 === entry.session }) { changed.append(entry.session) }
        }
    }

    private func drawChanged() {
        guard !changed.isEmpty else { return }
        for session in changed {
            if let viewer, let key = key(of: session) { viewer.send(text: ViewMessages.device(session, key: key)) }
        }
        changed.removeAll()
    }

    /// After a frame of `session` was handled.
    public func frame(_ frame: TouchFrame, of session: DeviceSession) {
        guard let key = key(of: session) else { return }
        history.frame(frame, key: key)
        viewer?.send(text: ViewMessages.frame(frame, session: session, key: key, origin: session.origin ?? frame.time))
    }

    /// A gesture event of `session`.
    public func gesture(_ g: Gesture, of session: DeviceSession) {
        guard let key = key(of: session) else { return }
        history.gesture(g, key: key)
        viewer?.send(text: ViewMessages.gesture(g, session: session, key: key))
    }

    /// A recognizer of `session` failed.
    public func failure(_ recognizer: GestureRecognizer, reason: FailureReason, at time: Instant, of session: DeviceSession) {
        guard let key = key(of: session) else { return }
        let message = ViewMessages.failure(recognizer: recognizer.name, kind: recognizer.kind, region: recognizer.region?.id ?? "",
                                           reason: reason, time: time, session: session, key: key)
        history.failure(message, at: time)
        viewer?.send(text: message)
    }

    /// Any message (`gestured view`'s play state).
    public func send(_ message: String) {
        viewer?.send(text: message)
    }

    /// Whether somebody is watching.
    public var isWatched: Bool { viewer != nil }

    private func key(of session: DeviceSession) -> String? {
        // A handful of devices: a walk is cheaper than a dictionary's hashing.
        for entry in sessions where entry.session === session { return entry.key }
        return nil
    }

    /// The node (`/dev/input/event5`), else the name; made unique.
    static func key(of session: DeviceSession, among taken: [String]) -> String {
        let base = session.node ?? session.description.name
        var key = base
        var n = 2
        while taken.contains(key) {
            key = "\(base) (\(n))"
            n += 1
        }
        return key
    }

    // MARK: - Serving

    private func route(_ request: HTTPRequest) -> WebServer.Route {
        let headers = [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")]
        switch request.path {
        case "/view.js":
            return .respond(HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Array(ViewPage.script.utf8), headers: headers))
        case "/view.css":
            return .respond(HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", body: Array(ViewPage.style.utf8), headers: headers))
        case "/", "/ws":
            guard let given = request.query["token"], Self.same(given, token) else {
                logger.warning("view: a request with a wrong or missing token refused", metadata: ["path": "\(request.path)"])
                return .respond(.text(403, "wrong or missing token: open the address gestured printed when it started (http://HOST:PORT/?token=…)"))
            }
            if request.path == "/" {
                let page = ViewPage.html(title: title)
                return .respond(HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(page.utf8),
                                             headers: headers + [("Content-Security-Policy", ViewPage.contentSecurityPolicy)]))
            }
            return .upgrade { [unowned self] peer in connected(peer) }
        default:
            return .respond(.text(404, "no such page: the view is at /?token=…"))
        }
    }

    private func connected(_ peer: WebSocketPeer) {
        guard viewer == nil else {
            logger.notice("view: a second viewer refused (one at a time)")
            peer.send(text: "{\"type\": \"refused\", \"reason\": \"another viewer is connected: the view serves one at a time\"}")
            peer.close(code: 1008, reason: "another viewer is connected")
            return
        }
        viewer = peer
        logger.info("view: a viewer connected")
        peer.onClose = { [unowned self, unowned peer] in
            guard viewer === peer else { return }
            viewer = nil
            logger.info("view: the viewer left")
            onViewerChange?(false)
        }
        peer.onText = { [unowned self, unowned peer] text in
            let command = text.trimmingCharacters()
            let word = command.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            guard commands.contains(word) else {
                let known = commands.joined(separator: ", ")
                peer.send(text: "{\"type\": \"error\", \"reason\": \(jsonString("unknown command: \(command.prefix(40)) (\(known))"))}")
                return
            }
            onCommand?(command)
        }
        peer.send(text: ViewMessages.hello(source: source, title: title, paused: false))
        for (key, session) in sessions { peer.send(text: ViewMessages.device(session, key: key)) }
        // A viewer connecting late: the gestures so far, the latest touches, where they are.
        for (key, g) in history.gestures {
            guard let session = sessions.first(where: { $0.key == key })?.session else { continue }
            peer.send(text: ViewMessages.gesture(g, session: session, key: key))
        }
        for (key, frame, _) in history.frames {
            guard let session = sessions.first(where: { $0.key == key })?.session else { continue }
            peer.send(text: ViewMessages.frame(frame, session: session, key: key, origin: session.origin ?? frame.time))
        }
        for (_, message) in history.failures { peer.send(text: message) }
        for message in greeting?() ?? [] { peer.send(text: message) }
        onViewerChange?(true)
    }

    /// Compares in time independent of where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var d: UInt8 = 0
        for i in 0..<x.count { d |= x[i] ^ y[i] }
        return d == 0
    }
}

extension String {
    func trimmingCharacters() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
