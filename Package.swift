// swift-tools-version: 6.1
//
// gestured — touch gestures for Linux touchscreens and touchpads.
//
// Sources/ is grouped by layer, in the order data flows through them; a module imports only
// from its own layer and those before it (ARCHITECTURE.md says what each may import):
//   1-Shims     CLibevdev, CLibinput, CLinux, CSDBus: C shims, one per system library (only
//               TouchInput, SystemLoop and SystemBus import them).
//   2-Events    TouchEvents (pure Swift, no I/O: Instant, kernel events and names, the device
//               description, the decoder); TouchRecordings (libinput-record YAML v1, evemu 1.x);
//               DeviceQuirks (libinput's quirks files: parsed and matched to a device).
//   3-Core      GestureVocabulary: geometry, gesture kinds and their values, recognizer
//               descriptions (shared with the protocol and a client). Gestures: pure Swift, no
//               I/O, no clock: regions, the contact filter, recognizers, the arena, the pipeline,
//               handlers, gesture events. TouchScripts: scripted touches
//               and their grammar in words (`gestured synth`'s, and the test kit's).
//   4-Runtime   SystemLoop (the epoll loop, sockets, child processes, the monotonic clock); SystemBus
//               (the system bus through sd-bus, for `gestured run --dbus`);
//               TouchInput (libinput seat and hotplug, evdev reading, uinput); GestureConfiguration
//               (the YAML configuration); GestureRuntime (your closures on live devices, one device
//               session for live devices and recordings; no YAML); GestureReplay (recordings through
//               the same session).
//   5-Service   GestureProtocol (protocol v1: the gesture event model, JSON, messages); GestureHTTP
//               (HTTP/1.1 and WebSocket on the loop); GestureView (the live view); GestureService
//               (`gestured run`: a composition root over the client hub, the action dispatcher and
//               observability); GestureClient (other processes' side of the socket).
//   6-Commands  GestureEvaluation (judging gesture logs against labelled recordings); GestureCLI (the
//               commands, a library so tests run them in-process); gestured (a thin @main).
//   Testing     GestureTesting (for tests, users' too: a manual clock, recorders; it re-exports
//               TouchScripts);
//               TouchInputTesting (a pipe-fed device, a hand-driven monitor); GestureFuzzing (the
//               fuzz targets' entry points, for Fuzz/).
//   Tools       gestured-bench (`make bench`, the guard's workload) with CAllocationCounter (counts
//               its heap allocations); gestured-abuse (hostile socket clients, `make abuse`, `make soak`).
// examples/ holds gestures-example and live-kiosk, two programs on the public products.
import PackageDescription

