import Gestures
import TouchEvents

/// A gestured configuration: which devices to use and how each maps onto the layout, the
/// region tree, and per region the gestures and what each triggers.
public struct Configuration: Sendable {
    public var devices: [DeviceRule]
    /// The named layouts (`layouts:`, or the one `layout:`), each a root region. A device whose
    /// rule names none drives the first.
    public var layouts: [RegionSpec]
    /// The first layout: the one of a configuration that has one.
    public var layout: RegionSpec {
        get { layouts[0] }
        set { layouts[0] = newValue }
    }
    /// How `gestured run` runs.
    public var service = ServiceSettings()
    /// The file it came from (for messages).
    public var path: String

    public init(devices: [DeviceRule], layout: RegionSpec, path: String) {
        self.init(devices: devices, layouts: [layout], path: path)
    }

    /// `layouts` must not be empty.
    public init(devices: [DeviceRule], layouts: [RegionSpec], path: String) {
        precondition(!layouts.isEmpty, "a configuration needs a layout")
        self.devices = devices
        self.layouts = layouts
        self.path = path
    }

    /// Every gesture of every layout.
    public var gestures: [GestureSpec] { layouts.flatMap(\.all).flatMap(\.gestures) }

    /// The layout a device under `rule` drives: the one it names, else the first.
    public func layout(for rule: DeviceRule) -> RegionSpec {
        rule.layout.flatMap { id in layouts.first { $0.id == id } } ?? layouts[0]
    }

    /// Whether a device under `rule` drives the layout `id` (as its layout, or while its screen
    /// stands portrait).
    public func drives(_ rule: DeviceRule, layout id: String) -> Bool {
        layout(for: rule).id == id || rule.portraitLayout == id
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
    /// `rotation-lock: PATH`: while this file exists, the accelerometer's turns are not
    /// followed (`rotation: auto` without a compositor that says).
    public var rotationLock: String?

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
    /// `rotation: 0 | 90 | 180 | 270`: a screen turned for good (clockwise).
    public var rotation: Rotation = .none
    /// `rotation: auto`: the screen turns, and the device's layout with it, as the compositor
    /// says of ``outputName``'s output, else as the accelerometer says (``ScreenState``).
    /// An `output-name` without a `rotation` is `auto` too.
    public var followsRotation = false
    /// `output-name: eDP-1`: the compositor's output the device's screen is (its size as the
    /// user sees it, its transform); nil: the one the compositor maps touch devices to, else
    /// its only output.
    public var outputName: String?
    /// `swap-axes: true`: the kernel's x is the panel's y (a correction, before the flips).
    public var swapAxes = false
    public var flipX = false
    public var flipY = false
    /// libinput's six-value calibration matrix; nil: the device's own (udev's
    /// `LIBINPUT_CALIBRATION_MATRIX`), or none.
    public var calibration: [Double]?
    /// The id of the layout the device drives (`layout:`, or `layout: {landscape: …}`); nil:
    /// the first.
    public var layout: String?
    /// The layout driven while the screen is taller than wide (`layout: {portrait: …}`); nil:
    /// ``layout``, its frames stretched to the screen as turned.
    public var portraitLayout: String?
    /// Whether the screen the device maps onto can turn while the service runs
    /// (`rotation: auto`, `output-name`) on a device that is not a touchpad.
    public func turns(kind: DeviceKind) -> Bool { (followsRotation || outputName != nil) && kind != .touchpad }
    /// `own: true`: the service grabs the device and a uinput twin stands in for it; gestures
    /// that own their touches take them from the apps (docs/ownership.md).
    public var own = false
    /// `hold-back: 60ms` (owned touchscreens): how long a new touch is kept from the apps
    /// while it may still become part of an owned gesture.
    public var holdBack = Duration.zero
    /// `end-owned-touches: auto | cancel | lift` (owned touchscreens): how a touch the apps had
    /// ends when an owning gesture takes it — as the running compositor needs (`auto`, the
    /// default), libinput's cancel, or a plain lift (for compositors that drop the cancel).
    public var ending = OwnedTouchEnding.automatic
    public var line = 0

    /// What owning the device means under this rule, or nil when it is not owned.
    public var ownership: TouchOwnership? { own ? TouchOwnership(holdBack: holdBack, ending: ending) : nil }

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
    /// `pass-through: true`: on an owned device, the touches of this region's gestures (and
    /// its children's) reach the apps, whatever their actions; nil: as the parent says.
    public var passThrough: Bool?
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
    /// The recognizer: its kind and parameters, as a socket client's registration has them.
    public var recognizer: RecognizerSpec
    public var kind: GestureKind { recognizer.kind }
    public var action: ActionSpec?
    /// `pass-through: true` lets the gesture's touches reach the apps on an owned device
    /// (`false` takes them, whatever its action); nil: as its region says, else by its action
    /// (``ActionSpec/takesTouches``).
    public var passThrough: Bool?
    /// When the gesture is recognised at all (`when: {app: [...]}`); nil: always.
    public var when: GestureCondition?
    public var line = 0

    public init(kind: GestureKind) {
        recognizer = RecognizerSpec(kind: kind)
    }

    /// Whether the configuration binds `fingers` fingers to this gesture: it writes a finger
    /// count (`touches`, `min-touches`, `max-touches`) and its recognizer takes `fingers`. A
    /// count left to the defaults binds nothing: on GNOME and KDE an owned touchscreen leaves
    /// the three-finger swipes their shell animates to it unless a gesture of its layout binds three.
    public func binds(fingers: Int) -> Bool {
        guard recognizer.numbers[.touches] != nil || recognizer.numbers[.minTouches] != nil || recognizer.numbers[.maxTouches] != nil
        else { return false }
        return makeRecognizer().fingerCounts?.contains(fingers) == true
    }

    /// Whether the gesture takes its touches from the apps on an owned device: it passes them
    /// through if it says so, else if its region (`inherited`, from its ancestors) says so, else
    /// when its action neither runs a program nor drives the virtual keyboard or pointer.
    public func ownsTouches(inheritedPassThrough inherited: Bool?) -> Bool {
        !(passThrough ?? inherited ?? !(action?.takesTouches ?? false))
    }
}

/// When a gesture takes part: `when: {app: ["firefox", "org.mozilla.firefox"]}`.
public struct GestureCondition: Sendable, Equatable {
    /// Apps, one of which must have the focus: a Wayland `app_id` or an X11 window class,
    /// compared without regard to case.
    public var apps: [String]

