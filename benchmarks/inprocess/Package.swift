// swift-tools-version: 6.1
// In-process benchmarks of WebImageKit (issue 15, item 4): the work a server pays per image, without
// process start-up. Run by scripts/bench-inprocess.sh beside vips/bench_vips.c; not part of the root
// package, its build or its tests.
import PackageDescription

let package = Package(
    name: "WebImageKitInProcessBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // WebImageKit is a symbolic link to ../.. (the repository root). A path dependency's identity is the last
        // component of its path, so `.package(path: "../..")` would be named after the checkout's folder: any
        // name in `.product(…, package:)`, and in a worktree called `inprocess` the same identity as this
        // package, which SwiftPM then takes for itself. Through the link it is always `WebImageKit`.
        .package(path: "WebImageKit"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "InProcess",
            dependencies: [
                .product(name: "WebImageKit", package: "WebImageKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/InProcess",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
