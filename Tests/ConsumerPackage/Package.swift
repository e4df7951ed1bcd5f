// swift-tools-version: 6.2
// A package of its own that depends on ServiceRegistry by path, the way an app would:
// proof that the library embeds in another Swift package with nothing else. It also holds
// Docs/GettingStarted.md's app, module by module as the page splits it (Interfaces,
// Reviews, BookDetail, BookApp, BookAppTests), so the page's code is compiled across real
// module boundaries, where a missing `public` fails.
// Built, tested and run by .ci/run (`swift test` and `swift run` with
// `--package-path Tests/ConsumerPackage`).
import PackageDescription

/// What Xcode 26 sets for a new app target. Of the upcoming features its "Approachable
/// Concurrency" turns on, Swift 6 mode has all but these two already (naming the others
/// warns that they are "already enabled as of Swift version 6"); default main-actor
/// isolation brings `InferIsolatedConformances` with it, named here all the same.
let approachableConcurrency: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "ConsumerPackage",
    // An app on an Apple platform must target at least what ServiceRegistry declares.
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "ServiceRegistry", path: "../.."),
    ],
    targets: [
        // Docs/GettingStarted.md's targets, as its manifest fragment declares them.
        .target(name: "Interfaces"),
        .target(
            name: "Reviews",
            dependencies: ["Interfaces", .product(name: "ServiceRegistry", package: "ServiceRegistry")]
        ),
        .target(
            name: "BookDetail",
            dependencies: ["Interfaces", .product(name: "ServiceRegistry", package: "ServiceRegistry")]
        ),
        .executableTarget(
            name: "BookApp",
            dependencies: [
                "Interfaces", "Reviews", "BookDetail",
                .product(name: "ServiceRegistry", package: "ServiceRegistry"),
            ]
        ),
        .testTarget(
            name: "BookAppTests",
            dependencies: [
                "Interfaces", "Reviews", "BookDetail", .product(name: "ServiceRegistry", package: "ServiceRegistry"),
            ]
        ),
        // `package:` names the dependency by the `name:` given above, not by the checkout's
        // folder name, which differs between clones (CI clones into a folder of its own).
        .executableTarget(
            name: "ConsumerApp",
            dependencies: [.product(name: "ServiceRegistry", package: "ServiceRegistry")]
        ),
        // Docs/Concurrency.md's "Default main-actor isolation": an app target built as Xcode
        // 26 makes new ones (default main-actor isolation, Approachable Concurrency; the
        // reason this manifest is tools-version 6.2), its interfaces module built without,
        // and a test target with the app's settings.
        .target(name: "MainActorAppInterfaces"),
        .target(
            name: "MainActorApp",
            dependencies: ["MainActorAppInterfaces", .product(name: "ServiceRegistry", package: "ServiceRegistry")],
            swiftSettings: approachableConcurrency
        ),
        .testTarget(
            name: "MainActorAppTests",
            dependencies: [
                "MainActorApp", "MainActorAppInterfaces",
                .product(name: "ServiceRegistry", package: "ServiceRegistry"),
                .product(name: "ServiceRegistryTesting", package: "ServiceRegistry"),
                .product(name: "ServiceRouter", package: "ServiceRegistry"),
            ],
            swiftSettings: approachableConcurrency
        ),
        // The other two products: the test trait, as Docs/Testing.md adds it to a test
        // target, and the router.
        .testTarget(
            name: "ConsumerTests",
            dependencies: [
                .product(name: "ServiceRegistry", package: "ServiceRegistry"),
                .product(name: "ServiceRegistryTesting", package: "ServiceRegistry"),
                .product(name: "ServiceRouter", package: "ServiceRegistry"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
