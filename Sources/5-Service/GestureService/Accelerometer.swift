#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Logging
import SystemBus

/// The accelerometer, as iio-sensor-proxy tells it on the system bus (`net.hadess.SensorProxy`
/// at `/net/hadess/SensorProxy`), for `rotation: auto` where no compositor says how the
/// screen is turned: it claims the accelerometer (`ClaimAccelerometer`), reads
/// `AccelerometerOrientation`, then follows its `PropertiesChanged` signals, and claims it
/// again when iio-sensor-proxy comes back (`NameOwnerChanged`).
///
/// An orientation becomes the transform that keeps the picture upright, as GNOME's mutter
/// turns its screens (`meta_orientation_to_transform`): `normal` none, `left-up` 90,
/// `bottom-up` 180, `right-up` 270; `undefined` (flat on a table) changes nothing.
///
/// While the `lock` file exists (`service: rotation-lock`), a new orientation is heard and
/// not followed; the next one after the file goes is.
final class Accelerometer {
    static let name = "net.hadess.SensorProxy"
    static let path = "/net/hadess/SensorProxy"
    static let interface = "net.hadess.SensorProxy"

    private let bus: SystemBus
    private let screens: ScreenTracker
    /// The lock file (`service: rotation-lock`); a reload may change it.
    var lock: String?
    private let logger: Logger
    /// What was said about a missing accelerometer, so that it is said once.
    private var saidMissing = false
    private var saidLockUnreadable = false

    init(bus: SystemBus, screens: ScreenTracker, lock: String?, logger: Logger) {
        self.bus = bus
        self.screens = screens
        self.lock = lock
        self.logger = logger
    }

    /// The transform an orientation asks for; nil for `undefined` or anything else.
    static func transform(orientation: String) -> OutputTransform? {
        switch orientation {
        case "normal": .normal
        case "left-up": .rotated90
        case "bottom-up": .rotated180
        case "right-up": .rotated270
        default: nil
        }
    }

    /// Listens, then claims the accelerometer.
    func start() {
        do throws(SystemBusError) {
            try bus.match("type='signal',sender='\(Self.name)',path='\(Self.path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'") {
                [weak self] values in self?.propertiesChanged(values)
            }
            try bus.match("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'") {
                [weak self] values in self?.ownerChanged(values)
            }
        } catch {
            missing("cannot listen on the system bus: \(error)")
            return
        }
        claim()
    }

    private func claim() {
        do throws(SystemBusError) {
            try bus.call(destination: Self.name, path: Self.path, interface: Self.interface, member: "ClaimAccelerometer") { [weak self] result in
                guard let self else { return }
                switch result {
                case .success: readOrientation()
                case .failure(let error): missing("iio-sensor-proxy is not there (\(error))")
                }
            }
        } catch {
            missing("\(error)")
        }
    }

    private func readOrientation() {
        try? bus.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                      arguments: [.string(Self.interface), .string("AccelerometerOrientation")]) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let values):
                guard case .string(let orientation)? = values.first else { return }
                saidMissing = false
                logger.info("following the accelerometer", metadata: ["orientation": "\(orientation)"])
                heard(orientation)
            case .failure(let error):
                missing("iio-sensor-proxy has no accelerometer orientation (\(error))")
            }
        }
    }

    private func propertiesChanged(_ values: [BusValue]) {
        guard values.count >= 2, case .dictionary(let changed) = values[1] else { return }
        for (key, value) in changed where key == "AccelerometerOrientation" {
            if case .string(let orientation) = value { heard(orientation) }
        }
    }

    private func ownerChanged(_ values: [BusValue]) {
        guard values.count == 3, case .string(let owner) = values[2] else { return }
        if owner.isEmpty {
            logger.info("iio-sensor-proxy left the bus: the screen stays as it is")
        } else {
            claim()
        }
    }

    private func heard(_ orientation: String) {
        guard let transform = Self.transform(orientation: orientation) else { return }
        if let lock {
            if access(lock, F_OK) == 0 {
                if transform != screens.state.accelerometer {
                    logger.info("rotation locked: the screen stays", metadata: ["orientation": "\(orientation)", "lock": "\(lock)"])
                }
                return
            }
            // Not there is unlocked; not knowing (a folder the service may not enter) is said once.
            if errno != ENOENT, !saidLockUnreadable {
                saidLockUnreadable = true
                logger.warning("cannot tell whether the rotation lock exists: it does not hold", metadata: [
                    "lock": "\(lock)", "error": "\(String(cString: strerror(errno)))",
                    "hint": "put it where the service can look (/run/gestured/rotation.lock for the packaged one)",
                ])
            }
        }
        screens.report(accelerometer: transform)
    }

    /// No accelerometer: said once (until one is found), and the screen stays as it is.
    private func missing(_ why: String) {
        guard !saidMissing else { return }
        saidMissing = true
        logger.info("no accelerometer: rotation: auto keeps the screen as it is", metadata: ["reason": "\(why)"])
    }
}
