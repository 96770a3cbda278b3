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
    ],
    targets: [
        // System libraries, found through pkg-config; Debian packages named as providers.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),

        // Counts heap allocations process-wide, for benchmarks and allocation tests.
        .target(name: "CAllocationCounter"),
        // Kernel uAPI headers (console, evdev, GPIO, signals) with callable ioctl wrappers.
        .target(name: "CLinux"),

        // Layers, lowest first.
        .target(name: "AnimationCore", swiftSettings: hotLoopFlags),
        .target(name: "Raster", swiftSettings: hotLoopFlags),
        .target(name: "RasterIO", dependencies: ["Raster", "CPNG"]),
        .target(name: "Typography", dependencies: ["Raster", "AnimationCore", "CFreeType", "CHarfBuzz"],
                swiftSettings: hotLoopFlags),
        .target(name: "Display", dependencies: ["Raster", "RasterIO", "CDRM", "CLinux"]),
        .target(name: "Input", dependencies: ["CLinux"]),
        .target(name: "JSON"),
        .target(name: "Feed", dependencies: ["JSON"]),
        .target(name: "RadarKiosk",
                dependencies: ["AnimationCore", "Raster", "RasterIO", "Typography", "Display", "Input", "Feed",
                               "JSON", "CAllocationCounter", "CLinux"]),
        .executableTarget(name: "radar-kiosk", dependencies: ["RadarKiosk"]),

        .testTarget(name: "AnimationCoreTests", dependencies: ["AnimationCore", "CAllocationCounter"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "RasterIO"]),
        .testTarget(name: "TypographyTests", dependencies: ["Typography", "Raster", "AnimationCore", "CAllocationCounter"]),
        .testTarget(name: "RadarKioskTests", dependencies: ["RadarKiosk", "Feed"], exclude: ["Fixtures"]),
        .testTarget(name: "FeedTests", dependencies: ["Feed", "JSON"], exclude: ["Fixtures"]),
        .testTarget(name: "InputTests", dependencies: ["Input", "RadarKiosk"]),
        .testTarget(name: "DisplayTests", dependencies: ["Display", "Raster"]),
    ],
    swiftLanguageModes: [.v6]
)
