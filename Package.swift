// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ServiceRegistry",
    // The core's locks and atomics are Synchronization's `Mutex` and `Atomic`, which Apple
    // platforms have from these releases on. Linux needs no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ServiceRegistry", targets: ["ServiceRegistry"]),
        .library(name: "ServiceRegistryTesting", targets: ["ServiceRegistryTesting"]),
        .library(name: "ServiceRouter", targets: ["ServiceRouter"]),
        .executable(name: "weread", targets: ["weread"]),
        .executable(name: "registry-benchmark", targets: ["registry-benchmark"]),
    ],
    targets: [
        // The library: standard library and Synchronization only.
        .target(name: "ServiceRegistry"),
        .target(name: "ServiceRegistryTesting", dependencies: ["ServiceRegistry"]),
        .target(name: "ServiceRouter", dependencies: ["ServiceRegistry"]),

        // The WeRead example: a thin interfaces module, one target per component, and
        // the executable that composes them. Prefixed so the names never collide with a
        // consumer's own targets.
        .target(name: "WeReadInterfaces"),
        .target(name: "WeReadCatalog", dependencies: ["WeReadInterfaces", "ServiceRegistry"]),
        .target(name: "WeReadBookDetail", dependencies: ["WeReadInterfaces", "ServiceRegistry"]),
        .target(name: "WeReadReview", dependencies: ["WeReadInterfaces", "ServiceRegistry"]),
        .target(name: "WeReadReading", dependencies: ["WeReadInterfaces", "ServiceRegistry"]),
        .target(name: "WeReadBookshelf", dependencies: ["WeReadInterfaces", "ServiceRegistry"]),
        .executableTarget(
            name: "weread",
            dependencies: [
                "ServiceRegistry", "ServiceRouter", "WeReadInterfaces", "WeReadCatalog",
                "WeReadBookDetail", "WeReadReview", "WeReadReading", "WeReadBookshelf",
            ]
        ),

        // The benchmark: run with `swift run -c release registry-benchmark`. Its C target
        // reads and tunes glibc's allocator, whatever glibc version it builds against.
        .target(name: "CAllocatorControl"),
        .executableTarget(
            name: "registry-benchmark", dependencies: ["ServiceRegistry", "ServiceRouter", "CAllocatorControl"]
        ),

        .testTarget(
            name: "ServiceRegistryTests",
            dependencies: ["ServiceRegistry", "ServiceRegistryTestComponent", "SeededRandom", "ThreadTestSupport"]
        ),
        // A second module for ServiceRegistryTests: two types share a short name (each
        // component's `Config`) only when they live in two modules.
        .target(name: "ServiceRegistryTestComponent", path: "Tests/ServiceRegistryTestComponent"),
        .testTarget(
            name: "ServiceRegistryTestingTests",
            dependencies: ["ServiceRegistry", "ServiceRegistryTesting", "ThreadTestSupport"]
        ),
        .testTarget(name: "ServiceRouterTests", dependencies: ["ServiceRouter", "ServiceRegistry", "SeededRandom"]),
        // The seeded random generator of the randomized tests, shared by their targets.
        .target(name: "SeededRandom", path: "Tests/SeededRandom"),
        // What the threaded tests of both registry test targets meet and count with.
        .target(name: "ThreadTestSupport", path: "Tests/ThreadTestSupport"),
        .testTarget(
            name: "WeReadTests",
            dependencies: [
                "weread", "ServiceRegistry", "ServiceRegistryTesting", "WeReadInterfaces", "WeReadCatalog",
                "WeReadBookDetail", "WeReadReview", "WeReadReading", "WeReadBookshelf",
            ]
        ),
        .testTarget(
            name: "RegistryBenchmarkTests",
            dependencies: ["registry-benchmark", "ServiceRegistry", "ServiceRouter", "CAllocatorControl"]
        ),
        // Every code example in README.md, Docs/, the DocC landing pages and the doc comments of
        // the library and of the WeRead example is mirrored here so it must compile
        // (MirrorCoverageTests checks that each example's lines are in its mirror); Package.swift
        // fragments are built for real by Tests/ConsumerPackage.
        .testTarget(
            name: "DocumentationExamplesTests",
            dependencies: [
                "ServiceRegistry", "ServiceRegistryTesting", "ServiceRouter", "WeReadInterfaces", "WeReadCatalog",
                "WeReadBookDetail", "WeReadReview", "WeReadReading", "WeReadBookshelf",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    // An import makes a module's members visible only in the file that imports it, so a
    // component cannot lean on another file's imports (keeps the architecture test honest).
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // `ExistentialAny` is left off on purpose: it would make `ReviewService.self`, the
    // contract's call shape, a warning in our own tests and examples.
    target.swiftSettings = settings
}
