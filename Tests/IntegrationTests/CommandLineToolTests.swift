import Foundation
import Testing
import WebImageKit

/// Runs the built `webimage` binary as a user would.
@Suite struct CommandLineToolTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL {
        // The test bundle and the executable are built into the same products folder.
        var folder = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("webimage").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("webimage")
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func infoPrintsOneLinePerFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder)
        let run = try Self.run(["info"] + samples.map(\.path))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == samples.count)
        #expect(lines.contains { $0.contains("animation.gif: GIF 160×120, 6 frames (720 ms, loops forever)") })
        #expect(lines.contains { $0.contains("photo.jpg: JPEG 960×640, 1 frame, opaque, orientation up") })
    }

    @Test func infoJSONIsAnArrayOfSummaries() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder)
        let run = try Self.run(["info", "--json"] + samples.map(\.path))
        #expect(run.status == 0)
        let summaries = try JSONDecoder().decode([ImageSummary].self, from: Data(run.stdout.utf8))
        #expect(summaries.map(\.format) == [.jpeg, .png, .webp, .webp, .gif, .webp, .avif])
        let png = try #require(summaries.first { $0.format == .png })
        #expect(png.width == 480 && png.height == 320 && png.hasAlpha && png.frames == 1)
        #expect(png.bytes == (try Data(contentsOf: samples[1])).count)
    }

    @Test func infoOnABrokenFileFailsWithAMessageOnStderr() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: broken)
        let run = try Self.run(["info", broken.path, folder.appendingPathComponent("missing.jpg").path])
        #expect(run.status != 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("broken.png: PNG"))
        #expect(run.stderr.contains("missing.jpg"))
    }

    @Test func convertWritesTheFormatOfTheOutputExtensionAndKeepsAnimation() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder)
        let gif = try #require(samples.first { $0.pathExtension == "gif" })
        let output = folder.appendingPathComponent("out.webp")
        let run = try Self.run(["convert", gif.path, output.path, "--quality", "70"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try ImageCodersManager.shared.decode(Data(contentsOf: output))
        #expect(image.format == .webp)
        #expect(image.frames.count == 6)
    }

    @Test func convertRejectsUnknownExtensionsAndBadQuality() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder)
        let unknown = try Self.run(["convert", samples[0].path, folder.appendingPathComponent("out.xyz").path])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains(".xyz"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.xyz").path))
        let badQuality = try Self.run(["convert", samples[0].path, folder.appendingPathComponent("out.jpg").path, "--quality", "101"])
        #expect(badQuality.status != 0)
        #expect(badQuality.stderr.contains("quality"))
    }

    @Test func convertMakesThumbnailsAndAppliesTransformers() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder)
        let output = folder.appendingPathComponent("thumb.png")
        let run = try Self.run(["convert", samples[0].path, output.path, "--thumbnail", "256x256", "--transform", "round:20"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try ImageCodersManager.shared.decode(Data(contentsOf: output))
        #expect(image.pixelSize == PixelSize(width: 256, height: 171))
        #expect(image.pixels[0, 0].alpha == 0)
        let bad = try Self.run(["convert", samples[0].path, output.path, "--transform", "explode:3"])
        #expect(bad.status != 0 && bad.stderr.contains("explode:3"))
    }

    @Test func decodeReportsSizeAndFrames() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder)
        let run = try Self.run(["decode", "--repeat", "2"] + samples.map(\.path))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == samples.count)
        #expect(run.stdout.contains("960×640, 1 frame(s)"))
    }
}
