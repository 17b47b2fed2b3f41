import TouchEvents

/// Writes one device as a single evemu 1.3 file: header comments with the axis values a
/// decoder starts from, the description (`N:`, `I:`, `P:`, `B:`, `A:`), then `E:` lines
/// with times relative to the first event, as evemu-record writes them.
public struct EvemuWriter: Sendable {
    public init() {}

    public func text(for device: RecordedDevice) -> String {
        var out = YAMLBuffer()
        let d = device.description
        out.line("# EVEMU 1.3")
        out.line("# Input device name: \"\(d.name)\"")
        out.line("# Input device ID: bus 0x\(hex(d.id.bustype)) vendor 0x\(hex(d.id.vendor)) product 0x\(hex(d.id.product)) version 0x\(hex(d.id.version))")
        out.line("# Supported events:")
        for type in d.codes.keys.sorted() {
            out.line("#   Event type \(type) (\(EventCodeNames.typeName(type)))")
            guard type == EventType.abs else { continue }
            for code in d.absInfo.keys.sorted() {
                let a = d.absInfo[code]!
                out.line("#     Event code \(code) (\(EventCodeNames.codeName(type: type, code: code)))")
                out.line("#       Value \(String(a.value).leftPadded(to: 6))")
            }
        }
        out.line("N: \(d.name.filter { $0 != "\n" && $0 != "\r" })")
        out.line("I: \(hex4(d.id.bustype)) \(hex4(d.id.vendor)) \(hex4(d.id.product)) \(hex4(d.id.version))")
        out.line("P: " + bitmask(d.properties, bytes: 8))
        var types = Set(d.codes.keys)
        if !d.absInfo.isEmpty { types.insert(EventType.abs) }
        out.line("B: 00 " + bitmask(types, bytes: 8))
        for type in types.sorted() where type != EventType.syn {
            var codes = d.codes[type] ?? []
            if type == EventType.abs { codes.formUnion(d.absInfo.keys) }
            let byteCount = max(8, ((Int(codes.max() ?? 0) / 8) + 8) / 8 * 8)
            let bytes = bitmaskBytes(codes, bytes: byteCount)
            for chunk in stride(from: 0, to: bytes.count, by: 8) {
                out.line("B: \(hex2(UInt8(type))) " + bytes[chunk..<chunk + 8].map(hex2).joined(separator: " "))
            }
        }
        for code in d.absInfo.keys.sorted() {
            let a = d.absInfo[code]!
            out.line("A: \(hex2(UInt8(code))) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)")
        }
        let first = device.events.first?.time ?? .zero
        for e in device.events {
            let t = Instant.zero + (e.time - first)
            out.append("E: \(t.secondsAndMicroseconds.seconds).")
            out.append(String(t.secondsAndMicroseconds.microseconds).leftPadded(to: 6, with: "0"))
            out.append(" \(hex4(e.type)) \(hex4(e.code)) ")
            out.padded(Int64(e.value), width: 4)
            out.newline()
        }
        return out.string
    }

    private func hex(_ v: UInt16) -> String { String(v, radix: 16) }
    private func hex4(_ v: UInt16) -> String { String(v, radix: 16).leftPadded(to: 4, with: "0") }
    private func hex2(_ v: UInt8) -> String { String(v, radix: 16).leftPadded(to: 2, with: "0") }

    private func bitmaskBytes(_ bits: Set<UInt16>, bytes: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes)
        for b in bits where Int(b) / 8 < bytes { out[Int(b) / 8] |= 1 << (b % 8) }
        return out
    }

    private func bitmask(_ bits: Set<UInt16>, bytes: Int) -> String {
        bitmaskBytes(bits, bytes: bytes).map(hex2).joined(separator: " ")
    }
}
