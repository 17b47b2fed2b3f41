// swift-tools-version: 6.1
//
// gestured — touch gestures for Linux touchscreens and touchpads.
//
// Modules, in the order data flows through them (ARCHITECTURE.md says what each
// may import):
//   CLibevdev, CLibinput, CLinux   C shims, one per system library. Only TouchInput and SystemLoop import them.
//   TouchEvents         pure Swift, no I/O: Instant, kernel events and names, the device description, the decoder.
//   TouchRecordings     the recording formats (libinput-record YAML v1, evemu 1.x): readers and writers.
//   Gestures            pure Swift, no I/O, no clock: regions, recognizers, the arena, the pipeline, handlers.
//   GesturedConfiguration  the YAML configuration: devices and their mapping, the region tree, gestures, actions.
//   GesturedRuntime     your closures on live devices (GestureRuntime: seat, hotplug, timers, a ServiceLifecycle
//                       Service); one device session (rule → surface → mapping → layout → decoder → pipeline); replay.
//   SystemLoop          the epoll loop, Unix and TCP sockets, child processes, the monotonic clock.
//   GesturedHTTP        a small HTTP/1.1 and WebSocket server on the loop (the live view, the metrics).
//   GesturedView        the live view: its page, its messages, and a recording played at its pace (`gestured view`).
//   TouchInput          Linux input: libinput seat discovery and hotplug, evdev reading, uinput, the inventory.
//   TouchInputTesting   test doubles for TouchInput (a pipe-fed device, a hand-driven monitor).
//   GestureProtocol     protocol v1 of the client socket: the gesture event model (--json, socket, actions), JSON, messages.
//   GesturedClient      other processes' side of the socket: a client with typed events and owner-bound region closures.
//   GesturedService     `gestured run`: devices to gestures to actions (programs, virtual keyboard and pointer, per-app
//                       rules), socket clients and stdout.
//   GestureTesting      for tests, users' too: a manual clock, scripted touches, a gesture recorder.
//   GestureEvaluation   judging gesture logs against labelled recordings (`gestured evaluate`; not a product).
//   GestureFuzzing      the fuzz targets' entry points (a product for Fuzz/ only).
//   GesturedCLI         the `gestured` commands, as a library so tests can run them in-process.
//   gestured            the executable: a thin @main over GesturedCLI.
//   gestured-bench      throughput, latency, allocation and memory benchmark (release: `make bench`).
//   gestured-abuse      hostile socket clients against a running service (make test short run, make soak),
//                       and the benchmark of socket clients' regions in a layout (make bench).
//   CAllocationCounter  counts the benchmark's heap allocations (interposes malloc; bench only).
//   gestures-example    a small program on the public API (examples/GesturesExample).
//   live-kiosk          closures on live devices with only the public products (examples/LiveKiosk).
import PackageDescription

