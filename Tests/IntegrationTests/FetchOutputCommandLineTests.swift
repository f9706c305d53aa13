import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `webimage fetch --out` and the request options, through the built binary against a local server.
@Suite struct FetchOutputCommandLineTests {
    typealias CLI = CommandLineToolTests

    @Test func headersAndUserAgentReachTheServer() async throws {
        let server = try TestImageServer()
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await server.run { base in
            let url = base.appendingPathComponent("image/headers.png").absoluteString
            let run = try await CLI.run([
                "fetch", "--cache-dir", folder.path, "-H", "Authorization: Bearer secret", "--header", "X-Trace:  42 ",
                "--user-agent", "webimage-test/1.0", url,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let sent = try #require(await server.log.headers(of: "/image/headers.png").first)
            #expect(sent["authorization"] == "Bearer secret")
            #expect(sent["x-trace"] == "42")
            #expect(sent["user-agent"] == "webimage-test/1.0")
        }
    }

    @Test func formatReencodesOnlyWhenItDiffersFromTheDownload() async throws {
        let server = try TestImageServer()
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await server.run { base in
            let url = base.appendingPathComponent("image/photo.png").absoluteString
            let cache = folder.appendingPathComponent("cache").path
            let out = folder.appendingPathComponent("out")
            let asPNG = try await CLI.run(["fetch", "--cache-dir", cache, "--out", out.path, "--format", "png", url])
            let asWebP = try await CLI.run(["fetch", "--cache-dir", cache, "--out", out.path, "--format", "webp", url])
            let asJPEG = try await CLI.run(["fetch", "--cache-dir", cache, "--out", out.path, "--format", "jpeg", url])
            #expect(asPNG.status == 0 && asWebP.status == 0 && asJPEG.status == 0, "\(asPNG.stderr)\(asWebP.stderr)\(asJPEG.stderr)")
            let png = try Data(contentsOf: out.appendingPathComponent("photo.png"))
            #expect(ImageFormat(detecting: png) == .png)
            let webp = try ImageCodersManager.shared.decode(Data(contentsOf: out.appendingPathComponent("photo.webp")))
            #expect(webp.format == .webp && webp.pixelSize == PixelSize(width: 16, height: 8))
            let jpeg = try ImageCodersManager.shared.decode(Data(contentsOf: out.appendingPathComponent("photo.jpg")))
            #expect(jpeg.format == .jpeg)
            #expect(await server.log.count("/image/photo.png") == 1)  // the others came from the disk cache
        }
    }

    @Test func outNeverReplacesAFileUnlessForce() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("photo.png")
        let png = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 16, height: 8)), as: .png, options: ImageEncodingOptions())
        try png.write(to: source)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let existing = out.appendingPathComponent("photo.png")
        try Data("kept".utf8).write(to: existing)
        let arguments = ["fetch", "--cache-dir", folder.appendingPathComponent("cache").path, "--out", out.path, source.absoluteString]
        let refused = try await CLI.run(arguments)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("photo.png: already exists; pass --force to replace it"), "\(refused.stderr)")
        #expect(try Data(contentsOf: existing) == Data("kept".utf8))
        let forced = try await CLI.run(arguments + ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: existing) == png)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".webimage-tmp") }
        #expect(leftovers.isEmpty)
    }
}
