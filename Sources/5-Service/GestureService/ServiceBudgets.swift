/// What all socket clients together may hold (docs/protocol.md, "Limits"): each client is
/// bounded on its own (``GestureProtocol/ProtocolLimits``), and these bound them together, so
/// that many clients, each within its limits, cannot take the service's memory.
///
/// Clients are counted by the process that connected (its id from the socket, `SO_PEERCRED`;
/// each connection on its own when the kernel does not say). Past a budget the process holding
/// the most is refused, never a newcomer: a new connection or region from another process is
/// taken, and the heaviest process's newest connection is closed to make room (told why in a
/// `service-full` error first); when the newcomer's own process holds the most, it is the one
/// refused.
public struct ServiceBudgets: Sendable, Equatable {
    /// Connections at once: 256.
    public var clients = 256
    /// Regions of all clients together: 16,384 (64 clients with their 256 each).
    public var regions = 16_384
    /// Bytes of unfinished lines held for all clients together: 4 MiB (64 clients each
    /// with a 64 KiB line not yet ended).
    public var inputBytes = 4 * 1024 * 1024
    /// Bytes of messages queued for clients that have not read them yet, all together: 16
    /// MiB (64 clients each at their 256 KiB backlog).
    public var outputBytes = 16 * 1024 * 1024

    public init() {}
}