let package = Package(
    name: "gestured",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .library(name: "TouchEvents", targets: ["TouchEvents"]),
        .library(name: "TouchRecordings", targets: ["TouchRecordings"]),
        .library(name: "Gestures", targets: ["Gestures"]),
        .library(name: "GesturedRuntime", targets: ["GesturedRuntime"]),
        .library(name: "GestureTesting", targets: ["GestureTesting"]),
        .library(name: "GesturedConfiguration", targets: ["GesturedConfiguration"]),
        .library(name: "GesturedClient", targets: ["GesturedClient"]),
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
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CLibinput",
            pkgConfig: "libinput",
            providers: [.apt(["libinput-dev", "libudev-dev"])]
        ),
        .systemLibrary(name: "CLinux"),
        .target(name: "TouchEvents"),
        .target(
            name: "TouchRecordings",
            dependencies: ["TouchEvents", .product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "Gestures",
            dependencies: ["TouchEvents", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "GestureProtocol", dependencies: ["Gestures", "TouchEvents"]),
        .target(
            name: "GesturedClient",
            dependencies: ["GestureProtocol", "Gestures", "TouchEvents", "SystemLoop", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "GesturedConfiguration",
            dependencies: ["Gestures", "TouchEvents", .product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "GesturedRuntime",
            dependencies: ["Gestures", "GesturedConfiguration", "TouchEvents", "TouchRecordings", "SystemLoop", "TouchInput",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
        ),
        .target(
            name: "GestureTesting",
            dependencies: ["Gestures", "TouchEvents", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "GestureFuzzing",
            dependencies: ["Gestures", "GestureProtocol", "GesturedConfiguration", "TouchEvents", "TouchRecordings"]
        ),
        .target(name: "GestureEvaluation", dependencies: ["Gestures", "GestureProtocol", "TouchEvents"]),
        .target(name: "SystemLoop", dependencies: ["CLinux", "TouchEvents"]),
        .target(name: "GesturedHTTP", dependencies: ["SystemLoop", "TouchEvents", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "GesturedView",
            dependencies: ["GesturedHTTP", "GesturedRuntime", "GesturedConfiguration", "Gestures", "GestureProtocol", "SystemLoop",
                           "TouchEvents", "TouchRecordings", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TouchInput",
            dependencies: ["TouchEvents", "CLibevdev", "CLibinput", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "TouchInputTesting", dependencies: ["TouchInput", "TouchEvents"]),
        .target(
            name: "GesturedService",
            dependencies: ["SystemLoop", "TouchInput", "GesturedRuntime", "GestureProtocol", "Gestures", "GesturedConfiguration", "TouchEvents",
                           "GesturedHTTP", "GesturedView",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "CoreMetrics", package: "swift-metrics"),
                           .product(name: "Prometheus", package: "swift-prometheus")]
        ),
        .target(
            name: "GesturedCLI",
            dependencies: [
                "TouchEvents", "TouchRecordings", "SystemLoop", "TouchInput", "Gestures", "GesturedRuntime", "GesturedConfiguration",
                "GesturedService", "GestureProtocol", "GesturedClient", "GestureEvaluation", "GesturedView",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "gestured", dependencies: ["GesturedCLI"]),
        .executableTarget(
            name: "gestures-example",
            dependencies: ["Gestures", "GesturedRuntime", "GesturedConfiguration"],
            path: "examples/GesturesExample"
        ),
        .executableTarget(
            name: "live-kiosk",
            dependencies: ["Gestures", "GesturedRuntime", "TouchEvents", .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            path: "examples/LiveKiosk"
        ),
        // Hostile socket clients against a running service (make test's short run, make soak).
        .executableTarget(name: "gestured-abuse", dependencies: ["SystemLoop", "GesturedService", "GestureProtocol", "Gestures"]),
        // Counts heap allocations for the benchmark (interposes malloc): never in the product.
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "gestured-bench",
            dependencies: ["TouchEvents", "TouchRecordings", "Gestures", "CAllocationCounter", "GesturedRuntime", "GestureTesting", "GestureProtocol",
                           "TouchInputTesting", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "TouchEventsTests", dependencies: ["TouchEvents"]),
        .testTarget(name: "TouchRecordingsTests", dependencies: ["TouchRecordings", "TouchEvents"]),
        .testTarget(name: "TouchInputTests", dependencies: ["TouchInput", "TouchEvents", "TouchRecordings", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "SystemLoopTests", dependencies: ["SystemLoop", "TouchEvents"]),
        .testTarget(name: "GesturedHTTPTests", dependencies: [
            "GesturedHTTP", "GesturedView", "GesturedRuntime", "Gestures", "SystemLoop", "TouchEvents", "TouchRecordings",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "GestureProtocolTests", dependencies: ["GestureProtocol", "Gestures", "GesturedRuntime", "TouchEvents", "TouchRecordings"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "GestureProtocol", "GestureTesting", "GesturedRuntime", "TouchEvents", "TouchRecordings"]),
        .testTarget(name: "FaultInjectionTests", dependencies: ["TouchEvents", "Gestures", "GesturedConfiguration", "GestureTesting", "GestureFuzzing"]),
        .testTarget(name: "GesturedConfigurationTests", dependencies: ["GesturedConfiguration", "Gestures", "GestureTesting", "TouchEvents", "TouchInputTesting"]),
        .testTarget(name: "GesturedServiceTests", dependencies: ["GesturedService", "GestureProtocol", "GesturedClient", "SystemLoop", "TouchInput", "TouchInputTesting", "Gestures", "GestureTesting", "GesturedRuntime", "GesturedConfiguration", "TouchEvents", "TouchRecordings", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "GesturedRuntimeTests", dependencies: [
            "GesturedRuntime", "Gestures", "GestureTesting", "SystemLoop", "TouchEvents", "TouchInput", "TouchInputTesting",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "GesturedCLITests", dependencies: ["GesturedCLI", "GesturedRuntime", "GestureEvaluation", "Gestures", "TouchRecordings", "TouchEvents", "TouchInput", "TouchInputTesting", "SystemLoop"]),
    ],
    swiftLanguageModes: [.v6]
)
