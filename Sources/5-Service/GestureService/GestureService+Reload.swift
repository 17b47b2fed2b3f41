import GestureConfiguration
import GestureRuntime
import SystemBus
import Gestures

/// SIGHUP: the configuration read again, and every device started over with it.
extension GestureService {
    /// Reads the configuration again (SIGHUP). A broken file is reported and the old one stays.
    public func reload() {
        guard let path = options.configPath else {
            logger.notice("reload: no configuration file; the built-in layout stays")
            return
        }
        let fresh: Configuration
        do throws(ServiceError) {
            fresh = try Self.loadConfiguration(path)
        } catch {
            logger.error("configuration not reloaded; the previous one stays", metadata: ["error": "\(error.description)"])
            return
        }
        configuration = fresh
        dispatcher.apply(fresh.service)
        runtime.replaceSource(.rules(dispatcher.rules(of: fresh)))
        dispatcher.desktop.releaseAll(reason: "reload")
        followTheDesktop(fresh)
        logger.info("configuration reloaded", metadata: ["config": "\(path)", "devices_in_use": "\(devicesInUse.count)"])
    }
}

/// The screens turning: the touchscreens on them start over.
extension GestureService {
    /// What `configuration` needs of the desktop: the virtual keyboard, pointer and touchpad,
    /// the compositor's focus and outputs, the accelerometer, the machine's wakes.
    func followTheDesktop(_ configuration: Configuration) {
        // The system bus, once something wants it (at start, or a reload that adds it).
        let accelerometer = configuration.devices.contains { $0.followsRotation && $0.turns(kind: .touchscreen) }
        let touchpad = configuration.gestures.contains { $0.action?.usesTouchpad == true }
        if accelerometer || touchpad { openSystemBus() }
        dispatcher.openVirtualInput(for: configuration)
        dispatcher.followFocus(for: configuration, environment: options.environment, outputs: true)
        dispatcher.followAccelerometer(for: configuration, bus: systemBus)
        dispatcher.followSleep(for: configuration, bus: systemBus)
    }

    /// The screens changed (``ScreenTracker``): every device whose rule places it differently
    /// now starts over with its layout re-derived or swapped (its gestures in flight end
    /// `cancelled`); the others go on untouched.
    func screensChanged(from before: ScreenState) {
        guard let configuration else { return }
        let now = dispatcher.screens.state
        runtime.replaceSource(.rules(dispatcher.rules(of: configuration))) { [logger] device, node in
            guard let rule = configuration.rule(for: device, node: node), rule.turns(kind: device.kind) else { return false }
            let placement = configuration.placement(for: rule, kind: device.kind, screen: now)
            // Told by another source, the same turn and size: nothing to start over.
            let was = configuration.placement(for: rule, kind: device.kind, screen: before)
            guard placement.transform != was.transform || placement.output != was.output else { return false }
            let size = placement.output.map { "\(Int($0.width.rounded()))x\(Int($0.height.rounded()))" } ?? "the layout's"
            logger.info("the screen turned: the device starts over, its touches in flight cancelled", metadata: [
                "device": "\(device.name)", "node": "\(node)", "transform": "\(placement.transform)", "size": "\(size)",
                "from": "\(placement.source)",
            ])
            return true
        }
    }
}

extension GestureService {
    /// Connects to the system bus once (``Options/systemBusAddress``). Where there is none, only
    /// `--dbus` warns here; the accelerometer and the touchpad each say what they go without.
    func openSystemBus() {
        guard systemBus == nil, !triedSystemBus else { return }
        triedSystemBus = true
        do throws(SystemBusError) {
            systemBus = try SystemBus(loop: loop, address: options.systemBusAddress)
        } catch {
            if options.dbus { logger.warning("not on the system bus: going on without it", metadata: ["error": "\(error)"]) }
        }
    }
}
