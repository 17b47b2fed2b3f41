import GestureConfiguration
import GestureProtocol
import Gestures
import TouchEvents

/// sway's IPC (i3's protocol): messages are `i3-ipc`, the payload's length and the message
/// type (both 32-bit, the machine's byte order), then the JSON payload. gestured asks for the
/// window tree once and subscribes to window and workspace events.
enum SwayIPC {
    static let magic = Array("i3-ipc".utf8)
    static let headerSize = 14
    /// Message types (sway-ipc(7)).
    static let subscribe: UInt32 = 2
    static let getOutputs: UInt32 = 3
    static let getTree: UInt32 = 4
    /// Events have the high bit set.
    static let workspaceEvent: UInt32 = 0x8000_0000
    static let outputEvent: UInt32 = 0x8000_0001
    static let windowEvent: UInt32 = 0x8000_0003
    /// A window tree nests two levels per container; deeper than this is not a real one.
    static let maximumTreeDepth = 512
    /// A message larger than this is refused (a tree of hundreds of windows is far smaller).
    static let maximumPayload = 16 << 20

    /// A message to send.
    static func message(type: UInt32, payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        var out = magic
        withUnsafeBytes(of: UInt32(body.count)) { out += $0 }
        withUnsafeBytes(of: type) { out += $0 }
        return out + body
    }

    /// Splits what arrives into messages.
    struct Decoder {
        private var buffer: [UInt8] = []

        enum DecodeError: Error, Equatable {
            case badMagic, tooLarge(Int)
        }

        /// The whole messages that `bytes` completes, as (type, payload).
        mutating func feed(_ bytes: some Collection<UInt8>) throws(DecodeError) -> [(type: UInt32, payload: [UInt8])] {
            buffer += bytes
            var out: [(UInt32, [UInt8])] = []
            var start = 0
            while buffer.count - start >= SwayIPC.headerSize {
                guard buffer[start..<start + 6].elementsEqual(SwayIPC.magic) else { throw .badMagic }
                let length = Int(word(at: start + 6))
                guard length <= SwayIPC.maximumPayload else { throw .tooLarge(length) }
                guard buffer.count - start >= SwayIPC.headerSize + length else { break }
                let type = word(at: start + 10)
                let body = Array(buffer[start + SwayIPC.headerSize..<start + SwayIPC.headerSize + length])
                out.append((type, body))
                start += SwayIPC.headerSize + length
            }
            buffer.removeFirst(start)
            return out
        }

        private func word(at i: Int) -> UInt32 {
            var v: UInt32 = 0
            withUnsafeMutableBytes(of: &v) { raw in for k in 0..<4 { raw[k] = buffer[i + k] } }
            return v
        }
    }

    /// What a message says about the focus: `.some(app)` (nil app: none) when it tells, nil
    /// when it does not (a `title` change, a reply to `subscribe`).
    static func focus(type: UInt32, payload: [UInt8]) -> String?? {
        guard let json = try? JSONValue.parse(payload, maximumDepth: maximumTreeDepth), let object = json.objectValue else { return nil }
        switch type {
        case getTree:
            return .some(focusedApp(in: json))
        case windowEvent:
            guard let change = object["change"]?.stringValue, let container = object["container"] else { return nil }
            switch change {
            case "focus": return .some(app(of: container))
            case "close" where container.objectValue?["focused"]?.boolValue == true: return .some(nil)
            default: return nil
            }
        case workspaceEvent:
            guard object["change"]?.stringValue == "focus", let current = object["current"] else { return nil }
            return .some(focusedApp(in: current))
        default:
            return nil
        }
    }

    /// The app of the focused node under `node` (nil if the focused node is no window, or
    /// nothing under it has the focus).
    static func focusedApp(in node: JSONValue) -> String? {
        focusedNode(in: node).flatMap(app(of:))
    }

    private static func focusedNode(in node: JSONValue) -> JSONValue? {
        guard let object = node.objectValue else { return nil }
        if object["focused"]?.boolValue == true { return node }
        for key in ["nodes", "floating_nodes"] {
            for child in object[key]?.arrayValue ?? [] {
                if let found = focusedNode(in: child) { return found }
            }
        }
        return nil
    }

    /// The active outputs in a reply to `GET_OUTPUTS`: each one's name, `transform` (sway's
    /// names) and `rect` (its size as the user sees it, in logical pixels); nil when the reply is
    /// not a list of outputs. An output without a transform sway knows, or without a size, is left out.
    static func outputs(_ payload: [UInt8]) -> [ScreenOutput]? {
        guard let json = try? JSONValue.parse(payload), let list = json.arrayValue else { return nil }
        return list.compactMap { item in
            guard let o = item.objectValue, o["active"]?.boolValue != false, let name = o["name"]?.stringValue,
                  let transform = OutputTransform(swayName: o["transform"]?.stringValue ?? "normal"),
                  let rect = o["rect"]?.objectValue, let width = rect["width"]?.numberValue, let height = rect["height"]?.numberValue,
                  width > 0, height > 0 else { return nil }
            return ScreenOutput(name: name, transform: transform, size: SurfaceSize(width: width, height: height))
        }
    }

