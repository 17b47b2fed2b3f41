/// Kernel names for event types, codes and properties (`EV_ABS`, `ABS_MT_SLOT`,
/// `INPUT_PROP_DIRECT`), for messages and for the comments recordings carry.
///
/// The tables are generated from linux/input-event-codes.h by scripts/gen-event-codes.py.
public enum EventCodeNames {
    /// A name table, indexed for lookup.
    public struct Table: Sendable {
        let names: [UInt16: String]
        init(_ entries: [(UInt16, String)]) {
            names = Dictionary(entries, uniquingKeysWith: { first, _ in first })
        }
    }

    static let types = Table(typesTable)
    static let properties = Table(propsTable)
    static let codeTables: [UInt16: Table] = [
        EventType.syn: Table(synTable), EventType.key: Table(keyTable), EventType.rel: Table(relTable),
        EventType.abs: Table(absTable), EventType.msc: Table(mscTable), EventType.sw: Table(swTable),
        EventType.led: Table(ledTable), EventType.snd: Table(sndTable), EventType.rep: Table(repTable),
    ]

    static func name(in table: Table, code: UInt16) -> String? { table.names[code] }

    /// `EV_ABS` for 3; `EV_0x1e` for a type the kernel does not define.
    public static func typeName(_ type: UInt16) -> String {
        types.names[type] ?? "EV_0x" + String(type, radix: 16)
    }

    /// `ABS_MT_SLOT` for (3, 0x2f); the hex code where the kernel has no name.
    public static func codeName(type: UInt16, code: UInt16) -> String {
        if let name = codeTables[type]?.names[code] { return name }
        return "0x" + String(code, radix: 16)
    }

    /// The name if the kernel defines one for this code, else nil.
    public static func knownCodeName(type: UInt16, code: UInt16) -> String? {
        codeTables[type]?.names[code]
    }

    /// `INPUT_PROP_DIRECT` for 1.
    public static func propertyName(_ property: UInt16) -> String {
        properties.names[property] ?? "INPUT_PROP_0x" + String(property, radix: 16)
    }
}
