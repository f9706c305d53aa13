// swift-tools-version: 6.1
// libFuzzer targets for WebImageKit's parsers and decoders (issue 8). Built and run by scripts/fuzz.sh:
//   swift build --package-path Fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
// Each executable defines LLVMFuzzerTestOneInput; libFuzzer supplies main().
import PackageDescription

let targets = ["Detect", "JPEG", "PNG", "GIF", "WebP", "AVIF", "Progressive", "KeyScale", "FrameSources"]
    + ["TIFF", "BMP", "ICO"] // issue 16: TIFF, BMP, ICO/CUR
    + ["HEIC", "JXL", "SVG", "PDF"]

let package = Package(
    name: "WebImageKitFuzz",
    dependencies: [.package(name: "WebImageKit", path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "WebImageCoders", package: "WebImageKit")]
        ),
        // The image server's URL, signature, source and address parsers.
        .executableTarget(
            name: "FuzzServerURL",
            dependencies: [.product(name: "WebImageServer", package: "WebImageKit")],
            path: "Sources/FuzzServerURL"
        ),
    ] + targets.map { name in
        .executableTarget(name: "Fuzz\(name)", dependencies: ["FuzzSupport"], path: "Sources/Fuzz\(name)")
    }
)
