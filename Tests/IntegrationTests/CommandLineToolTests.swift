import Dispatch
import Foundation
import Testing
import WebImageKit
import WebImageTools

/// Runs the built `webimage` binary as a user would.
@Suite struct CommandLineToolTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard output as bytes, for commands that write an image there.
        var stdoutData: Data
    }

    static var binary: URL {
        // The test bundle and the executable are built into the same products folder.
        var folder = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("webimage").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("webimage")
    }

    /// Runs the binary on a thread of its own, so that waiting never blocks the cooperative pool
    /// (on 2 cores, two blocked tests would stall every other test).
    /// `stdin` is written to the child's standard input (which is otherwise empty); `environment` is added
    /// to this process's.
    static func run(_ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(arguments, stdin: stdin, environment: environment) })
            }
        }
    }

    private static func runBlocking(_ arguments: [String], stdin: Data, environment: [String: String]) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        Thread.detachNewThread {
            // Kept small by the tests (under a pipe's 64 KiB), so the write never waits for a child that exited.
            if !stdin.isEmpty { input.fileHandleForWriting.write(stdin) }
            try? input.fileHandleForWriting.close()
        }
        // Drain both pipes at once, so that neither can fill up and stall the child.
        let stderr = LockedValue(Data())
        let drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            stderr.withLock { $0 = data }
            drained.signal()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr.withLock { $0 }, as: UTF8.self), stdoutData: stdout)
    }

    /// Small samples: the AVIF encoder takes seconds per large image in a debug build.
    static let sampleSize = PixelSize(width: 480, height: 320)

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func infoPrintsOneLinePerFile() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: Self.sampleSize)
        let run = try await Self.run(["info"] + samples.map(\.path))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == samples.count)
        #expect(lines.contains { $0.contains("animation.gif: GIF 160×120, 6 frames (720 ms, loops forever)") })
        #expect(lines.contains { $0.contains("photo.jpg: JPEG 480×320, 1 frame, opaque, orientation up") })
    }

    @Test func infoJSONIsAnArrayOfSummaries() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: Self.sampleSize)
        let run = try await Self.run(["info", "--json"] + samples.map(\.path))
        #expect(run.status == 0)
        let summaries = try JSONDecoder().decode([ImageSummary].self, from: Data(run.stdout.utf8))
        #expect(summaries.map(\.format) == [.jpeg, .png, .webp, .webp, .gif, .webp, .avif])
        let png = try #require(summaries.first { $0.format == .png })
        #expect(png.width == 240 && png.height == 160 && png.hasAlpha && png.frames == 1)
        #expect(png.bytes == (try Data(contentsOf: samples[1])).count)
    }

    @Test func infoOnABrokenFileFailsWithAMessageOnStderr() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: broken)
        let run = try await Self.run(["info", broken.path, folder.appendingPathComponent("missing.jpg").path])
        #expect(run.status != 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("broken.png: the PNG image ends before it is complete"))
        #expect(run.stderr.contains("missing.jpg"))
    }

    @Test func convertWritesTheFormatOfTheOutputExtensionAndKeepsAnimation() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: Self.sampleSize)
        let gif = try #require(samples.first { $0.pathExtension == "gif" })
        let output = folder.appendingPathComponent("out.webp")
        let run = try await Self.run(["convert", gif.path, output.path, "--quality", "70"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try ImageCodersManager.shared.decode(Data(contentsOf: output))
        #expect(image.format == .webp)
        #expect(image.frames.count == 6)
    }

    @Test func convertRejectsUnknownExtensionsAndBadQuality() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: Self.sampleSize)
        let unknown = try await Self.run(["convert", samples[0].path, folder.appendingPathComponent("out.xyz").path])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains(".xyz"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.xyz").path))
        let badQuality = try await Self.run(["convert", samples[0].path, folder.appendingPathComponent("out.jpg").path, "--quality", "101"])
        #expect(badQuality.status != 0)
        #expect(badQuality.stderr.contains("quality"))
    }

    @Test func convertMakesThumbnailsAndAppliesTransformers() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: Self.sampleSize)
        let output = folder.appendingPathComponent("thumb.png")
        let run = try await Self.run(["convert", samples[0].path, output.path, "--thumbnail", "256x256", "--transform", "round:20"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try ImageCodersManager.shared.decode(Data(contentsOf: output))
        #expect(image.pixelSize == PixelSize(width: 256, height: 171))
        #expect(image.pixels[0, 0].alpha == 0)
        let bad = try await Self.run(["convert", samples[0].path, output.path, "--transform", "explode:3"])
        #expect(bad.status != 0 && bad.stderr.contains("explode:3"))
    }

    @Test func decodeReportsSizeAndFrames() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: Self.sampleSize)
        let run = try await Self.run(["decode", "--repeat", "2"] + samples.map(\.path))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == samples.count)
        #expect(run.stdout.contains("480×320, 1 frame(s)"))
    }
}