    /// A window's app: its Wayland `app_id`, else its X11 class (Xwayland); nil for a
    /// workspace or an output.
    static func app(of node: JSONValue) -> String? {
        guard let object = node.objectValue else { return nil }
        if let id = object["app_id"]?.stringValue, !id.isEmpty { return id }
        if let cls = object["window_properties"]?.objectValue?["class"]?.stringValue, !cls.isEmpty { return cls }
        return nil
    }
}

/// Hyprland's event socket (`.socket2.sock`) sends lines `EVENT>>DATA`; `activewindow>>CLASS,TITLE`
/// tells the focus (`activewindow>>,` when no window has it). Its request socket
/// (`.socket.sock`) answers `j/activewindow` with the window as JSON, then closes.
enum HyprlandIPC {
    /// What a line of the event socket says about the focus (see ``SwayIPC/focus(type:payload:)``).
    static func focus(line: String) -> String?? {
        guard line.hasPrefix("activewindow>>") else { return nil }
        let data = line.dropFirst("activewindow>>".count)
        let cls = data.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return .some(cls.isEmpty ? nil : cls)
    }

    /// The focused window's class from the answer to `j/activewindow` (`{}` when there is none).
    static func focus(activeWindowReply: [UInt8]) -> String?? {
        guard let json = try? JSONValue.parse(activeWindowReply), let object = json.objectValue else { return nil }
        guard let cls = object["class"]?.stringValue, !cls.isEmpty else { return .some(nil) }
        return .some(cls)
    }

    /// What gestured asks the request socket.
    enum Request: String {
        case activeWindow = "j/activewindow"
        case monitors = "j/monitors"
        /// The output touch devices map to (`input:touchdevice:output`).
        case touchOutput = "j/getoption input:touchdevice:output"
    }

    /// Whether an event line says the outputs may have changed: a monitor added or removed,
    /// the configuration (which sets their transform) reloaded.
    static func outputsChanged(line: String) -> Bool {
        ["monitoradded>>", "monitoraddedv2>>", "monitorremoved>>", "configreloaded>>"].contains { line.hasPrefix($0) }
    }

    /// The enabled monitors in the answer to `j/monitors`: `width` and `height` are the mode's
    /// pixels, unturned; the size as the user sees it is that over `scale`, turned by
    /// `transform` (0–7, as `wl_output`'s). nil when the answer is not a list.
    static func outputs(monitorsReply: [UInt8]) -> [ScreenOutput]? {
        guard let json = try? JSONValue.parse(monitorsReply), let list = json.arrayValue else { return nil }
        return list.compactMap { item in
            guard let o = item.objectValue, o["disabled"]?.boolValue != true, let name = o["name"]?.stringValue,
                  let width = o["width"]?.numberValue, let height = o["height"]?.numberValue, width > 0, height > 0,
                  case let number = o["transform"]?.numberValue ?? 0, number.isFinite, let raw = Int(exactly: number),
                  let transform = OutputTransform(rawValue: raw) else { return nil }
            let scale = o["scale"]?.numberValue ?? 1
            let pixels = SurfaceSize(width: width / (scale > 0 ? scale : 1), height: height / (scale > 0 ? scale : 1))
            return ScreenOutput(name: name, transform: transform, size: transform.seen(pixels))
        }
    }

    /// The output named in the answer to `j/getoption input:touchdevice:output` (`{"str": "eDP-1"}`);
    /// `.some(nil)` when it names none (empty, or `[[Auto]]`); nil when the answer is not one.
    static func touchOutput(optionReply: [UInt8]) -> String?? {
        guard let json = try? JSONValue.parse(optionReply), let object = json.objectValue,
              let value = object["str"]?.stringValue else { return nil }
        return .some(value.isEmpty || value.hasPrefix("[[") ? nil : value)
    }

    /// The instance's directory: `$XDG_RUNTIME_DIR/hypr/SIGNATURE` (Hyprland 0.40 and later),
    /// else `/tmp/hypr/SIGNATURE`.
    static func directories(environment: [String: String]) -> [String] {
        guard let signature = environment["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty, !signature.contains("/") else { return [] }
        var out: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { out.append("\(runtime)/hypr/\(signature)") }
        out.append("/tmp/hypr/\(signature)")
        return out
    }
}
