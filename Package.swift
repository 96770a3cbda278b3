// swift-tools-version:6.0
// RadarKiosk: a fullscreen radar kiosk for Linux boards. One module per layer;
// lower layers never import higher ones (see README, "Architecture").
import PackageDescription

// Hot loops in the rasterizer are written against raw buffers whose bounds the
// code checks once per span; exclusivity checks per access would only cost time.
let hotLoopFlags: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"]),
]

let package = Package(
    name: "RadarKiosk",
    products: [
        .executable(name: "radar-kiosk", targets: ["radar-kiosk"]),
        // Preloaded by `radar-kiosk bench` only, to count heap allocations; never part of the kiosk.
        .library(name: "RadarAllocationCounter", type: .dynamic, targets: ["CAllocationCounter"]),
    ],
    targets: [
        // System libraries, found through pkg-config; Debian packages named as providers.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),

        // Counts heap allocations process-wide: linked into the allocation
        // tests, and preloaded by benchmarks as RadarAllocationCounter.
        // Position-independent by request: SwiftPM's aarch64 cross-build compiles C
        // without -fPIC, and its thread-local counter could not go into the library.
        .target(name: "CAllocationCounter", cSettings: [.unsafeFlags(["-fPIC"])]),
        // The allocation tests' view of it (skipped where counting means nothing).
        .target(name: "AllocationCounting", dependencies: ["CAllocationCounter"]),
        // Kernel uAPI headers (console, evdev, GPIO, signals) with callable ioctl wrappers.
        .target(name: "CLinux"),

        // Layers, lowest first.
        // The Linux I/O layer: owned descriptors, errno errors, files, clocks, the logger, event sources.
        .target(name: "SystemIO", dependencies: ["CLinux"]),
        .target(name: "AnimationCore", swiftSettings: hotLoopFlags),
        .target(name: "Raster", swiftSettings: hotLoopFlags),
        .target(name: "RasterIO", dependencies: ["Raster", "CPNG"]),
        .target(name: "Typography", dependencies: ["Raster", "AnimationCore", "SystemIO", "CFreeType", "CHarfBuzz"],
                swiftSettings: hotLoopFlags),
        .target(name: "Display", dependencies: ["Raster", "SystemIO", "CDRM", "CLinux"]),
        .target(name: "Input", dependencies: ["SystemIO", "CLinux"]),
        .target(name: "JSON"),
        // HTTP and HTTPS through libcurl's multi interface, driven by the loop's poll.
        .target(name: "HTTPClient", dependencies: ["CCurl", "SystemIO"]),
        .target(name: "Feed", dependencies: ["JSON", "HTTPClient", "SystemIO"]),
        // An MQTT 3.1.1 client for home automation (a broker on the network; never blocking the loop).
        .target(name: "TLS", dependencies: ["COpenSSL", "SystemIO"]),
        .target(name: "MQTT", dependencies: ["TLS", "SystemIO"]),
        // Routes, airports, airlines and aircraft types offline: the compact file, its import, the route check.
        .target(name: "StandingData", dependencies: ["Feed", "JSON", "SystemIO"]),
        // State, commands, configuration, scene, layout and the controller: what the fuzzers and most tests import.
        .target(name: "KioskModel", dependencies: ["AnimationCore", "Display", "Input", "Feed", "StandingData", "JSON", "SystemIO"]),
        // The kiosk's drawing: renderer, dial, fonts, and the one frame tick.
        .target(name: "KioskRendering", dependencies: ["KioskModel", "AnimationCore", "Raster", "RasterIO", "Typography", "Display"]),
        // The service: event loop, input sources, presenter wiring, systemd.
        .target(name: "KioskApp", dependencies: ["KioskRendering", "KioskModel", "Display", "Input", "Feed", "StandingData", "JSON", "MQTT",
                                                 "SystemIO"]),
        // Developer tools: bench, soak, audit, render, scenes, contact sheet, reference frame.
        .target(name: "KioskTools", dependencies: ["KioskRendering", "KioskModel", "AnimationCore", "Raster", "RasterIO",
                                                   "Typography", "Display", "Feed", "StandingData", "SystemIO"]),
        .executableTarget(name: "radar-kiosk", dependencies: ["KioskApp", "KioskTools", "KioskModel", "Display", "StandingData", "SystemIO"]),
        // The parsers' libFuzzer target (Tests/Fuzz/fuzz.sh builds it with -D FUZZING and the fuzzer).
        .executableTarget(name: "radar-kiosk-fuzz", dependencies: ["KioskModel", "Feed", "JSON"], path: "Tests/Fuzz",
                          exclude: ["fuzz.sh", "seeds", "regressions"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),

        .testTarget(name: "AnimationCoreTests", dependencies: ["AnimationCore", "AllocationCounting"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "RasterIO"]),
        .testTarget(name: "TypographyTests", dependencies: ["Typography", "Raster", "AnimationCore", "AllocationCounting", "CFreeType"]),
        .testTarget(name: "KioskTests", dependencies: ["KioskApp", "KioskTools", "KioskRendering", "KioskModel", "Feed", "StandingData",
                                                       "SystemIO", "AllocationCounting"], exclude: ["Fixtures"]),
        .testTarget(name: "FeedTests", dependencies: ["Feed", "HTTPClient", "JSON", "SystemIO"], exclude: ["Fixtures"]),
        .testTarget(name: "InputTests", dependencies: ["Input", "KioskModel", "SystemIO"]),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "Raster"]),
        .testTarget(name: "SystemIOTests", dependencies: ["SystemIO"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "TLS", "SystemIO"]),
        .testTarget(name: "StandingDataTests", dependencies: ["StandingData", "Feed", "JSON", "SystemIO"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
