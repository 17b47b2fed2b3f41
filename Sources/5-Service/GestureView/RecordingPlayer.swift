import DeviceQuirks
import GestureConfiguration
import GestureReplay
import GestureRuntime
import Gestures
import SystemLoop
import TouchEvents
import TouchRecordings

/// `gestured view RECORDING`: plays a recording into a ``LiveView`` at its own pace (or
/// ``speed`` times faster), or paused and stepped a frame at a time — the same decoder and
/// pipeline as `replay`, driven by the loop's clock.
///
/// Play starts when the first viewer connects (nobody misses the start). The viewer's commands:
/// `play`, `pause`, `step` (to the next frame's end, firing the deadlines that come before it)
/// and `restart`.
public final class RecordingPlayer {
    public struct Source: Sendable {
        public var path: String
        public var descPath: String?
        public var deviceIndex: Int?
        public var size: SurfaceSize?
        public var configuration: Configuration?
        /// libinput's quirks for the recorded device (nil: none), matched with `dmi` or the
        /// recording's own DMI modalias.
        public var quirks: QuirksDatabase?
        public var dmi: String?

        public init(path: String, descPath: String? = nil, deviceIndex: Int? = nil, size: SurfaceSize? = nil,
                    configuration: Configuration? = nil) {
            self.path = path
            self.descPath = descPath
            self.deviceIndex = deviceIndex
            self.size = size
            self.configuration = configuration
        }
    }

    private let source: Source
    private let view: LiveView
    private let loop: SharedEventLoop
    private let clock: any TouchClock
    /// Recording seconds per second of the clock.
    public let speed: Double
    private var session: DeviceSession
    private var events: [InputEvent]
    /// How many frames (`SYN_REPORT`s) the recording has.
    public let frameCount: Int
    /// The next event to play.
    private var next = 0
    /// Frames played.
    public private(set) var framesPlayed = 0
    public private(set) var isPaused: Bool
    public private(set) var hasEnded = false
    private var started = false
    /// While playing: the clock's time and the recording's time that match.
    private var anchor: (clock: Instant, recording: Instant)?

    /// Reads the recording (a bad one throws its `FILE:LINE` error now, before anything is
    /// served) and waits for a viewer.
    public init(source: Source, view: LiveView, loop: SharedEventLoop, clock: any TouchClock, speed: Double = 1,
                paused: Bool = false) throws(RecordingError) {
        self.source = source
        self.view = view
        self.loop = loop
        self.clock = clock
        self.speed = speed
        isPaused = paused
        // The whole recording decoded once: what cannot be decoded is reported as `replay` would.
        _ = try RecordingReplay.run(path: source.path, descPath: source.descPath, deviceIndex: source.deviceIndex,
                                    size: source.size, rules: source.configuration, quirks: source.quirks, dmi: source.dmi)
        let (_, device, session) = try Self.prepare(source)
        self.session = session
        events = device.events
        frameCount = events.reduce(0) { $0 + ($1.isReport ? 1 : 0) }
        attach(session)
        view.add(session)
        view.greeting = { [unowned self] in [state] }
        view.onCommand = { [unowned self] command in handle(command) }
        view.onViewerChange = { [unowned self] watching in
            if watching && !started {
                started = true
                if !isPaused { play() }
            }
        }
        loop.addTimer(owner: ObjectIdentifier(self), next: { [unowned self] in nextDeadline() },
                      fire: { [unowned self] now in fire(now) })
    }

    deinit { loop.removeWork(of: ObjectIdentifier(self)) }

    private static func prepare(_ s: Source) throws(RecordingError) -> (Recording, RecordedDevice, DeviceSession) {
        try RecordingReplay.prepare(path: s.path, descPath: s.descPath, deviceIndex: s.deviceIndex, size: s.size,
                                    rules: s.configuration, quirks: s.quirks, dmi: s.dmi)
    }

    private func attach(_ session: DeviceSession) {
        session.pipeline.observer = { [unowned self, unowned session] g in view.gesture(g, of: session) }
        session.pipeline.failureObserver = { [unowned self, unowned session] r, reason, time in
            view.failure(r, reason: reason, at: time, of: session)
        }
        session.afterFrame = { [unowned self, unowned session] frame in view.frame(frame, of: session) }
    }

    /// The play state, as the view's `state` message.
    private var state: String {
        ViewMessages.playState(paused: isPaused, frame: framesPlayed, frames: frameCount, ended: hasEnded)
    }

    func handle(_ command: String) {
        switch command {
        case "play": play()
        case "pause": pause()
        case "step": step()
        case "restart": restart()
        default: return
        }
    }

    /// Plays on from where it is, at ``speed``.
    public func play() {
        guard !hasEnded else { return view.send(state) }
        isPaused = false
        anchor = (clock.now, currentTime)
        view.send(state)
    }

    public func pause() {
        isPaused = true
        anchor = nil
        view.send(state)
    }

    /// Plays the next frame (paused).
    public func step() {
        isPaused = true
        anchor = nil
        guard !hasEnded else { return view.send(state) }
        while next < events.count {
            let event = events[next]
            process(event)
            if event.isReport { break }
        }
        if next >= events.count { end() }
        view.send(state)
    }

    /// From the start again, with a fresh session (the view is told the device anew).
    public func restart() {
        view.remove(session)
        view.clearHistory()
        session.pipeline.observer = nil
        session.pipeline.failureObserver = nil
        session.afterFrame = nil
        if let (_, device, fresh) = try? Self.prepare(source) {
            session = fresh
            events = device.events
        }
        attach(session)
        view.add(session)
        next = 0
        framesPlayed = 0
        hasEnded = false
        play()
    }

    /// The recording's time now: the last event played (the first event's before any).
    private var currentTime: Instant {
        next > 0 ? events[next - 1].time : events.first?.time ?? .zero
    }

    private func process(_ event: InputEvent) {
        next += 1
        do throws(DecodeError) {
            try session.process(event)
        } catch {
            // The recording decoded whole once; this cannot happen unless the file changed.
            session.recover(at: event.time)
        }
        if event.isReport { framesPlayed += 1 }
    }

    private func end() {
        session.finish()
        hasEnded = true
        isPaused = true
        anchor = nil
    }

    // MARK: - The clock

    /// The clock's time at recording time `t`.
    private func clockTime(_ t: Instant, _ anchor: (clock: Instant, recording: Instant)) -> Instant {
        anchor.clock + .microseconds(Int64((Double((t - anchor.recording).inMicroseconds) / speed).rounded(.up)))
    }

    private func nextDeadline() -> Instant? {
        guard let anchor, !isPaused, !hasEnded else { return nil }
        var t = next < events.count ? events[next].time : currentTime
        if let d = session.pipeline.nextDeadline, d < t { t = d }
        return clockTime(t, anchor)
    }

    private func fire(_ now: Instant) {
        guard let anchor, !isPaused, !hasEnded else { return }
        let recordingNow = anchor.recording + .microseconds(Int64(Double((now - anchor.clock).inMicroseconds) * speed))
        var played = false
        while next < events.count && events[next].time <= recordingNow {
            process(events[next])
            played = true
        }
        if let d = session.pipeline.nextDeadline, d <= recordingNow, next < events.count { session.pipeline.advance(to: recordingNow) }
        if next >= events.count {
            end()
            view.send(state)
        } else if played {
            // Each turn that played frames: the counter keeps up with the contacts.
            view.send(state)
        }
    }
}
