#!/bin/sh
# A new package on this one, as the README says (examples/FirstApp: a path dependency named
# `gestured`, the Gestures and GestureRuntime products), built from scratch in a temporary
# folder and run on a touchscreen recording tapped at (1200, 40) of its 1280 x 800 layout,
# without a configuration: every tap must reach the button, with no warning. Then an app on the
# GestureRuntime product alone (closures on live devices): it must build without Yams, the YAML
# library only configurations and recordings need. A few minutes on 2 cores (each compiles the
# dependencies it names).
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$repo" "$work/gestured"
cp -R examples/FirstApp "$work/FirstApp"
rm -rf "$work/FirstApp/.build"
recording="$repo/fixtures/variants/Atmel maXTouch Touchscreen.1-finger-fast-taps.top-right.evemu"
cd "$work/FirstApp"
swift build 2>&1 | tail -n 3
out=$(swift run --skip-build FirstApp "$recording")
echo "$out"
taps=$(echo "$out" | grep -c '^save tapped at ' || true)
if [ "$taps" -ne 9 ] || echo "$out" | grep -q '^warning:'; then
    echo "new-package: FAIL: expected the recording's 9 taps on the button and no warning" >&2
    exit 1
fi
echo "new-package: a new package's 1280 x 800 layout got all 9 taps at (1200, 40) from the recording"

# new_app NAME PRODUCT...: a package NAME in $work, one executable target on gestured's
# PRODUCTs; its main.swift is what comes on stdin.
new_app() {
    name=$1
    shift
    mkdir -p "$work/$name/Sources/$name"
    products=""
    for product in "$@"; do products="$products .product(name: \"$product\", package: \"gestured\"),"; done
    cat > "$work/$name/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "$name",
    dependencies: [.package(path: "../gestured")],
    targets: [.executableTarget(name: "$name", dependencies: [$products])]
)
SWIFT
    cat > "$work/$name/Sources/$name/main.swift"
}

# An app on the runtime alone.
new_app ClosuresOnly Gestures GestureRuntime <<'SWIFT'
import GestureRuntime
import Gestures

let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
root.onTap { tap in print("tap at", tap.location) }
if CommandLine.arguments.count > 1 {
    let runtime = try GestureRuntime(layout: Layout(root: root), screen: .rootFrame)
    try runtime.run()
}
print("built")
SWIFT
cd "$work/ClosuresOnly"
swift build 2>&1 | tail -n 3
[ "$(swift run --skip-build ClosuresOnly)" = built ]
if find .build -name 'Yams*.swiftmodule' -o -name 'Yams*.o' | grep -q .; then
    echo "new-package: FAIL: an app on GestureRuntime alone compiled Yams" >&2
    exit 1
fi
echo "new-package: an app on GestureRuntime alone builds without Yams"

# A socket client on GestureClient and GestureProtocol alone: it speaks the gesture vocabulary
# (kinds, values, Rect) without compiling the recognizers, the arena or Yams. (SwiftPM makes an
# empty folder for every target of the package; only a module or object file is compiled code.)
new_app SocketClient GestureClient GestureProtocol <<'SWIFT'
import GestureClient
import GestureProtocol

let panel = RegionRequest(id: "panel", frame: Rect(x: 40, y: 20, width: 120, height: 60), hitInsets: EdgeInsets(all: -5),
                          gestures: [GestureRequest(kind: .swipe, directions: [.left, .right]), GestureRequest(kind: .tap)])
let line = #"{"time": 0.5, "kind": "swipe", "state": "recognized", "region": "panel", "touches": 1, "x": 60.0, "y": 40.0, "dx": -30.0, "dy": 1.0, "vx": -400.0, "vy": 10.0, "direction": "left", "decided_mm": 8.0, "decided_ms": 40.0}"#
let event = try GestureEvent.parse(Array(line.utf8))
guard let swipe = event.swipe, swipe.direction == .left else { fatalError("the line's swipe was not read") }
if CommandLine.arguments.count > 1 {
    let client = try GestureClient()
    try client.register(panel) { gesture in print(gesture.kind, gesture.state) }
    try client.start()
    client.run()
}
print("built: \(panel.id) swiped \(swipe.direction) after \(swipe.decidedAfterMillimetres) mm")
SWIFT
cd "$work/SocketClient"
swift build 2>&1 | tail -n 3
out=$(swift run --skip-build SocketClient)
[ "$out" = "built: panel swiped left after 8.0 mm" ] || { echo "new-package: FAIL: the socket client printed: $out" >&2; exit 1; }
for module in Gestures Yams; do
    if find .build -name "$module.swiftmodule" -o -name "$module.o" | grep -q .; then
        echo "new-package: FAIL: a socket client on GestureClient compiled $module" >&2
        exit 1
    fi
done
if find .build -name 'Arena.swift.o' | grep -q .; then
    echo "new-package: FAIL: a socket client on GestureClient compiled the arena" >&2
    exit 1
fi
echo "new-package: a socket client on GestureClient builds without the recognizers, the arena or Yams"