let package = Package(
    name: "gestured",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .library(name: "TouchEvents", targets: ["TouchEvents"]),
        .library(name: "TouchRecordings", targets: ["TouchRecordings"]),
        .library(name: "DeviceQuirks", targets: ["DeviceQuirks"]),
        // The values a gesture carries and the geometry they are in, shared by the core, the
        // protocol and the client (Gestures re-exports it).
        .library(name: "GestureVocabulary", targets: ["GestureVocabulary"]),
        .library(name: "Gestures", targets: ["Gestures"]),
        .library(name: "GestureRuntime", targets: ["GestureRuntime"]),
        .library(name: "GestureReplay", targets: ["GestureReplay"]),
        // For an app that drives the runtime on a loop of its own (`GestureRuntime(source:…:loop:monitor:)`).
        .library(name: "SystemLoop", targets: ["SystemLoop"]),
        .library(name: "TouchInput", targets: ["TouchInput"]),
        .library(name: "GestureTesting", targets: ["GestureTesting"]),
        .library(name: "TouchScripts", targets: ["TouchScripts"]),
        .library(name: "GestureConfiguration", targets: ["GestureConfiguration"]),
        .library(name: "GestureClient", targets: ["GestureClient"]),
        // The protocol's types a client handles (GestureEvent, RegionRequest, EventFilter, Greeting).
        .library(name: "GestureProtocol", targets: ["GestureProtocol"]),
        // For Fuzz/ (a package of its own) only: the fuzz targets' entry points.
        .library(name: "GestureFuzzing", targets: ["GestureFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        // `--metrics`: Prometheus text exposition through swift-metrics.
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // `make docs`: the DocC catalogs of the library products (a plugin, linked into nothing).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // 1-Shims
        .systemLibrary(
            name: "CLibevdev",
            path: "Sources/1-Shims/CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CLibinput",
            path: "Sources/1-Shims/CLibinput",
            pkgConfig: "libinput",
            providers: [.apt(["libinput-dev", "libudev-dev"])]
        ),
        .systemLibrary(name: "CLinux", path: "Sources/1-Shims/CLinux"),
        // sd-bus's object table (C macros) for the service's D-Bus interface; libsystemd-dev.
        .target(name: "CSDBus", path: "Sources/1-Shims/CSDBus", linkerSettings: [.linkedLibrary("systemd")]),

        // 2-Events
        .target(name: "TouchEvents", path: "Sources/2-Events/TouchEvents"),
        .target(name: "DeviceQuirks", dependencies: ["TouchEvents"], path: "Sources/2-Events/DeviceQuirks"),
        .target(
            name: "TouchRecordings",
            dependencies: ["TouchEvents", .product(name: "Yams", package: "Yams")],
            path: "Sources/2-Events/TouchRecordings"
        ),

        // 3-Core
        .target(name: "GestureVocabulary", dependencies: ["TouchEvents"], path: "Sources/3-Core/GestureVocabulary"),
        .target(
            name: "Gestures",
            dependencies: ["GestureVocabulary", "TouchEvents", .product(name: "Logging", package: "swift-log")],
            path: "Sources/3-Core/Gestures"
        ),
        .target(name: "TouchScripts", dependencies: ["Gestures", "TouchEvents"], path: "Sources/3-Core/TouchScripts"),

        // 4-Runtime
        .target(name: "SystemLoop", dependencies: ["CLinux", "TouchEvents"], path: "Sources/4-Runtime/SystemLoop"),
        .target(name: "SystemBus", dependencies: ["CSDBus", "SystemLoop", "TouchEvents"], path: "Sources/4-Runtime/SystemBus"),
        .target(
            name: "TouchInput",
            dependencies: ["TouchEvents", "CLibevdev", "CLibinput", .product(name: "Logging", package: "swift-log")],
            path: "Sources/4-Runtime/TouchInput"
        ),
        .target(
            name: "GestureConfiguration",
            dependencies: ["Gestures", "TouchEvents", "TouchRecordings", .product(name: "Yams", package: "Yams")],
            path: "Sources/4-Runtime/GestureConfiguration"
        ),
        .target(
            name: "GestureRuntime",
            dependencies: ["DeviceQuirks", "Gestures", "TouchEvents", "SystemLoop", "TouchInput",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            path: "Sources/4-Runtime/GestureRuntime"
        ),
        .target(
            name: "GestureReplay",
            dependencies: ["DeviceQuirks", "GestureRuntime", "Gestures", "TouchEvents", "TouchRecordings"],
            path: "Sources/4-Runtime/GestureReplay"
        ),

        // 5-Service
        .target(name: "GestureProtocol", dependencies: ["GestureVocabulary", "TouchEvents"], path: "Sources/5-Service/GestureProtocol"),
        .target(
            name: "GestureHTTP",
            dependencies: ["SystemLoop", "TouchEvents", .product(name: "Logging", package: "swift-log")],
            path: "Sources/5-Service/GestureHTTP"
        ),
        .target(
            name: "GestureView",
            dependencies: ["DeviceQuirks", "GestureHTTP", "GestureRuntime", "GestureReplay", "GestureConfiguration", "Gestures", "GestureProtocol", "SystemLoop",
                           "TouchEvents", "TouchRecordings", .product(name: "Logging", package: "swift-log")],
            path: "Sources/5-Service/GestureView"
        ),
        .target(
            name: "GestureService",
            dependencies: ["SystemLoop", "SystemBus", "TouchInput", "GestureRuntime", "GestureProtocol", "Gestures", "GestureConfiguration", "TouchEvents",
                           "GestureHTTP", "GestureView",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "CoreMetrics", package: "swift-metrics"),
                           .product(name: "Prometheus", package: "swift-prometheus")],
            path: "Sources/5-Service/GestureService"
        ),
        .target(
            name: "GestureClient",
            dependencies: ["GestureProtocol", "GestureVocabulary", "TouchEvents", "SystemLoop", .product(name: "Logging", package: "swift-log")],
            path: "Sources/5-Service/GestureClient"
        ),

        // 6-Commands
        .target(
            name: "GestureEvaluation",
            dependencies: ["Gestures", "GestureProtocol", "TouchEvents"],
            path: "Sources/6-Commands/GestureEvaluation"
        ),
        .target(
            name: "GestureCLI",
            dependencies: [
                "DeviceQuirks", "TouchEvents", "TouchRecordings", "SystemLoop", "TouchInput", "Gestures", "GestureRuntime", "GestureReplay", "GestureConfiguration",
                "GestureService", "GestureProtocol", "GestureClient", "GestureEvaluation", "GestureView", "TouchScripts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/6-Commands/GestureCLI"
        ),
        .executableTarget(name: "gestured", dependencies: ["GestureCLI"], path: "Sources/6-Commands/gestured"),

        // Testing
        .target(
            name: "GestureTesting",
            dependencies: ["Gestures", "TouchEvents", "TouchScripts", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Testing/GestureTesting"
        ),
        .target(name: "TouchInputTesting", dependencies: ["TouchInput", "TouchEvents", "SystemLoop"], path: "Sources/Testing/TouchInputTesting"),
        .target(
            name: "GestureFuzzing",
            dependencies: ["Gestures", "GestureProtocol", "GestureConfiguration", "TouchEvents", "TouchRecordings"],
            path: "Sources/Testing/GestureFuzzing"
        ),

        // Tools
        // Counts heap allocations for the benchmark (interposes malloc): never in the product.
        .target(name: "CAllocationCounter", path: "Sources/Tools/CAllocationCounter"),
        .executableTarget(
            name: "gestured-bench",
            dependencies: ["TouchEvents", "TouchRecordings", "Gestures", "CAllocationCounter", "GestureRuntime", "GestureTesting", "GestureProtocol", "TouchInput",
                           "TouchInputTesting", "CLibevdev", "GestureService", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Tools/gestured-bench"
        ),
        // Hostile socket clients against a running service (make test's short run, make soak).
        .executableTarget(
            name: "gestured-abuse",
            dependencies: ["SystemLoop", "GestureService", "GestureProtocol", "Gestures"],
            path: "Sources/Tools/gestured-abuse"
        ),

        // examples/
        .executableTarget(
            name: "gestures-example",
            dependencies: ["Gestures", "GestureRuntime", "GestureReplay", "GestureConfiguration"],
            path: "examples/GesturesExample"
        ),
        .executableTarget(
            name: "live-kiosk",
            dependencies: ["Gestures", "GestureRuntime", "GestureReplay", "TouchEvents", .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            path: "examples/LiveKiosk"
        ),

        // Tests/
        .testTarget(name: "TouchEventsTests", dependencies: ["TouchEvents"]),
        .testTarget(name: "DeviceQuirksTests", dependencies: ["DeviceQuirks", "TouchEvents"]),
        .testTarget(name: "TouchRecordingsTests", dependencies: ["TouchRecordings", "TouchEvents"]),
        .testTarget(name: "TouchInputTests", dependencies: ["TouchInput", "CLibevdev", "TouchEvents", "TouchRecordings", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "SystemLoopTests", dependencies: ["SystemLoop", "TouchEvents"]),
        .testTarget(name: "GestureHTTPTests", dependencies: [
            "GestureHTTP", "GestureView", "GestureService", "GestureRuntime", "GestureReplay", "GestureConfiguration", "Gestures", "SystemLoop", "TouchEvents", "TouchRecordings",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "GestureProtocolTests", dependencies: ["GestureProtocol", "Gestures", "GestureRuntime", "GestureReplay", "TouchEvents", "TouchRecordings"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "GestureProtocol", "GestureTesting", "GestureRuntime", "GestureReplay", "TouchEvents", "TouchRecordings"]),
        .testTarget(name: "FaultInjectionTests", dependencies: ["TouchEvents", "Gestures", "GestureConfiguration", "GestureTesting", "GestureFuzzing"]),
        .testTarget(name: "GestureConfigurationTests", dependencies: ["GestureConfiguration", "Gestures", "GestureTesting", "TouchEvents", "TouchInputTesting"]),
        .testTarget(name: "GestureServiceTests", dependencies: ["GestureService", "GestureProtocol", "GestureClient", "SystemLoop", "TouchInput", "TouchInputTesting", "Gestures", "GestureTesting", "GestureRuntime", "GestureReplay", "GestureConfiguration", "TouchEvents", "TouchRecordings", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "GestureRuntimeTests", dependencies: [
            "DeviceQuirks", "GestureRuntime", "Gestures", "GestureTesting", "SystemLoop", "TouchEvents", "TouchInput", "TouchInputTesting",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "GestureCLITests", dependencies: ["DeviceQuirks", "GestureCLI", "GestureRuntime", "GestureReplay", "GestureEvaluation", "Gestures", "TouchRecordings", "TouchEvents", "TouchInput", "TouchInputTesting", "SystemLoop"]),
    ],
    swiftLanguageModes: [.v6]
)
