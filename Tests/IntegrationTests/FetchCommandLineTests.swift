import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `webimage fetch` and `webimage prefetch` through the built binary, against a local server (issue 7).
@Suite struct FetchCommandLineTests {
    typealias CLI = CommandLineToolTests

    static func report(_ run: CLI.Run) throws -> FetchReport {
        try JSONDecoder().decode(FetchReport.self, from: Data(run.stdout.utf8))
    }

    @Test func fetchLoadsFromTheNetworkThenFromDiskAndWritesTheImages() async throws {
        let server = try TestImageServer()
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await server.run { base in
            let urls = ["image/one.png", "image/two.png"].map { base.appendingPathComponent($0).absoluteString }
            let cache = folder.appendingPathComponent("cache").path
            let out = folder.appendingPathComponent("out")
            let cold = try await CLI.run(["fetch", "--json", "--cache-dir", cache, "--out", out.path] + urls)
            #expect(cold.status == 0, "\(cold.stderr)")
            let first = try Self.report(cold)
            #expect(first.items.map(\.source) == ["network", "network"])
            #expect(first.items.allSatisfy { $0.format == "PNG" && $0.width == 16 && $0.height == 8 && $0.bytes > 0 })
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("one.png").path))
            #expect(!cold.stdout.contains("\u{1B}["))  // never escape codes when piped

            let warm = try await CLI.run(["fetch", "--json", "--cache-dir", cache, "--thumbnail", "8x8"] + urls)
            let second = try Self.report(warm)
            #expect(second.items.map(\.source) == ["disk", "disk"])
            #expect(second.items.first?.width == 8)
            #expect(await server.log.count("/image/one.png") == 1)

            let plain = try await CLI.run(["fetch", "--cache-dir", cache, urls[0]])
            #expect(plain.stdout.hasPrefix("disk PNG 16×8"))
            #expect(plain.stdout.contains("1 image: 1 disk;"))
        }
    }

    @Test func fetchExitsWithFailureForAnUnreachableURLAndReportsIt() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await CLI.run(["fetch", "--json", "--cache-dir", folder.path, "http://127.0.0.1:1/nothing.png"])
        #expect(run.status != 0)
        let report = try Self.report(run)
        #expect(report.items.first?.source == "failed")
        #expect(report.failed == 1)
    }

    @Test func fetchRejectsBadArguments() async throws {
        let badOption = try await CLI.run(["fetch", "--options", "teleport", "http://127.0.0.1:1/a.png"])
        #expect(badOption.status != 0)
        #expect(badOption.stderr.contains("unknown option 'teleport'"))
        let notAURL = try await CLI.run(["fetch", "photo.jpg"])
        #expect(notAURL.status != 0)
        #expect(notAURL.stderr.contains("file paths need file://"))
    }

    @Test func prefetchReadsURLsFromAFileAndCountsFinishedAndSkipped() async throws {
        let server = try TestImageServer()
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await server.run { base in
            let list = folder.appendingPathComponent("urls.txt")
            let lines = ["image/a.png", "image/b.png", "status/404"].map { base.appendingPathComponent($0).absoluteString }
            try (["# a comment"] + lines).joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
            let cache = folder.appendingPathComponent("cache").path
            let run = try await CLI.run(["prefetch", "--input", list.path, "--cache-dir", cache, "--json"])
            #expect(run.status != 0)  // one URL was skipped
            let summary = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            #expect(summary?["total"] as? Int == 3)
            #expect(summary?["finished"] as? Int == 3)
            #expect(summary?["skipped"] as? Int == 1)
            let warm = try await CLI.run(["fetch", "--json", "--cache-dir", cache, lines[0]])
            #expect(try Self.report(warm).items.first?.source == "disk")
        }
    }
}
