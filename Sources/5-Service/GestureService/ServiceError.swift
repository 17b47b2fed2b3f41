import GestureConfiguration
import GestureRuntime
import GestureView
import SystemLoop
import TouchInput

/// Why the service cannot start or reload, with what to do about it.
public enum ServiceError: Error, Sendable, CustomStringConvertible {
    /// The configuration file cannot be read.
    case configurationUnreadable(path: String, reason: String)
    /// Others could change the configuration, and it runs commands.
    case configurationNotTrusted(path: String, reason: String)
    /// The configuration is not valid (`FILE:LINE:COLUMN: …`).
    case configurationInvalid(ConfigurationError)
    /// The socket cannot be listened on.
    case socketUnavailable(path: String, reason: String)
    /// The socket's group does not exist.
    case socketGroupMissing(String)
    /// Something that is not a socket is where the socket should be.
    case notASocket(path: String)
    /// Another service is listening on the socket.
    case socketInUse(path: String)
    /// The seat's devices cannot be discovered.
    case seat(InputError)
    /// The event loop cannot be set up.
    case system(SystemError)
    /// The live view cannot be served (a non-loopback address without leave, a port in use).
    case view(LiveView.SetupError)

    public var description: String {
        switch self {
        case .configurationUnreadable(let path, let reason): "\(path): cannot read the configuration: \(reason)"
        case .configurationNotTrusted(let path, let reason): "\(path): refusing a configuration \(reason)"
        case .configurationInvalid(let error): error.description
        case .socketUnavailable(let path, let reason):
            "cannot listen on \(path): \(reason) (create its directory, or give another path with --socket)"
        case .socketGroupMissing(let group): "socket group \"\(group)\" does not exist (create it: groupadd --system \(group))"
        case .notASocket(let path): "\(path) exists and is not a socket; remove it or choose another path"
        case .socketInUse(let path): "another gestured is listening on \(path)"
        case .seat(let error): error.description
        case .system(let error): error.description
        case .view(let error): error.description
        }
    }
}

extension ServiceError {
    /// Why the runtime under the service could not run, as the service says it.
    init(_ error: GestureRuntime.RunError) {
        switch error {
        case .seat(let e): self = .seat(e)
        case .system(let e): self = .system(e)
        case .alreadyRunning: self = .system(SystemError(path: "runtime", message: error.description, code: 0))
        }
    }
}
