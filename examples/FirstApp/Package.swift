// swift-tools-version: 6.1
//
// A new app on gestured, set up as the README says: a 1280 x 800 layout in the app's own
// pixels with one button near the top right. `scripts/check-new-package.sh` builds it against
// this checkout (as `../gestured`) and replays a touchscreen recording tapped on the button.
import PackageDescription

let package = Package(
    name: "FirstApp",
    dependencies: [
        .package(path: "../gestured"),
    ],
    targets: [
        .executableTarget(name: "FirstApp", dependencies: [
            .product(name: "Gestures", package: "gestured"),
            .product(name: "GestureRuntime", package: "gestured"),
            .product(name: "GestureReplay", package: "gestured"),
        ]),
    ]
)
