import Foundation
import Testing
import WebImageKit
import WebImageTools

/// The progress display under a real terminal (tmux): bars drawn in place, the summary on the final screen,
/// and Ctrl-C in a batch printing the summary of what finished with exit status 130.
@Suite(.enabled(if: TerminalSession.tmux != nil, "tmux is not installed (scripts/install-deps.sh installs it); the terminal tests are skipped"))
struct TerminalProgressTests {
    typealias CLI = CommandLineToolTests

    /// `count` copies of a small photo in `folder`/in.
    static func photos(_ count: Int, in folder: URL, size: PixelSize = PixelSize(width: 160, height: 120)) throws -> [String] {
        let input = folder.appendingPathComponent("in")
        let photo = try ImageFiles.writeSamples(to: input, photoSize: size, names: ["photo.jpg"])[0]
        let bytes = try Data(contentsOf: photo)
        return try (1...count).map { index in
            let file = input.appendingPathComponent("p\(index).jpg")
            try bytes.write(to: file)
            return file.path
        }
    }

    @Test func batchConvertDrawsItsBarAndLeavesTheSummaryOnScreen() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = try Self.photos(6, in: folder)
        try await TerminalSession.with([CLI.binary.path, "convert"] + inputs + ["--out-dir", "out", "--format", "png"], in: folder) { session in
            #expect(try await session.exitStatus(within: 60) == 0)
            #expect(session.output.contains("6/6 converted") && session.output.contains("\u{1B}[2K"), "no bar drawn")
            let screen = try await session.screen()
            #expect(screen.contains("converted 6 files"), "\(screen)")
            #expect(!screen.contains("/6 converted"), "the bar is left on screen:\n\(screen)")
        }
    }

    @Test func fetchDrawsItsBoardAndLeavesTheTableOnScreen() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let urls = try Self.photos(3, in: folder).map { URL(fileURLWithPath: $0).absoluteString }
        try await TerminalSession.with([CLI.binary.path, "fetch", "--cache-dir", "cache"] + urls, in: folder) { session in
            #expect(try await session.exitStatus(within: 60) == 0)
            #expect(session.output.contains("3/3 done") && session.output.contains("\u{1B}[2K"), "no board drawn")
            let screen = try await session.screen()
            #expect(screen.contains("SOURCE") && screen.contains("3 images: 3 file;"), "\(screen)")
            #expect(!screen.contains(" done, "), "the board is left on screen:\n\(screen)")
        }
    }

    @Test func ctrlCInABatchPrintsTheSummaryOfWhatFinishedAndExits130() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // AVIF is slow to encode in a debug build: a batch of 100 runs long enough to be interrupted.
        let inputs = try Self.photos(100, in: folder, size: PixelSize(width: 480, height: 320))
        try await TerminalSession.with([CLI.binary.path, "convert"] + inputs + ["--out-dir", "out", "--format", "avif"], in: folder) { session in
            try await session.wait(seconds: 60, for: "the first file converted") { $0.contains("1/100 converted") }
            try await session.send("C-c")
            #expect(try await session.exitStatus(within: 60) == 130)
            let screen = try await session.screen()
            #expect(screen.contains("interrupted: finishing the files under way"), "\(screen)")
            #expect(screen.contains("not started"), "\(screen)")
            let written = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)
            #expect(!written.isEmpty && written.count < 100)
            #expect(screen.contains("converted \(written.count) file"), "\(screen)")
            #expect(written.allSatisfy { !$0.hasSuffix(".webimage-tmp") })
        }
    }

    @Test func ctrlCDuringAFetchCancelsWhatIsLoadingPrintsTheSummaryAndExits130() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TestImageServer()
        try await server.run { base in
            let urls = ["image/one.png", "held/two.png"].map { base.appendingPathComponent($0).absoluteString }
            try await TerminalSession.with([CLI.binary.path, "fetch", "--cache-dir", "cache"] + urls, in: folder) { session in
                try await Self.waitForHeldRequestAndOneCachedImage(server, folder, session)
                // The image is stored just before its load returns; the board may not redraw for it, so allow a margin.
                try await Task.sleep(for: .milliseconds(300))
                try await session.send("C-c")
                #expect(try await session.exitStatus(within: 60) == 130)
                let screen = try await session.screen()
                #expect(screen.contains("interrupted: cancelled 1 load still under way"), "\(screen)")
                #expect(!screen.contains(" done, "), "the board is left on screen:\n\(screen)")
                #expect(screen.contains("2 images: 1 network, 1 cancelled"), "\(screen)")
            }
        }
    }

    @Test func ctrlCDuringAPrefetchSaysWhatWasNotLoadedAndExits130() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TestImageServer()
        try await server.run { base in
            let urls = ["image/one.png", "held/two.png", "held/three.png"].map { base.appendingPathComponent($0).absoluteString }
            try urls.joined(separator: "\n").write(to: folder.appendingPathComponent("urls.txt"), atomically: true, encoding: .utf8)
            // Three download slots, so that the image loads whichever URL's cache lookup ends first (with one slot a
            // held URL may take it first, and the image would wait behind it).
            let arguments = [CLI.binary.path, "prefetch", "--input", "urls.txt", "--cache-dir", "cache", "--concurrency", "3"]
            try await TerminalSession.with(arguments, in: folder) { session in
                try await Self.waitForHeldRequestAndOneCachedImage(server, folder, session, held: 2)
                try await session.wait(seconds: 60, for: "the first URL counted") { $0.contains("1/3 prefetched") }
                try await session.send("C-c")
                #expect(try await session.exitStatus(within: 60) == 130)
                let screen = try await session.screen()
                #expect(screen.contains("prefetched 3 URLs: 1 loaded, 0 failed, 2 cancelled"), "\(screen)")
                #expect(screen.contains("interrupted: 2 of 3 URLs were not loaded"), "\(screen)")
                #expect(!screen.contains("/3 prefetched"), "the bar is left on screen:\n\(screen)")
            }
        }
    }

    /// Waits until the server holds `held` requests and one image is in the disk cache under `folder`/cache (fetch
    /// and prefetch wait for the store before they count an image done); fails the test after 60 s.
    static func waitForHeldRequestAndOneCachedImage(
        _ server: TestImageServer, _ folder: URL, _ session: TerminalSession, held: Int = 1
    ) async throws {
        let cached = folder.appendingPathComponent("cache/default")
        let deadline = ContinuousClock.now + .seconds(60)
        while await server.log.inFlight < held
            || ((try? FileManager.default.contentsOfDirectory(atPath: cached.path)) ?? []).allSatisfy({ $0.hasPrefix(".") }) {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for the held request and the cached image; the screen:\n\(try await session.screen())")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
