#if canImport(Glibc)
import Glibc
#endif
import SystemLoop
import TouchEvents
import TouchInput

/// A recording played as a live device: its events written at their own pace, again and again
/// (a pause between plays), into a socket the runtime reads as it reads an evdev node. What
/// `gestured run --play` reads instead of the seat's devices, to try a configuration or a socket
/// client without the hardware; an app tries its closures the same way
/// (``PlayedDeviceMonitor``).
///
/// Each event is stamped with the instant it is written for (`CLOCK_MONOTONIC`, as the kernel
/// stamps a live device's), so deadlines and velocities are the recording's. A play that ends
/// with fingers down lifts them before the next begins. The writer is a thread of its own; it
/// ends when the device goes (its reader closed) or after the last play (`plays`).
public final class PlayedDevice: TouchDevice {
    public let node: String
    public let description: DeviceDescription
    public let fileDescriptor: Int32
    public var resynchronizesAfterDrops: Bool { false }
    private var stream: KernelEventStream

    /// Starts playing `events` (a recording's, in its order) as the device `description`.
    /// - Parameters:
    ///   - node: The device's identity for the runtime (`played:` and the file's name).
    ///   - description: The device as the recording describes it.
    ///   - events: The recording's events, in its order, with its time stamps.
    ///   - pause: How long between the end of one play and the start of the next.
    ///   - plays: How many times to play it (nil: until the device goes).
    public init(node: String, description: DeviceDescription, events: [InputEvent], pause: Duration = .seconds(1),
                plays: Int? = nil) throws(InputError) {
        var fds: [Int32] = [0, 0]
        // A socket pair, not a pipe: the writer's `send` gets EPIPE, not SIGPIPE, once the
        // reader has gone.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
            throw InputError(path: node, message: "socketpair: \(String(cString: strerror(errno)))")
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        self.node = node
        self.description = description
        fileDescriptor = fds[0]
        stream = KernelEventStream(fileDescriptor: fds[0], node: node)
        let writer = PlayedEventWriter(descriptor: fds[1], events: events, pause: pause, plays: plays)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(writer).toOpaque()
        // The process's signals are the service's loop's (SIGHUP reloads): the thread starts
        // with every signal blocked (it inherits this thread's mask), or, made before the
        // service blocked them, it would take them and die of them.
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &previous)
        let created = pthread_create(&thread, nil, { context in
            let writer = Unmanaged<PlayedEventWriter>.fromOpaque(context!).takeRetainedValue()
            writer.run()
            return nil
        }, context)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard created == 0 else {
            Unmanaged<PlayedEventWriter>.fromOpaque(context).release()
            close(fds[0])
            close(fds[1])
            throw InputError(path: node, message: "cannot start the player's thread")
        }
        pthread_detach(thread)
    }

    deinit {
        close(fileDescriptor)
    }

    public func readPending(_ body: (InputEvent) -> Void) throws(InputError) -> Bool {
        try stream.readPending(body)
    }
}

/// The played device's writer, on its own thread: it owns the socket's writing end.
final class PlayedEventWriter: Sendable {
    let descriptor: Int32
    let events: [InputEvent]
    let pause: Duration
    let plays: Int?

    init(descriptor: Int32, events: [InputEvent], pause: Duration, plays: Int?) {
        self.descriptor = descriptor
        self.events = events
        self.pause = pause
        self.plays = plays
    }

    func run() {
        defer { close(descriptor) }
        var played = 0
        while plays.map({ played < $0 }) ?? true {
            guard playOnce() else { return }
            played += 1
            MonotonicClock.sleep(until: MonotonicClock.now + pause)
        }
    }

    /// One play: each frame (up to its `SYN_REPORT`) written when its time comes, restamped;
    /// then a lift of every finger and button still down. False once the reader has gone.
    private func playOnce() -> Bool {
        guard let first = events.first?.time else { return true }
        let start = MonotonicClock.now
        var frame: [InputEvent] = []
        var slot: Int32 = 0
        var down: Set<Int32> = []
        var keysDown: Set<UInt16> = []
        var last = start
        for event in events {
            let at = start + (event.time - first)
            var e = event
            e.time = at
            frame.append(e)
            if e.type == EventType.abs, e.code == AbsCode.mtSlot { slot = e.value }
            if e.type == EventType.abs, e.code == AbsCode.mtTrackingID {
                if e.value < 0 { down.remove(slot) } else { down.insert(slot) }
            }
            if e.type == EventType.key {
                if e.value == 0 { keysDown.remove(e.code) } else { keysDown.insert(e.code) }
            }
            if e.type == EventType.syn, e.code == 0 {
                MonotonicClock.sleep(until: at)
                guard send(frame) else { return false }
                frame.removeAll(keepingCapacity: true)
                last = at
            }
        }
        if !down.isEmpty || !keysDown.isEmpty {
            let at = max(last, MonotonicClock.now)
            var lift: [InputEvent] = []
            for s in down.sorted() {
                lift.append(InputEvent(time: at, type: EventType.abs, code: AbsCode.mtSlot, value: s))
                lift.append(InputEvent(time: at, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1))
            }
            for key in keysDown.sorted() { lift.append(InputEvent(time: at, type: EventType.key, code: key, value: 0)) }
            lift.append(InputEvent(time: at, type: EventType.syn, code: 0, value: 0))
            guard send(lift) else { return false }
        }
        return true
    }

    /// Writes `events` whole; false once the reader has gone.
    private func send(_ events: [InputEvent]) -> Bool {
        let bytes = KernelInputEvents.encode(events)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}

/// A device monitor with one device, present from the start: a ``PlayedDevice`` for
/// ``GestureRuntime``'s `monitor:` (no seat, no hotplug).
public final class PlayedDeviceMonitor: DeviceMonitor {
    private var device: (any TouchDevice)?
    /// Never signalled: never readable.
    private let never: EventCounter

    public init(_ device: any TouchDevice) throws(SystemError) {
        never = try EventCounter()
        self.device = device
    }

    /// Never readable: the device comes with the first ``changes()``, and no other.
    public var fileDescriptor: Int32 { never.fileDescriptor }

    public func changes() -> [DeviceChange] {
        defer { device = nil }
        return device.map { [.added($0)] } ?? []
    }
}