    public init(apps: [String]) {
        self.apps = apps
    }

    /// True when `focusedApp` is one of ``apps`` (never when no app is known to have focus).
    public func holds(focusedApp: String?) -> Bool {
        guard let focusedApp else { return false }
        let focused = focusedApp.lowercased()
        return apps.contains { $0.lowercased() == focused }
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
    /// A chord on the virtual keyboard (`key: "leftmeta+right"`): key codes, pressed in this
    /// order and released in reverse.
    public var key: KeyChord?
    /// Keys held while a continuous gesture lasts (`hold: "leftalt"`): pressed at `began`,
    /// released at `ended` or `cancelled` (and whenever the service lets go: a device removed,
    /// a reload, a stop).
    public var hold: KeyChord?
    /// A click of the virtual pointer's button.
    public var button: PointerButton?
    /// The virtual pointer's wheel, from a pan's movement.
    public var scroll: ScrollAxes?
    /// The virtual pointer's relative motion, from a pan's movement (`pointer: move`).
    public var pointer = false
    /// The gesture replayed on the virtual touchpad (`touchpad: {swipe: 3}`, `touchpad: {pinch: 2}`),
    /// so that the compositor's libinput reports a touchpad gesture and the desktop animates it.
    public var touchpad: TouchpadAction?

    public init() {}

    /// True when it needs the virtual keyboard.
    public var usesKeyboard: Bool { key != nil || hold != nil }
    /// True when it needs the virtual pointer.
    public var usesPointer: Bool { button != nil || scroll != nil || pointer }
    /// True when it needs the virtual touchpad.
    public var usesTouchpad: Bool { touchpad != nil }
    /// True when, on an owned device, its gesture takes its touches from the apps by default:
    /// a program, keys or the pointer act on the desktop, so the app beneath must not act on
    /// the same touches. An `emit`-only action (socket clients) shares them.
    public var takesTouches: Bool { exec != nil || usesKeyboard || usesPointer || usesTouchpad }

    /// The action in words, as the touch bench and `replay` show it: `exec /usr/bin/kiosk-ctl
    /// menu`, `key leftmeta+right`, `emit to socket clients`.
    public var summary: String {
        var parts: [String] = []
        if let argv = exec { parts.append("exec " + argv.joined(separator: " ")) }
        if let key { parts.append("key \(key)") }
        if let hold { parts.append("hold \(hold)") }
        if let button { parts.append("button \(button.rawValue)") }
        if let scroll { parts.append("scroll \(scroll.rawValue)") }
        if pointer { parts.append("pointer move") }
        if let touchpad { parts.append("touchpad \(touchpad)") }
        if emit { parts.append("emit to socket clients") }
        return parts.joined(separator: ", ")
    }

    /// Whether the action runs for `gesture`, as the service decides it: a tap's or a swipe's
    /// at its recognition, a continuous gesture's at the states it names (``on``).
    public func runs(for gesture: Gesture) -> Bool {
        gesture.kind.isDiscrete ? gesture.state == .recognized : on.contains(gesture.state)
    }
}

/// A touchscreen gesture replayed as a touchpad gesture on gestured's virtual touchpad:
/// `touchpad: {swipe: 3}` (a pan's movement, as a swipe of 3 or 4 fingers) or
/// `touchpad: {pinch: 2}` (a pinch's spread, as a two-finger pinch), with `stroke`.
public struct TouchpadAction: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// 3 or 4 fingers: libinput swipes from three (two fingers scroll).
        case swipe(fingers: Int)
        /// Two fingers (with more fingers than the virtual touchpad's two slots, libinput
        /// reports a swipe).
        case pinch
    }

