#if canImport(Glibc)
import Glibc
#endif
import CSDBus

/// What a call on the bus came back with when it failed: the error's D-Bus name
/// (`org.freedesktop.DBus.Error.ServiceUnknown`) and its message.
public struct BusCallError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}

/// A closure waiting on the bus (a call's reply, a signal match) with the slot that keeps it.
/// Passed to sd-bus retained, as the callback's userdata; released when the reply came, or
/// when the bus closes.
final class BusCallback {
    let handle: (OpaquePointer) -> Void
    var slot: OpaquePointer?
    weak var owner: SystemBus?
    /// A reply: called once, then gone. A match: called for every signal.
    let once: Bool

    init(once: Bool, handle: @escaping (OpaquePointer) -> Void) {
        self.once = once
        self.handle = handle
    }

    func cancel() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
    }
}

/// The other side of the bus: calling another service's methods and hearing its signals
/// (iio-sensor-proxy's accelerometer). Replies and signals come on the loop, between its other
/// work, never blocking it.
extension SystemBus {
    /// Calls `member` of `interface` at `path` on `destination` with `arguments`; `reply` gets
    /// the reply's values, or the error, later on the loop (never if the bus closes first).
    public func call(destination: String, path: String, interface: String, member: String, arguments: [BusValue] = [],
                     reply: @escaping (Result<[BusValue], BusCallError>) -> Void) throws(SystemBusError) {
        guard let bus else { throw SystemBusError("the bus is closed", -EBADF) }
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard r >= 0, let message else { throw SystemBusError("cannot call \(interface).\(member)", r) }
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            r = Self.append(argument, to: message)
            guard r >= 0 else { throw SystemBusError("cannot call \(interface).\(member)", r) }
        }
        let callback = BusCallback(once: true) { answer in
            if sd_bus_message_is_method_error(answer, nil) > 0, let error = sd_bus_message_get_error(answer) {
                reply(.failure(BusCallError(name: error.pointee.name.map { String(cString: $0) } ?? "unknown",
                                            message: error.pointee.message.map { String(cString: $0) } ?? "")))
            } else {
                reply(.success(Self.values(of: answer)))
            }
        }
        var slot: OpaquePointer?
        let context = Unmanaged.passUnretained(callback).toOpaque()
        r = sd_bus_call_async(bus, &slot, message, { answer, context, _ in
            guard let answer, let context else { return 0 }
            Unmanaged<BusCallback>.fromOpaque(context).takeUnretainedValue().fire(answer)
            return 0
        }, context, 0)
        guard r >= 0 else { throw SystemBusError("cannot call \(interface).\(member)", r) }
        callback.slot = slot
        callback.owner = self
        pending[ObjectIdentifier(callback)] = callback
        updateWriteInterest()
    }

    /// Hears the signals the match rule `rule` picks
    /// (`type='signal',sender='net.hadess.SensorProxy',member='PropertiesChanged'`): `handler`
    /// gets each one's values, on the loop, until the bus closes.
    public func match(_ rule: String, handler: @escaping ([BusValue]) -> Void) throws(SystemBusError) {
        guard let bus else { throw SystemBusError("the bus is closed", -EBADF) }
        let callback = BusCallback(once: false) { signal in handler(Self.values(of: signal)) }
        var slot: OpaquePointer?
        let context = Unmanaged.passUnretained(callback).toOpaque()
        let r = sd_bus_add_match(bus, &slot, rule, { signal, context, _ in
            guard let signal, let context else { return 0 }
            Unmanaged<BusCallback>.fromOpaque(context).takeUnretainedValue().fire(signal)
            return 0
        }, context)
        guard r >= 0 else { throw SystemBusError("cannot listen for \(rule)", r) }
        callback.slot = slot
        callback.owner = self
        pending[ObjectIdentifier(callback)] = callback
        updateWriteInterest()
    }

    // MARK: - Reading values

    /// Every value of `message`, from the start.
    static func values(of message: OpaquePointer) -> [BusValue] {
        _ = sd_bus_message_rewind(message, 1)
        var out: [BusValue] = []
        while let value = read(message) { out.append(value) }
        return out
    }

    /// The next value of `message` (nil at the end of the message or of a container, or for a
    /// type gestured has no use for: file descriptors).
    static func read(_ message: OpaquePointer) -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        let code = Character(Unicode.Scalar(UInt8(bitPattern: type)))
        let inner = contents.map { String(cString: $0) } ?? ""
        func basic<T: BitwiseCopyable>(_ initial: T) -> T? {
            var v = initial
            return withUnsafeMutableBytes(of: &v) { sd_bus_message_read_basic(message, type, $0.baseAddress) } > 0 ? v : nil
        }
        switch code {
        case "s", "o", "g":
            var p: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &p) > 0, let p else { return nil }
            return .string(String(cString: p))
        case "b": return basic(Int32(0)).map { .boolean($0 != 0) }
        case "y": return basic(UInt8(0)).map { .uint32(UInt32($0)) }
        case "q": return basic(UInt16(0)).map { .uint32(UInt32($0)) }
        case "u": return basic(UInt32(0)).map { .uint32($0) }
        case "n": return basic(Int16(0)).map { .int32(Int32($0)) }
        case "i": return basic(Int32(0)).map { .int32($0) }
        case "x": return basic(Int64(0)).map { .double(Double($0)) }
        case "t": return basic(UInt64(0)).map { .double(Double($0)) }
        case "d": return basic(Double(0)).map { .double($0) }
        case "v", "r", "a":
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            defer { _ = sd_bus_message_exit_container(message) }
            switch code {
            case "v":
                return read(message)
            case "r":
                var fields: [BusValue] = []
                while let v = read(message) { fields.append(v) }
                return .structure(fields)
            default:
                if inner.hasPrefix("{s") {
                    var entries: [(String, BusValue)] = []
                    while let entry = read(message) {
                        guard case .structure(let kv) = entry, kv.count == 2, case .string(let key) = kv[0] else { continue }
                        entries.append((key, kv[1]))
                    }
                    return .dictionary(entries)
                }
                var items: [BusValue] = []
                while let v = read(message) { items.append(v) }
                return .array(element: inner, items)
            }
        case "e":
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            defer { _ = sd_bus_message_exit_container(message) }
            var fields: [BusValue] = []
            while let v = read(message) { fields.append(v) }
            return .structure(fields)
        default:
            guard sd_bus_message_skip(message, String(code)) >= 0 else { return nil }
            return read(message)
        }
    }
}

extension BusCallback {
    /// The reply or the signal came.
    func fire(_ message: OpaquePointer) {
        if once {
            // Gone from the bus's list before the closure runs: it may call again.
            owner?.pending[ObjectIdentifier(self)] = nil
            cancel()
        }
        handle(message)
    }
}
