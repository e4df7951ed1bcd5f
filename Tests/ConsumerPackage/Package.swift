// swift-tools-version: 6.0
// A package of its own that depends on ServiceRegistry by path, the way an app would:
// proof that the library embeds in another Swift package with nothing else.
// Built, tested and run by .ci/run (`swift test` and `swift run` with
// `--package-path Tests/ConsumerPackage`).
import PackageDescription

let package = Package(
    name: "ConsumerPackage",
    // An app on an Apple platform must target at least what ServiceRegistry declares.
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "ServiceRegistry", path: "../.."),
    ],
    targets: [
        // `package:` names the dependency by the `name:` given above, not by the checkout's
        // folder name, which differs between clones (CI clones into a folder of its own).
        .executableTarget(
            name: "ConsumerApp",
            dependencies: [.product(name: "ServiceRegistry", package: "ServiceRegistry")]
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
