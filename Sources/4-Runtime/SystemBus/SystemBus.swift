#if canImport(Glibc)
import Glibc
#endif
import CSDBus
import SystemLoop
import TouchEvents

/// A value on the bus, with its D-Bus type: what a property or a signal's argument is.
public indirect enum BusValue: Sendable, Equatable {
    case string(String)
    case uint32(UInt32)
    case int32(Int32)
    case double(Double)
    case boolean(Bool)
    /// An array whose elements have the type `element` (`s`, `(sss)`).
    case array(element: String, [BusValue])
    case structure([BusValue])
    /// `a{sv}`: names and values of any type.
    case dictionary([(String, BusValue)])

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .string: "s"
        case .uint32: "u"
        case .int32: "i"
        case .double: "d"
        case .boolean: "b"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictionary: "a{sv}"
        }
    }

    public static func == (a: BusValue, b: BusValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.uint32(let x), .uint32(let y)): x == y
        case (.int32(let x), .int32(let y)): x == y
        case (.double(let x), .double(let y)): x == y
        case (.boolean(let x), .boolean(let y)): x == y
        case (.array(let e, let x), .array(let f, let y)): e == f && x == y
        case (.structure(let x), .structure(let y)): x == y
        case (.dictionary(let x), .dictionary(let y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: false
        }
    }
}

/// What went wrong with the bus: the call and sd-bus's errno.
public struct SystemBusError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ what: String, _ result: Int32) {
        message = "\(what): \(String(cString: strerror(-result)))"
    }
    public var description: String { message }
}

/// A connection to the system bus (sd-bus, from libsystemd), as one more user of a
/// `SharedEventLoop`: it exports one object (properties read when asked, signals sent) and
/// answers the bus's calls (`Properties.Get`, `Introspect`) between the loop's other work.
/// Signals that would wait beyond ``maximumQueuedSignals`` (a bus not reading) are dropped,
/// and counted, rather than held.
public final class SystemBus {
    /// Signals waiting to be written past which more are dropped.
    public static let maximumQueuedSignals = 1024

    var bus: OpaquePointer?
    private var slot: OpaquePointer?
    /// Calls awaiting their reply, and signal matches (``SystemBus+Calls``), each holding its slot.
    var pending: [ObjectIdentifier: BusCallback] = [:]
    private let loop: SharedEventLoop
    private var properties: (String) -> BusValue? = { _ in nil }
    /// Signals dropped because the bus was not reading.
    public private(set) var droppedSignals = 0

    /// Connects to the system bus at `address` (`unix:path=/run/dbus/system_bus_socket`); nil:
    /// `$DBUS_SYSTEM_BUS_ADDRESS`, else the system's socket.
    public init(loop: SharedEventLoop, address: String? = nil) throws(SystemBusError) {
        self.loop = loop
        var opened: OpaquePointer?
        var r: Int32
        if let address {
            r = sd_bus_new(&opened)
            if r >= 0, let made = opened {
                r = sd_bus_set_address(made, address)
                if r >= 0 { r = sd_bus_set_bus_client(made, 1) }
                if r >= 0 { r = sd_bus_set_trusted(made, 0) }
                if r >= 0 { r = sd_bus_start(made) }
                if r < 0 {
                    sd_bus_unref(made)
                    opened = nil
                }
            }
        } else {
            r = sd_bus_open_system(&opened)
        }
        guard r >= 0, let opened else { throw SystemBusError("cannot connect to the system bus", r) }
        bus = opened
        let fd = sd_bus_get_fd(opened)
        guard fd >= 0 else {
            sd_bus_flush_close_unref(opened)
            bus = nil
            throw SystemBusError("the system bus has no descriptor", fd)
        }
        loop.watch(fd, writable: wantsWrite) { [weak self] _ in self?.process() }
        loop.endOfTurn(owner: ObjectIdentifier(self)) { [weak self] in self?.process() }
        // sd-bus's own deadline (a call's reply timing out, 25 s by default), on
        // CLOCK_MONOTONIC as the loop's live clock is: the loop wakes then, and the turn's
        // end processes it (the call's closure hears the timeout).
        loop.addTimer(owner: ObjectIdentifier(self), next: { [weak self] in self?.deadline }, fire: { [weak self] _ in self?.process() })
    }

    deinit { close() }

    /// Takes the well-known `name` (`org.gestured.Gestured`); the bus's policy decides.
    public func requestName(_ name: String) throws(SystemBusError) {
        guard let bus else { throw SystemBusError("the bus is closed", -EBADF) }
        let r = sd_bus_request_name(bus, name, 0)
        guard r >= 0 else { throw SystemBusError("cannot take the name \(name)", r) }
    }