    /// libinput's unaccelerated gesture units a mm of touchpad: 1000 dpi (39.37 a mm) times its
    /// touchpad constant (`TP_MAGIC_SLOWDOWN` 0.2968 and the 0.9 baseline of
    /// `filter-touchpad.c`): 10.52. Measured in the VM lane: 69.5 units for 6.75 mm (2% under).
    public static let libinputUnitsPerMillimetre = 1000 / 25.4 * 0.2968 * 0.9

    /// How far the virtual touchpad's fingers move, in mm, for a stroke across the whole screen:
    /// its width across, its height down. GNOME's full page — one workspace, 400 × 300 of
    /// libinput's unaccelerated units (`TOUCHPAD_BASE_WIDTH` and `_HEIGHT` in its
    /// `swipeTracker.js`) — is 38.0 × 28.5 mm.
    public static let defaultStroke = SurfaceSize(width: 400 / libinputUnitsPerMillimetre, height: 300 / libinputUnitsPerMillimetre)

    public var kind: Kind
    /// `stroke: [across, down]` in mm (default ``defaultStroke``); a negative value runs that
    /// axis the other way (a desktop whose natural scrolling turns touchpad swipes round).
    public var stroke = TouchpadAction.defaultStroke

    public init(kind: Kind, stroke: SurfaceSize = TouchpadAction.defaultStroke) {
        self.kind = kind
        self.stroke = stroke
    }

    public var description: String {
        let what = switch kind {
        case .swipe(let fingers): "swipe of \(fingers) fingers"
        case .pinch: "pinch"
        }
        return stroke == Self.defaultStroke ? what : what + " (stroke \(formatDecimal(stroke.width, places: 2, trailingZeros: .trimAll)) x \(formatDecimal(stroke.height, places: 2, trailingZeros: .trimAll)) mm)"
    }
}

/// Keys as a configuration names them, `leftctrl+equal`: their codes in the order written.
public struct KeyChord: Sendable, Equatable, CustomStringConvertible {
    public var codes: [UInt16]

    public init(codes: [UInt16]) {
        self.codes = codes
    }

    /// `leftctrl+equal`.
    public var description: String { codes.map { KeyNames.name($0) ?? "\($0)" }.joined(separator: "+") }
}

/// The virtual pointer's buttons.
public enum PointerButton: String, Sendable, CaseIterable {
    case left, right, middle

    /// `BTN_LEFT`, `BTN_RIGHT`, `BTN_MIDDLE`.
    public var code: UInt16 {
        switch self {
        case .left: KeyCode.left
        case .right: KeyCode.right
        case .middle: KeyCode.middle
        }
    }
}

/// Which way a `scroll` action turns the wheel.
public enum ScrollAxes: String, Sendable, CaseIterable {
    case vertical, horizontal, both
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
