// swift-tools-version: 6.1
import PackageDescription

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "WebImageKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WebImageKit", targets: ["WebImageKit"]),
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImageCoders", targets: ["WebImageCoders"]),
        .executable(name: "webimage", targets: ["webimage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // System libraries (Debian -dev packages, installed by scripts/install-deps.sh).
        .systemLibrary(name: "CJPEG", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        // The only C of our own: setjmp-based glue for libjpeg and libpng, so no longjmp crosses Swift frames.
        .target(
            name: "CWebImageShims", dependencies: ["CJPEG", "CPNG"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),

        .target(name: "WebImageCore", swiftSettings: upcomingFeatures),
        .target(
            name: "WebImageCoders",
            dependencies: ["WebImageCore", "CWebImageShims", "CJPEG", "CPNG", "CGIF", "CWebP", "CAVIF"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "WebImageKit",
            dependencies: ["WebImageCore", "WebImageCoders", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "webimage",
            dependencies: ["WebImageKit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: upcomingFeatures
        ),

        .testTarget(name: "WebImageCoreTests", dependencies: ["WebImageCore"], swiftSettings: upcomingFeatures),
        .testTarget(
            name: "WebImageCodersTests",
            dependencies: ["WebImageCoders"],
            resources: [.copy("Fixtures")],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(name: "WebImageKitTests", dependencies: ["WebImageKit"], swiftSettings: upcomingFeatures),
        .testTarget(name: "IntegrationTests", dependencies: ["WebImageKit", "webimage"], swiftSettings: upcomingFeatures),
    ]
)
