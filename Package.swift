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
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
        .executable(name: "webimage", targets: ["webimage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries (Debian -dev packages, installed by scripts/install-deps.sh).
        .systemLibrary(name: "CJPEG", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        // Colour management (ICC profiles), zlib for PNG iCCP chunks, TIFF.
        .systemLibrary(name: "CLCMS2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CTIFF", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        // setjmp-based glue for libjpeg and libpng, so no longjmp crosses Swift frames.
        .target(
            name: "CWebImageShims", dependencies: ["CJPEG", "CPNG"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),

        // Vector loops Swift's SIMD types cannot express (saturating packs), for the resampler.
        .target(name: "CWebImageKernels"),
        .target(name: "WebImageCore", dependencies: ["CWebImageKernels"], swiftSettings: upcomingFeatures),
        .target(
            name: "WebImageCoders",
            dependencies: [
                "WebImageCore", "CWebImageShims", "CJPEG", "CPNG", "CGIF", "CWebP", "CAVIF",
                "CLCMS2", "CZlib", "CTIFF",
                "CHEIF", "CJXL",
            ],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "WebImageKit",
            dependencies: [
                "WebImageCore", "WebImageCoders",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The image server: imgproxy-compatible URLs and signatures, the source guard, the Hummingbird application.
        .target(
            name: "WebImageServer",
            dependencies: [
                "WebImageKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // What only the `webimage` command and the benchmarks need (fetch jobs, progress board, demo images,
        // benchmarks, soak): not a product, `package` access, never part of `import WebImageKit`.
        .target(
            name: "WebImageTools",
            dependencies: ["WebImageKit", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImageKit", "WebImageTools", "WebImageServer", "CWebImageShims",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: upcomingFeatures,
            // Start-up: linked with the Swift runtime inside (`--static-swift-stdlib`), the tool would export every
            // symbol it has (for Swift plugins it never loads), and each start would pay for that table: binding
            // through it, and the runtime's `dladdr` scanning it. 1.2 ms of a 6 ms start (benchmarks/RESULTS.md).
            // An unsafe flag only bars the `webimage` product from other packages; the libraries stay usable.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))]
        ),

        .testTarget(
            name: "WebImageServerTests",
            dependencies: [
                "WebImageServer", "WebImageTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(name: "WebImageCoreTests", dependencies: ["WebImageCore"], swiftSettings: upcomingFeatures),
        .testTarget(
            name: "WebImageCodersTests",
            dependencies: ["WebImageCoders"],
            resources: [.copy("Fixtures")],
            swiftSettings: upcomingFeatures
        ),
        // Helpers shared by the test targets: temporary folders, a mock loader, manager fixtures, `eventually`.
        .target(
            name: "WebImageTestSupport",
            dependencies: ["WebImageKit", .product(name: "Logging", package: "swift-log")],
            path: "Tests/WebImageTestSupport",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "WebImageKitTests",
            dependencies: [
                "WebImageKit", "WebImageTestSupport", .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // Every Swift example of the README, the pages in docs/ and the DocC articles, generated by scripts/snippets.py: it compiles.
        .testTarget(
            name: "SnippetTests",
            dependencies: ["WebImageKit", "WebImageServer", .product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: upcomingFeatures
        ),
        // CPU-heavy tests (fork and SIGKILL, 20,000 prefetches, a 2,000-load cancellation race): run by
        // `make test` in a process of their own, after the rest, so they never starve timing-sensitive tests.
        .testTarget(
            name: "StressTests",
            dependencies: [
                "WebImageKit", "WebImageTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "WebImageKit", "WebImageTools", "WebImageTestSupport", "webimage",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: upcomingFeatures
        ),
    ]
)
