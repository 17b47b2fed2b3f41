#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import TouchEvents

/// A live evdev device: its description (through libevdev), and its events in the same form
/// recordings have, for the same ``TouchDecoder``.
///
/// Events carry `CLOCK_MONOTONIC` times (the kernel is asked for them), so event times and
/// the scheduler's deadlines share one clock. Each wakeup's events are read in batches with
/// `read(2)`, stopping at a short read — no libevdev call per event, no read that only says
/// `EAGAIN`. The device's state is mirrored event by event (``EvdevStateMirror``: what
/// libevdev would keep, for a mask test and a store an event) so that after `SYN_DROPPED`
/// libevdev's sync mode can bring the slots up to date: the mirror is handed to libevdev, the
/// events after the drop in the batch are stale, and libevdev's sync deltas (from the kernel's
/// state against the mirror) are passed on instead, stamped with the drop's time. Decode them
/// with ``TouchDecoder/DropPolicy/resynchronize``.
public final class EvdevDevice {
    public let path: String
    public let description: DeviceDescription
    /// The device's file descriptor (non-blocking), for the event loop to poll.
    public let fileDescriptor: Int32
    let handle: OpaquePointer
    /// The device's state as of the last event passed on (after a sync, the kernel's):
    /// libevdev's own mirror is brought up to date from it only for a sync, and its values are
    /// stale at any other time.
    private let mirror: EvdevStateMirror
    var stateMirror: EvdevStateMirror { mirror }
    /// What each `read(2)` fills, allocated once (when the device is open): reading allocates
    /// nothing.
    private let buffer: UnsafeMutablePointer<input_event>
    /// Events read per `read(2)` at most: a frame of ten fingers is about 60 (a longer burst
    /// takes another read).
    static let batch = 128
    /// Times libevdev brought the device's state up to date after the kernel dropped events.
    public private(set) var resynchronizations = 0

    /// Opens `path` read-only and non-blocking. `udevProperties` (the device's, by name) may
    /// carry udev's hwdb corrections of its axes (`EVDEV_ABS_XX`): they fill in a resolution the
    /// kernel does not report (``DeviceDescription/applyingUdevAbsOverrides(_:)``).
    /// `keptProperties` (`NAME=value`, as `libinput record` keeps them: the calibration matrix
    /// among them) become the description's ``DeviceDescription/udevProperties``.
    public init(path: String, udevProperties: [String: String] = [:], keptProperties: [String] = []) throws(InputError) {
        let (fd, dev) = try Self.openLibevdev(path) { code in
            if code == EACCES || code == EPERM {
                return " (install udev/70-gestured.rules and run gestured in the gestured group; see docs/service.md)"
            }
            return code == ENOENT ? " (`gestured devices` lists the touch devices)" : ""
        }
        _ = gestured_set_monotonic_clock(fd)
        self.path = path
        fileDescriptor = fd
        handle = dev
        mirror = EvdevStateMirror(of: dev)
        var description = DeviceDescription(libevdev: dev).applyingUdevAbsOverrides(udevProperties)
        description.udevProperties = keptProperties
        self.description = description
        buffer = .allocate(capacity: Self.batch)
    }

    /// `path` opened read-only and non-blocking, and its libevdev handle; the caller frees both.
    /// An `open` failure says `cannot open: REASON`, then what `hint` adds for its errno.
    static func openLibevdev(_ path: String, hint: (Int32) -> String = { _ in "" }) throws(InputError) -> (Int32, OpaquePointer) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw InputError(path: path, message: "cannot open: \(String(cString: strerror(code)))" + hint(code))
        }
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else {
            close(fd)
            throw InputError(path: path, message: "not an evdev device: \(String(cString: strerror(-rc)))")
        }
        return (fd, dev)
    }

    deinit {
        libevdev_free(handle)
        close(fileDescriptor)
        buffer.deallocate()
    }

    /// Reads every pending event and passes it to `body`. Returns false when the device is
    /// gone (`ENODEV`): the caller cancels its contacts and closes it.
    public func readPending(_ body: (InputEvent) -> Void) throws(InputError) -> Bool {
        let size = MemoryLayout<input_event>.stride
        while true {
            let n = read(fileDescriptor, buffer, size * Self.batch)
            if n < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return true
                case EINTR: continue
                case ENODEV: return false
                case let code: throw InputError(path: path, message: "read failed: \(String(cString: strerror(code)))")
                }
            }
            let count = n / size
            for i in 0..<count {
                if buffer[i].type == UInt16(EV_SYN) && buffer[i].code == UInt16(SYN_DROPPED) {
                    return try resynchronize(after: &buffer[i], body)
                }
                mirror.apply(type: buffer[i].type, code: buffer[i].code, value: buffer[i].value)
                body(InputEvent(kernel: &buffer[i]))
            }
            // A short read: the kernel had no more (the next ones wake the loop again).
            if count < Self.batch { return true }
        }
    }

    /// The kernel dropped events (its buffer for this reader was full): what it still holds,
    /// and the rest of the batch, are stale. libevdev is given the state as of the last event
    /// before the drop, reads the device's and gives the differences as sync events, which pass
    /// on stamped with the drop's time. Its mirror is then the kernel's state, and the
    /// mirror here takes it over.
    private func resynchronize(after dropped: inout input_event, _ body: (InputEvent) -> Void) throws(InputError) -> Bool {
        let drop = InputEvent(kernel: &dropped)
        body(drop)
        resynchronizations += 1
        mirror.store(into: handle)
        defer { mirror.load(from: handle) }
        var ev = input_event()
        var rc = libevdev_next_event(handle, LIBEVDEV_READ_FLAG_FORCE_SYNC.rawValue, &ev)
        // With FORCE_SYNC libevdev only starts the sync and leaves `ev` unfilled (libevdev.h):
        // the sync's events come with SYNC. (Passed on, it was an empty SYN_REPORT, a frame.)
        if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
            rc = libevdev_next_event(handle, LIBEVDEV_READ_FLAG_SYNC.rawValue, &ev)
        }
        while true {
            if rc == -ENODEV { return false }
            if rc == -EAGAIN { return true }  // in step again
            if rc < 0 { throw InputError(path: path, message: "resynchronizing failed: \(String(cString: strerror(-rc)))") }
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue), !(ev.type == UInt16(EV_SYN) && ev.code == UInt16(SYN_DROPPED)) {
                body(InputEvent(time: drop.time, type: ev.type, code: ev.code, value: ev.value))
            }
            rc = libevdev_next_event(handle, LIBEVDEV_READ_FLAG_SYNC.rawValue, &ev)
        }
    }
}
