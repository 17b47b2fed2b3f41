import Gestures
import TouchEvents

/// A gestured configuration: which devices to use and how each maps onto the layout, the
/// region tree, and per region the gestures and what each triggers.
public struct Configuration: Sendable {
    public var devices: [DeviceRule]
    public var layout: RegionSpec
    /// How `gestured run` runs.
    public var service = ServiceSettings()
    /// The file it came from (for messages).
    public var path: String

    public init(devices: [DeviceRule], layout: RegionSpec, path: String) {
        self.devices = devices
        self.layout = layout
        self.path = path
    }
}

/// The service's own settings (`service:` in the file).
public struct ServiceSettings: Sendable, Equatable {
    /// The libinput seat whose devices are used.
    public var seat = "seat0"
    /// The client socket (default: `$RUNTIME_DIRECTORY/gestured.sock`, else `/run/gestured/gestured.sock`).
    public var socket: String?
    /// The group that may connect to the socket (mode 0660).
    public var socketGroup: String?
    /// How long an action may run before it is stopped (`action-timeout`, in milliseconds).
    public var actionTimeout = Duration.milliseconds(5000)
    /// Actions running at once at most; more are skipped, with a warning.
    public var maxActions = 4
    /// Running actions as root must be asked for.
    public var actionsAsRoot = false

    public init() {}
}

/// Which devices a rule applies to, and how their surface maps onto the layout.
public struct DeviceRule: Sendable, Equatable {
    /// A glob (`*`, `?`) over the device name.
    public var name: String?
    public var kind: DeviceKind?
    public var node: String?
    /// The surface size in mm, for devices that report no resolution.
    public var size: SurfaceSize?
    /// Layout units the surface maps onto.
    public var output: SurfaceSize?
    public var rotation: Rotation = .none
    public var flipX = false
    public var flipY = false
    /// libinput's six-value calibration matrix.
    public var calibration: [Double] = [1, 0, 0, 0, 1, 0]
    public var line = 0

    public init() {}

    /// True when every criterion given matches.
    public func matches(name deviceName: String, kind deviceKind: DeviceKind, node deviceNode: String?) -> Bool {
        if let name, !glob(name, matches: deviceName) { return false }
        if let kind, kind != deviceKind { return false }
        if let node, node != deviceNode { return false }
        return true
    }
}

/// A region of the layout as the configuration describes it.
public struct RegionSpec: Sendable, Equatable {
    public var id: String
    /// In the parent's coordinates; nil on the root means "the whole output".
    public var frame: Rect?
    public var hitInsets = EdgeInsets.zero
    public var hidden = false
    public var enabled = true
    public var gestures: [GestureSpec] = []
    public var children: [RegionSpec] = []
    /// Where its id is in the file.
    public var line = 0
    public var column = 0

    public init(id: String) {
        self.id = id
    }

    /// This region and every region below it.
    public var all: [RegionSpec] { [self] + children.flatMap(\.all) }
}

/// A gesture on a region: its recognizer's parameters and its action.
public struct GestureSpec: Sendable, Equatable {
    public var kind: GestureKind
    /// Parameters as given, by their configuration names (`max-movement`), already checked.
    public var numbers: [String: Double] = [:]
    public var directions: Set<SwipeDirection>?
    public var edges: Set<Edge>?
    public var simultaneousWith: Set<GestureKind> = []
    public var action: ActionSpec?
    public var line = 0

    public init(kind: GestureKind) {
        self.kind = kind
    }
}

/// What a gesture triggers. The service runs them; replays only show them.
public struct ActionSpec: Sendable, Equatable {
    /// A program and its arguments, run without a shell; the gesture's values go into its
    /// environment (`GESTURE_KIND`, `GESTURE_REGION`, …), never into the arguments.
    public var exec: [String]?
    /// Send the gesture event to socket clients.
    public var emit = false
    /// For continuous gestures: on which states (default: `began`).
    public var on: Set<GestureState> = [.began]

    public init() {}
}

/// `*` any run of characters, `?` any one; everything else literal.
func glob(_ pattern: String, matches text: String) -> Bool {
    let p = Array(pattern), t = Array(text)
    var pi = 0, ti = 0, star = -1, mark = 0
    while ti < t.count {
        if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
            pi += 1
            ti += 1
        } else if pi < p.count && p[pi] == "*" {
            star = pi
            mark = ti
            pi += 1
        } else if star >= 0 {
            pi = star + 1
            mark += 1
            ti = mark
        } else {
            return false
        }
    }
    while pi < p.count && p[pi] == "*" { pi += 1 }
    return pi == p.count
}
