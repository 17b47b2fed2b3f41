#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import TouchEvents

/// A live evdev device read through libevdev: its description, and its events in the
/// same form recordings have, for the same ``TouchDecoder``.
///
/// Events carry `CLOCK_MONOTONIC` times (the kernel is asked for them), so event times and
/// the scheduler's deadlines share one clock. After `SYN_DROPPED` the reader switches to
/// libevdev's sync mode and passes on the sync events that bring the slots up to date:
/// decode them with ``TouchDecoder/DropPolicy/resynchronize``.
public final class EvdevDevice {
    public let path: String
    public let description: DeviceDescription
    /// The device's file descriptor (non-blocking), for the event loop to poll.
    public let fileDescriptor: Int32
    private let handle: OpaquePointer

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
        var description = DeviceDescription(libevdev: dev).applyingUdevAbsOverrides(udevProperties)
        description.udevProperties = keptProperties
        self.description = description
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
    }

    /// Reads every pending event and passes it to `body`. Returns false when the device is
    /// gone (`ENODEV`): the caller cancels its contacts and closes it.
    public func readPending(_ body: (InputEvent) -> Void) throws(InputError) -> Bool {
        var ev = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(handle, flags, &ev)
            if rc == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return true
            }
            if rc == -ENODEV { return false }
            if rc < 0 {
                throw InputError(path: path, message: "read failed: \(String(cString: strerror(-rc)))")
            }
            body(InputEvent(kernel: &ev))
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
            }
        }
    }
}
