#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchEvents

/// One `Match*` line of a quirks section.
public enum QuirksMatch: Sendable, Equatable {
    /// `MatchName`: a shell glob (fnmatch) on the device's name.
    case name(String)
    /// `MatchBus`: `usb`, `bluetooth`, `ps2`, `rmi`, `i2c` or `spi`, as the kernel's bus type.
    case bus(UInt16)
    /// `MatchVendor`: `0x` and hex digits in upper case, up to 0xFFFF.
    case vendor(UInt16)
    /// `MatchProduct`: the same, or several separated by `;`, as newer files write it; any of
    /// them matches.
    case product([UInt16])
    /// `MatchVersion`: `0x` and hex digits in upper case, up to 0xFFFF.
    case version(UInt16)
    /// `MatchUdevType`: `touchpad`, `mouse`, `pointingstick`, `keyboard`, `joystick`, `tablet`,
    /// `tablet-pad` (udev's `ID_INPUT_*`).
    case udevType(String)
    /// `MatchDMIModalias`: a glob on the system's DMI modalias (`dmi:bvn…:svn…:pn…`).
    case dmi(String)
    /// `MatchDeviceTree`: a glob on the first device-tree `compatible` string.
    case deviceTree(String)

    /// The key this match is written with.
    public var key: String {
        switch self {
        case .name: "MatchName"
        case .bus: "MatchBus"
        case .vendor: "MatchVendor"
        case .product: "MatchProduct"
        case .version: "MatchVersion"
        case .udevType: "MatchUdevType"
        case .dmi: "MatchDMIModalias"
        case .deviceTree: "MatchDeviceTree"
        }
    }

    /// Bus names and the kernel's `BUS_*` numbers (linux/input.h).
    static let buses: [String: UInt16] = ["usb": 0x03, "bluetooth": 0x05, "ps2": 0x11, "rmi": 0x1D, "i2c": 0x18, "spi": 0x1C]
    static let udevTypes: Set<String> = ["touchpad", "mouse", "pointingstick", "keyboard", "joystick", "tablet", "tablet-pad"]

    /// `0x` and hexadecimal digits in upper case (libinput's parse_hex), at most 0xFFFF.
    static func hex(_ value: Substring) -> UInt16? {
        let digits = value.dropFirst(2)
        guard value.hasPrefix("0x"), !digits.isEmpty, digits.count <= 8,
              digits.allSatisfy({ ("0"..."9").contains($0) || ("A"..."F").contains($0) }),
              let n = UInt32(digits, radix: 16), n <= 0xFFFF else { return nil }
        return UInt16(n)
    }

    /// Whether the device meets it. What the device does not say (no DMI modalias, no device
    /// tree) meets nothing, as in libinput.
    public func holds(for device: QuirksDevice) -> Bool {
        switch self {
        case .name(let glob): Self.glob(glob, device.name)
        case .bus(let bus): device.id.bustype == bus
        case .vendor(let vendor): device.id.vendor == vendor
        case .product(let products): products.contains(device.id.product)
        case .version(let version): device.id.version == version
        case .udevType(let type): device.udevTypes.contains(type)
        case .dmi(let glob): device.dmi.map { Self.glob(glob, $0) } ?? false
        case .deviceTree(let glob): device.deviceTree.map { Self.glob(glob, $0) } ?? false
        }
    }

    /// fnmatch(3) without flags, as libinput matches names, DMI and device trees.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}

extension QuirksMatch {
    /// Parses one `Match*` line; the error is what is wrong with it.
    static func parse(key: String, value: String) -> Result<QuirksMatch, QuirksLineError> {
        func fail(_ what: String) -> Result<QuirksMatch, QuirksLineError> { .failure(QuirksLineError("\(key) \(what), not \(value): skipped")) }
        switch key {
        case "MatchName": return .success(.name(value))
        case "MatchBus":
            guard let bus = buses[value] else { return fail("takes usb, bluetooth, ps2, rmi, i2c or spi") }
            return .success(.bus(bus))
        case "MatchVendor", "MatchVersion":
            guard let n = hex(Substring(value)) else { return fail("takes 0x and hex digits in upper case, up to 0xFFFF") }
            return .success(key == "MatchVendor" ? .vendor(n) : .version(n))
        case "MatchProduct":
            let ids = value.split(separator: ";", omittingEmptySubsequences: false).map(hex)
            guard !ids.isEmpty, ids.allSatisfy({ $0 != nil }) else { return fail("takes 0x and hex digits in upper case, up to 0xFFFF (several separated by ;)") }
            return .success(.product(ids.map { $0! }))
        case "MatchUdevType":
            guard udevTypes.contains(value) else { return fail("takes touchpad, mouse, pointingstick, keyboard, joystick, tablet or tablet-pad") }
            return .success(.udevType(value))
        case "MatchDMIModalias":
            guard value.hasPrefix("dmi:") else { return fail("must start with dmi:") }
            return .success(.dmi(value))
        case "MatchDeviceTree": return .success(.deviceTree(value))
        default: return .failure(QuirksLineError("\(key): not a Match key libinput knows: skipped"))
        }
    }
}

/// What is wrong with one line of a quirks file.
public struct QuirksLineError: Error, Sendable, Equatable {
    /// What is wrong, as ``QuirksProblem/message`` gives it.
    public var message: String
    init(_ message: String) { self.message = message }
}
