import TouchEvents
import TouchRecordings

/// Why no made-up device can stand for the configuration's devices (`gestured synth`, the
/// touch bench).
public struct SyntheticDeviceError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}

extension Configuration {
    /// A made-up device (``DeviceDescription/synthetic(kind:size:name:)``) that the
    /// configuration's device rules take as they would a real one, and the rule that takes it:
    /// the first rule that does not name a node, of `kind` if given (else the rule's kind, else
    /// a touchscreen), named so that the rule's name glob matches it (`ILITEK*`: `ILITEK`).
    /// Its size is `size`, else the rule's `size`, else a 10.1" panel in the layout's
    /// proportions (a touchpad: 100 × 60 mm). A `size` other than the rule's is refused: the
    /// rule's size is what a replay of its recording under the configuration applies.
    public func syntheticDevice(kind wanted: DeviceKind?, size wantedSize: SurfaceSize?) throws(SyntheticDeviceError)
        -> (device: DeviceDescription, rule: DeviceRule) {
        let candidates = devices.isEmpty ? [DeviceRule()] : devices
        guard let rule = candidates.first(where: { r in r.node == nil && (wanted == nil || r.kind == nil || r.kind == wanted) }) else {
            throw SyntheticDeviceError(message: "\(path): no device rule takes a made-up \(wanted.map { "\($0)" } ?? "device")"
                + " (rules that name a node match only that node); add a rule, or choose another --kind")
        }
        let kind = wanted ?? rule.kind ?? .touchscreen
        if let wantedSize, let ruled = rule.size, wantedSize != ruled {
            throw SyntheticDeviceError(message: "\(path):\(rule.line): the device rule says size \(ruled), and a replay under it "
                + "applies that size: leave out --size \(formatDecimal(wantedSize.width, places: 1))x\(formatDecimal(wantedSize.height, places: 1)), or change the rule")
        }
        let proportions = rule.output ?? layout(for: rule).frame.map { SurfaceSize(width: $0.width, height: $0.height) }
        let size = wantedSize ?? rule.size ?? SurfaceSize.synthetic(kind: kind, proportions: proportions)
        let name = rule.name.map { glob in String(glob.compactMap { $0 == "*" ? nil : $0 == "?" ? "x" : $0 }) }
        let device = DeviceDescription.synthetic(kind: kind, size: size, name: name.flatMap { $0.isEmpty ? nil : $0 })
        guard let taken = self.rule(for: device, node: nil) else {
            throw SyntheticDeviceError(message: "\(path):\(rule.line): no device rule takes a made-up device named \"\(device.name)\"")
        }
        return (device, taken)
    }
}