    /// Exports the service's object at `path` with `interface`: each property's value comes
    /// from `properties` when asked.
    public func export(path: String, interface: String, properties: @escaping (String) -> BusValue?) throws(SystemBusError) {
        guard let bus else { throw SystemBusError("the bus is closed", -EBADF) }
        self.properties = properties
        var made: OpaquePointer?
        let r = gestured_bus_add_object(bus, path, interface, { context, property, reply in
            guard let context, let property, let reply else { return -EINVAL }
            let me = Unmanaged<SystemBus>.fromOpaque(context).takeUnretainedValue()
            guard let value = me.properties(String(cString: property)) else { return -ENOENT }
            return SystemBus.append(value, to: reply)
        }, Unmanaged.passUnretained(self).toOpaque(), &made)
        guard r >= 0 else { throw SystemBusError("cannot export \(path)", r) }
        slot = made
    }

    /// Sends the signal `member` of `interface` from `path` with `arguments`; false when it was
    /// dropped (the bus not reading, or the message refused).
    @discardableResult
    public func emit(path: String, interface: String, member: String, arguments: [BusValue]) -> Bool {
        guard let bus else { return false }
        guard queuedWrites(bus) < Self.maximumQueuedSignals else {
            droppedSignals += 1
            return false
        }
        var message: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &message, path, interface, member) >= 0, let message else { return false }
        defer { sd_bus_message_unref(message) }
        for argument in arguments where Self.append(argument, to: message) < 0 { return false }
        guard sd_bus_send(bus, message, nil) >= 0 else { return false }
        updateWriteInterest()
        return true
    }

    /// Tells listeners that the properties `names` of `interface` at `path` changed.
    public func propertiesChanged(path: String, interface: String, names: [String]) {
        guard let bus else { return }
        var strings = names.map { strdup($0) } + [nil]
        defer { for s in strings { free(s) } }
        _ = strings.withUnsafeMutableBufferPointer { sd_bus_emit_properties_changed_strv(bus, path, interface, $0.baseAddress) }
        updateWriteInterest()
    }

    /// Writes what waits, and closes the connection.
    public func close() {
        guard let bus else { return }
        loop.unwatch(sd_bus_get_fd(bus))
        loop.removeWork(of: ObjectIdentifier(self))
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
        // Replies never to come, matches never to fire: their slots go, and their closures.
        for callback in pending.values { callback.cancel() }
        pending.removeAll()
        sd_bus_flush_close_unref(bus)
        self.bus = nil
    }

    // MARK: - The loop

    /// When sd-bus next has something to do by itself (a call timing out), nil when nothing.
    private var deadline: Instant? {
        guard let bus, !pending.isEmpty else { return nil }
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max, usec <= UInt64(Int64.max) else { return nil }
        return Instant(microseconds: Int64(usec))
    }

    private var wantsWrite: Bool {
        guard let bus else { return false }
        return sd_bus_get_events(bus) & Int32(POLLOUT) != 0
    }

    private func queuedWrites(_ bus: OpaquePointer) -> Int {
        var n: UInt64 = 0
        _ = sd_bus_get_n_queued_write(bus, &n)
        return Int(n)
    }

    func updateWriteInterest() {
        guard let bus else { return }
        loop.setWritable(sd_bus_get_fd(bus), wantsWrite)
    }

    /// Handles what the bus sent and writes what waits, until there is nothing more now.
    private func process() {
        guard let bus else { return }
        while sd_bus_process(bus, nil) > 0 {}
        updateWriteInterest()
    }

    // MARK: - Values

    /// Appends `value` to `message`; 0 or a negative errno.
    static func append(_ value: BusValue, to message: OpaquePointer) -> Int32 {
        func basic(_ type: Character, _ pointer: UnsafeRawPointer) -> Int32 {
            sd_bus_message_append_basic(message, CChar(type.asciiValue!), pointer)
        }
        func container(_ type: Character, _ contents: String, _ body: () -> Int32) -> Int32 {
            var r = sd_bus_message_open_container(message, CChar(type.asciiValue!), contents)
            guard r >= 0 else { return r }
            r = body()
            guard r >= 0 else { return r }
            return sd_bus_message_close_container(message)
        }
        switch value {
        case .string(let s):
            return s.withCString { basic("s", $0) }
        case .uint32(var v):
            return basic("u", &v)
        case .int32(var v):
            return basic("i", &v)
        case .double(var v):
            return basic("d", &v)
        case .boolean(let b):
            var v: Int32 = b ? 1 : 0
            return basic("b", &v)
        case .array(let element, let items):
            return container("a", element) {
                for item in items {
                    let r = append(item, to: message)
                    if r < 0 { return r }
                }
                return 0
            }
        case .structure(let fields):
            return container("r", String(value.signature.dropFirst().dropLast())) {
                for field in fields {
                    let r = append(field, to: message)
                    if r < 0 { return r }
                }
                return 0
            }
        case .dictionary(let entries):
            return container("a", "{sv}") {
                for (key, item) in entries {
                    let r = container("e", "sv") {
                        let r = key.withCString { basic("s", $0) }
                        guard r >= 0 else { return r }
                        return container("v", item.signature) { append(item, to: message) }
                    }
                    if r < 0 { return r }
                }
                return 0
            }
        }
    }
}
