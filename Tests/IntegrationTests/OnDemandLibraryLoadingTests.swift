import Foundation
import Testing
import WebImageKit

/// librsvg and poppler-glib (with cairo, GLib and some 40 libraries behind them), libheif, libjxl and libavif
/// (with their codecs: x265, libde265, aom, rav1e, dav1d, highway…) and libtiff (with jbig, Lerc, zstd, lzma) are opened on the first image that needs
/// them, not at start: a process that never decodes one neither maps, relocates nor initializes them. glibc's
/// `LD_DEBUG=files` lists every library a process loads, at start and through `dlopen`.
@Suite struct OnDemandLibraryLoadingTests {
    static let vectorLibraries = ["librsvg-2.so", "libpoppler-glib.so", "libcairo.so", "libglib-2.0.so"]
    static let codecLibraries = [
        "libheif.so", "libjxl.so", "libjxl_threads.so", "libavif.so", "libhwy.so", "libx265.so", "libaom.so", "libtiff.so", "libLerc.so",
    ]

    static func loadedLibraries(_ arguments: [String]) async throws -> (status: Int32, libraries: String) {
        let run = try await CommandLineToolTests.run(arguments, environment: ["LD_DEBUG": "files"])
        // Lines such as "   1234:     file=libcairo.so.2 [0];  needed by …" or "…; dynamically loaded by …".
        let loaded = run.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
        return (run.status, loaded)
    }

    @Test func decodingAPNGLoadsNoVectorOrHEIFFamilyLibrary() async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("a.png")
        try PNGCoder().encode(Image(pixels: .samplePattern(width: 8, height: 8)), as: .png).write(to: png)
        let (status, libraries) = try await Self.loadedLibraries(["decode", "--quiet", png.path])
        #expect(status == 0)
        #expect(libraries.contains("libpng16.so"), "LD_DEBUG listed no libraries: \(libraries.prefix(300))")
        for library in Self.vectorLibraries + Self.codecLibraries {
            #expect(!libraries.contains(library), "\(library) was loaded to decode a PNG")
        }
    }

    @Test func theFirstHEICOpensLibheifAndNotTheAVIFOrJPEGXLLibraries() async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let heic = folder.appendingPathComponent("a.heic")
        try HEICCoder().encode(Image(pixels: .samplePattern(width: 16, height: 16)), as: .heic).write(to: heic)
        let (status, libraries) = try await Self.loadedLibraries(["decode", "--quiet", heic.path])
        #expect(status == 0)
        #expect(libraries.contains("libheif.so") && libraries.contains("libde265.so"))
        #expect(!libraries.contains("libavif.so") && !libraries.contains("libjxl.so"))
    }

    @Test func theFirstTIFFOpensLibtiffAndItsLibraries() async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiff = folder.appendingPathComponent("a.tiff")
        try TIFFCoder().encode(Image(pixels: .samplePattern(width: 16, height: 16)), as: .tiff).write(to: tiff)
        let (status, libraries) = try await Self.loadedLibraries(["decode", "--quiet", tiff.path])
        #expect(status == 0)
        #expect(libraries.contains("libtiff.so") && libraries.contains("libLerc.so"))
        #expect(!libraries.contains("libheif.so") && !libraries.contains("libavif.so"))
    }

    @Test func encodingAVIFAndJPEGXLOpensTheirLibraries() async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("a.png")
        try PNGCoder().encode(Image(pixels: .samplePattern(width: 16, height: 16)), as: .png).write(to: png)
        let avif = try await Self.loadedLibraries(["convert", png.path, folder.appendingPathComponent("a.avif").path])
        #expect(avif.status == 0)
        #expect(avif.libraries.contains("libavif.so") && !avif.libraries.contains("libheif.so"))
        let jxl = try await Self.loadedLibraries(["convert", png.path, folder.appendingPathComponent("a.jxl").path])
        #expect(jxl.status == 0)
        #expect(jxl.libraries.contains("libjxl.so") && jxl.libraries.contains("libjxl_threads.so"))
        #expect(!jxl.libraries.contains("libavif.so"))
    }

    @Test func theFirstSVGOpensLibrsvgAndItsLibraries() async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("a.svg")
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><rect width="8" height="6" fill="red"/></svg>"#.utf8)
            .write(to: svg)
        let (status, libraries) = try await Self.loadedLibraries(["decode", "--quiet", svg.path])
        #expect(status == 0)
        #expect(libraries.contains("librsvg-2.so") && libraries.contains("libcairo.so"))
        #expect(!libraries.contains("libpoppler-glib.so"))
    }
}
