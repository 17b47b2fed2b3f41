/// Keyboard keys by the kernel's names, as a configuration writes them: `leftmeta` for
/// `KEY_LEFTMETA`, `equal` for `KEY_EQUAL` (linux/input-event-codes.h, the table libevdev's
/// `libevdev_event_code_from_name` reads too).
///
/// Only keys: the `BTN_*` codes are a pointer's, and `KEY_RESERVED` is no key.
public enum KeyNames {
    /// Every key's code, by its name in lower case without `KEY_`.
    public static let codes: [String: UInt16] = {
        var out: [String: UInt16] = [:]
        for (code, name) in EventCodeNames.keyTable where name.hasPrefix("KEY_") && code != 0 { out[normalized(name)] = code }
        return out
    }()

    /// The codes of every key (sorted): what a virtual keyboard declares.
    public static let keyboardCodes: [UInt16] = Set(codes.values).sorted()

    /// Names accepted for a key beside the kernel's: `super`, as desktops call the logo key
    /// (GNOME's and KDE's shortcuts), is `leftmeta`.
    public static let aliases: [String: String] = ["super": "leftmeta"]

    /// The code of `name`: `leftmeta`, `LEFTMETA`, `KEY_LEFTMETA` and `super` all give 125.
    public static func code(_ name: String) -> UInt16? {
        let key = normalized(name)
        return codes[key] ?? aliases[key].flatMap { codes[$0] }
    }

    /// `KEY_LEFTMETA`, `LeftMeta` → `leftmeta`.
    private static func normalized(_ name: String) -> String {
        let key = name.lowercased()
        return key.hasPrefix("key_") ? String(key.dropFirst(4)) : key
    }

    /// The configuration's name for `code` (`leftmeta`), if it is a key.
    public static func name(_ code: UInt16) -> String? {
        guard let full = EventCodeNames.knownCodeName(type: EventType.key, code: code), full.hasPrefix("KEY_") else { return nil }
        return normalized(full)
    }

    /// The key meant by a name that is none: `ctrl` → `leftctrl` (a left key named without its
    /// side first), else the nearest name by edit distance if it is close (`leftmta` → `leftmeta`).
    public static func suggestion(for name: String) -> String? {
        let key = normalized(name)
        guard !key.isEmpty else { return nil }
        if codes["left" + key] != nil { return "left" + key }
        let aliases = ["win": "leftmeta", "windows": "leftmeta", "cmd": "leftmeta", "control": "leftctrl",
                       "return": "enter", "escape": "esc", "del": "delete", "ins": "insert", "pgup": "pageup", "pgdn": "pagedown",
                       "plus": "equal", "-": "minus", "=": "equal", "arrowleft": "left", "arrowright": "right"]
        if let alias = aliases[key] { return alias }
        var best: (name: String, distance: Int)?
        for candidate in codes.keys {
            let d = editDistance(key, candidate)
            if d < (best?.distance ?? Int.max) || (d == best?.distance && candidate < best!.name) { best = (candidate, d) }
        }
        guard let best, best.distance <= max(1, key.count / 3) else { return nil }
        return best.name
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
