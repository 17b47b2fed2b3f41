// swift-tools-version: 6.1
// The libFuzzer binary for every entry point that reads untrusted input (FuzzEntryPoints). A package of its own,
// because a fuzz binary has no main (libFuzzer brings it) and would break the main package's
// `swift build`. Build and run with ../scripts/fuzz.sh (or `make fuzz`).
import PackageDescription

let package = Package(
    name: "gestured-fuzz",
    dependencies: [.package(name: "gestured", path: "..")],
    targets: [
        // One binary for every entry point: GESTURED_FUZZ_TARGET chooses (scripts/fuzz.sh sets it).
        .executableTarget(name: "gestured-fuzz", dependencies: [.product(name: "GestureFuzzing", package: "gestured")]),
    ],
    swiftLanguageModes: [.v6]
)
