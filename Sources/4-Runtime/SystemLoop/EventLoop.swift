#if canImport(Glibc)
import Glibc
#endif
import CLinux
import TouchEvents

/// One epoll loop for everything the service waits on: device and socket descriptors, one
/// timer armed at an absolute `CLOCK_MONOTONIC` deadline (the same clock the kernel stamps
/// device events with), and signals read through a signalfd. With no deadline the loop
/// sleeps until something happens: no periodic wakeups. Another thread may wake it
/// (``wakeUp()``): the only thing about it that is safe to call from elsewhere.
public final class EventLoop {
    public enum Event: Equatable {
        case readable(Int32)
        case writable(Int32)
        /// The other end went away (or an error on the descriptor).
        case hangup(Int32)
        /// The deadline passed.
        case timer
        case signal(Signal)
        /// Another thread called ``EventLoop/wakeUp()``.
        case wakeUp
    }

    private let epoll: Int32
    private let timer: Int32
    private let wake: Int32
    private var signals: Int32 = -1
    /// The deadline the timer is armed for (nil: disarmed), to skip re-arming it unchanged.
    private var armed: Instant?
    /// What `epoll_wait` fills, allocated once: a wakeup allocates nothing.
    private let ready = UnsafeMutablePointer<epoll_event>.allocate(capacity: EventLoop.batch)
    /// Descriptors reported per `epoll_wait` at most (more wait for the next call).
    static let batch = 64

    public init() throws(SystemError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SystemError(path: "epoll", message: String(cString: strerror(errno)), code: errno) }
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timer >= 0 else { throw SystemError(path: "timerfd", message: String(cString: strerror(errno)), code: errno) }
        wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wake >= 0 else { throw SystemError(path: "eventfd", message: String(cString: strerror(errno)), code: errno) }
        add(timer, EPOLLIN.rawValue)
        add(wake, EPOLLIN.rawValue)
    }

    deinit {
        close(epoll)
        close(timer)
        close(wake)
        if signals >= 0 { close(signals) }
        ready.deallocate()
    }

    /// Waits for `fd` to become readable (and writable, if asked).
    public func watch(_ fd: Int32, writable: Bool = false) {
        if !modify(fd, mask(writable)) { add(fd, mask(writable)) }
    }

    /// Stops waiting for `fd` (before closing it).
    public func unwatch(_ fd: Int32) {
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
    }

    private func mask(_ writable: Bool) -> UInt32 {
        EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (writable ? EPOLLOUT.rawValue : 0)
    }

    private func add(_ fd: Int32, _ events: UInt32) {
        var ev = epoll_event(events: events, data: epoll_data_t(fd: fd))
        _ = epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &ev)
    }

    private func modify(_ fd: Int32, _ events: UInt32) -> Bool {
        var ev = epoll_event(events: events, data: epoll_data_t(fd: fd))
        return epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &ev) == 0
    }

    /// Arms the timer at an absolute monotonic time, or disarms it.
    public func setDeadline(_ deadline: Instant?) {
        guard deadline != armed else { return }
        armed = deadline
        var spec = itimerspec()
        if let deadline {
            let t = max(deadline, Instant(microseconds: 1)).secondsAndMicroseconds  // 0 would disarm
            spec.it_value = timespec(tv_sec: Int(t.seconds), tv_nsec: Int(t.microseconds) * 1000)
        }
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Delivers `signals` as `.signal` events instead of their default actions.
    public func handleSignals(_ signals: [Signal]) throws(SystemError) {
        var set = sigset_t()
        let numbers = signals.map(\.number)
        _ = numbers.withUnsafeBufferPointer { gestured_block_signals(&set, $0.baseAddress, Int32($0.count)) }
        let fd = signalfd(self.signals, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError(path: "signalfd", message: String(cString: strerror(errno)), code: errno) }
        if self.signals < 0 { add(fd, EPOLLIN.rawValue) }
        self.signals = fd
    }

    /// Makes the thread in ``wait(timeout:)`` return with `.wakeUp` (at once if it is not
    /// waiting yet). Safe from any thread.
    public func wakeUp() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    /// Waits up to `timeout` milliseconds (-1: until something happens) and returns what did.
    public func wait(timeout: Int32) -> [Event] {
        var events: [Event] = []
        wait(timeout: timeout) { events.append($0) }
        return events
    }

    /// Waits up to `timeout` milliseconds (-1: until something happens) and passes each thing
    /// that did to `body`, in the kernel's order; returns how many descriptors were ready (0:
    /// the time ran out). Nothing is allocated: what a device's every frame goes through.
    @discardableResult
    public func wait(timeout: Int32, _ body: (Event) -> Void) -> Int {
        let n = Int(epoll_wait(epoll, ready, Int32(Self.batch), timeout))
        guard n > 0 else { return 0 }
        for i in 0..<n {
            let e = ready[i]
            let fd = e.data.fd
            if fd == timer {
                var expirations: UInt64 = 0
                _ = read(timer, &expirations, 8)
                armed = nil  // it fired: it is disarmed now
                body(.timer)
            } else if fd == wake {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
                body(.wakeUp)
            } else if fd == signals {
                var info = signalfd_siginfo()
                while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                    body(.signal(Signal(number: Int32(info.ssi_signo))))
                }
            } else {
                if e.events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 { body(.readable(fd)) }
                if e.events & EPOLLOUT.rawValue != 0 { body(.writable(fd)) }
                if e.events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { body(.hangup(fd)) }
            }
        }
        return n
    }
}
