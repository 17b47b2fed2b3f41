/// WebSocket framing (RFC 6455 §5), the server's side: frames it sends are unmasked; frames a
/// browser sends are masked, and are read here one at a time.
public enum WebSocketFrame {
    public enum Opcode: UInt8, Sendable {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA
    }

    /// What a browser sent, read whole.
    public struct Message: Sendable, Equatable {
        public var opcode: Opcode
        public var fin: Bool
        public var payload: [UInt8]
    }

    /// Why a frame is refused; the connection then closes with ``closeCode``.
    public enum ReadError: Error, Sendable, Equatable {
        /// Not masked, reserved bits set, an unknown opcode, a fragmented or long control frame
        /// (1002, protocol error).
        case protocolError(String)
        /// Longer than the most a message may be (1009, too big).
        case tooBig(Int)

        public var closeCode: UInt16 {
            switch self {
            case .protocolError: return 1002
            case .tooBig: return 1009
            }
        }
    }

    /// The `Sec-WebSocket-Accept` answering `key` (§4.2.2).
    public static func acceptValue(for key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
    }

    /// One unmasked frame, whole (FIN set).
    public static func encode(_ opcode: Opcode, _ payload: some Collection<UInt8>, into out: inout [UInt8]) {
        out.append(0x80 | opcode.rawValue)
        let n = payload.count
        if n < 126 {
            out.append(UInt8(n))
        } else if n <= 0xFFFF {
            out.append(126)
            out.append(UInt8(n >> 8))
            out.append(UInt8(n & 0xFF))
        } else {
            out.append(127)
            for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: UInt64(n) >> (UInt64(i) * 8))) }
        }
        out.append(contentsOf: payload)
    }

    /// A close frame with `code` and a short reason.
    public static func close(code: UInt16, reason: String) -> [UInt8] {
        var out: [UInt8] = []
        encode(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8.prefix(120)), into: &out)
        return out
    }

    /// Reads one frame from the start of `bytes`: nil when it is not all there yet, else the
    /// message and the bytes it took. `maximumPayload` bounds a frame before it is buffered.
    public static func read(_ bytes: ArraySlice<UInt8>, maximumPayload: Int) throws(ReadError) -> (Message, consumed: Int)? {
        guard bytes.count >= 2 else { return nil }
        let s = bytes.startIndex
        let b0 = bytes[s]
        let b1 = bytes[s + 1]
        guard b0 & 0x70 == 0 else { throw .protocolError("reserved bits set") }
        guard let opcode = Opcode(rawValue: b0 & 0x0F) else { throw .protocolError("unknown opcode \(b0 & 0x0F)") }
        let fin = b0 & 0x80 != 0
        guard b1 & 0x80 != 0 else { throw .protocolError("a client's frame must be masked") }
        var length = Int(b1 & 0x7F)
        var i = s + 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            i += 2
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(bytes[i + k]) }
            guard v <= UInt64(maximumPayload) else { throw .tooBig(Int(clamping: v)) }
            length = Int(v)
            i += 8
        }
        if opcode.rawValue >= 0x8 {
            guard fin && length <= 125 else { throw .protocolError("a control frame is fragmented or longer than 125 bytes") }
        }
        guard length <= maximumPayload else { throw .tooBig(length) }
        guard bytes.endIndex - i >= 4 + length else { return nil }
        let mask = bytes[i..<i + 4]
        i += 4
        var payload = [UInt8](repeating: 0, count: length)
        for k in 0..<length { payload[k] = bytes[i + k] ^ mask[mask.startIndex + k % 4] }
        return (Message(opcode: opcode, fin: fin, payload: payload), i + length - s)
    }
}
