// swift-tools-version: 6.1
// libFuzzer targets, one per entry point that reads untrusted input. A package of its own,
// because a fuzz target has no main (libFuzzer brings it) and would break the main package's
// `swift build`. Build and run with ../scripts/fuzz.sh (or `make fuzz`).
import PackageDescription

let package = Package(
    name: "gestured-fuzz",
    dependencies: [.package(name: "gestured", path: "..")],
    targets: [
        .executableTarget(name: "fuzz-libinput-record", dependencies: [.product(name: "GestureTesting", package: "gestured")]),
        .executableTarget(name: "fuzz-evemu", dependencies: [.product(name: "GestureTesting", package: "gestured")]),
        .executableTarget(name: "fuzz-decoder", dependencies: [.product(name: "GestureTesting", package: "gestured")]),
        .executableTarget(name: "fuzz-configuration", dependencies: [.product(name: "GestureTesting", package: "gestured")]),
    ],
    swiftLanguageModes: [.v6]
)
