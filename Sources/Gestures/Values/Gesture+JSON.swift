import TouchEvents

extension Gesture {
    /// The gesture as one line of JSON, the same for `gestured replay --json`, `gestured run
    /// --json` and socket clients: the documented keys, in order, only where they apply —
    /// `time device kind state region touches [current_touches] x y taps dx dy vx vy scale rotation direction
    /// edge`; pinch and rotate add their rate as `velocity` (scale/s, degrees/s), a swipe when it
    /// was decided (`decided_mm`, `decided_ms`). `time` is in
    /// seconds from `origin`.
    public func jsonLine(origin: Instant) -> String {
        var s = "{\"time\": \(formatSeconds(time - origin))"
        if let device { s += ", \"device\": \(jsonString(device))" }
        s += ", \"kind\": \"\(kind.rawValue)\", \"state\": \"\(state.rawValue)\", \"region\": \(jsonString(region))"
        s += ", \"touches\": \(touches)"
        if let current = currentTouches { s += ", \"current_touches\": \(current)" }
        s += ", \"x\": \(mm(location.x)), \"y\": \(mm(location.y))"
        if let taps { s += ", \"taps\": \(taps)" }
        if let t = translation { s += ", \"dx\": \(mm(t.x)), \"dy\": \(mm(t.y))" }
        switch kind {
        case .pan, .swipe, .edgePan:
            if let v = velocity { s += ", \"vx\": \(mm(v.x)), \"vy\": \(mm(v.y))" }
        case .pinch:
            if let scale { s += ", \"scale\": \(formatDecimal(scale, places: 4))" }
            if let v = velocity { s += ", \"velocity\": \(formatDecimal(v.x, places: 4))" }
        case .rotate:
            if let r = rotation { s += ", \"rotation\": \(formatDecimal(r, places: 2))" }
            if let v = velocity { s += ", \"velocity\": \(formatDecimal(v.x, places: 2))" }
        case .tap, .longPress, .custom:
            break
        }
        if let d = direction { s += ", \"direction\": \"\(d.rawValue)\"" }
        if let mm = decidedAfterDistance { s += ", \"decided_mm\": \(formatDecimal(mm, places: 1))" }
        if let after = decidedAfterTime { s += ", \"decided_ms\": \(formatDecimal(after.inMilliseconds, places: 1))" }
        if let e = edge { s += ", \"edge\": \"\(e.rawValue)\"" }
        return s + "}\n"
    }

    private func mm(_ v: Double) -> String { formatDecimal(v, places: 2) }
}

/// A JSON string literal.
public func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
