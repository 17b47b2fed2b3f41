import GestureConfiguration
import GestureRuntime

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
        dispatcher.openVirtualInput(for: fresh)
        dispatcher.followFocus(for: fresh, environment: options.environment)
        logger.info("configuration reloaded", metadata: ["config": "\(path)", "devices_in_use": "\(devicesInUse.count)"])
    }
}
