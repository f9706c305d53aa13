import Foundation
import Testing
import WebImageKit

/// librsvg and poppler-glib (with cairo, GLib and some 40 libraries behind them) are opened on the first
/// SVG or PDF, not at start: a process that never draws one neither maps nor relocates them. glibc's
/// `LD_DEBUG=files` lists every library a process loads, at start and through `dlopen`.
@Suite struct VectorLibraryLoadingTests {
    static let vectorLibraries = ["librsvg-2.so", "libpoppler-glib.so", "libcairo.so", "libglib-2.0.so"]

    static func loadedLibraries(_ arguments: [String]) async throws -> (status: Int32, libraries: String) {
        let run = try await CommandLineToolTests.run(arguments, environment: ["LD_DEBUG": "files"])
        // Lines such as "   1234:     file=libcairo.so.2 [0];  needed by …" or "…; dynamically loaded by …".
        let loaded = run.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
        return (run.status, loaded)
    }

    @Test func decodingAPNGLoadsNoVectorLibrary() async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("a.png")
        try PNGCoder().encode(Image(pixels: .samplePattern(width: 8, height: 8)), as: .png).write(to: png)
        let (status, libraries) = try await Self.loadedLibraries(["decode", "--quiet", png.path])
        #expect(status == 0)
        #expect(libraries.contains("libpng16.so"), "LD_DEBUG listed no libraries: \(libraries.prefix(300))")
        for library in Self.vectorLibraries {
            #expect(!libraries.contains(library), "\(library) was loaded to decode a PNG")
        }
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
