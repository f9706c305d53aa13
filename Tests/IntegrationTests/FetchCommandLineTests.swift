#if canImport(Glibc)
import Glibc
#endif
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
            #expect(run.stderr == "webimage: \(lines[2]): the server answered 404 Not Found; check the URL\n")
        }
    }

    /// Prefetch stores bytes without decoding them (issue 33): an image damaged after its signature is kept as it
    /// is (a decode would fail), bytes with no image signature fail their URL and are not kept.
    @Test func prefetchStoresTheBytesAsServedWithoutDecodingAndFailsBytesThatAreNoImage() async throws {
        let server = try TestImageServer()
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("not an image".utf8).write(to: notes)
        let damaged = folder.appendingPathComponent("damaged.png")
        try await server.run { base in
            try (server.png.prefix(33) + Data(repeating: 0xEE, count: 64)).write(to: damaged)
            let image = base.appendingPathComponent("image/a.png").absoluteString
            let list = folder.appendingPathComponent("urls.txt")
            try [image, notes.absoluteString, damaged.absoluteString].joined(separator: "\n")
                .write(to: list, atomically: true, encoding: .utf8)
            let cache = folder.appendingPathComponent("cache")
            let run = try await CLI.run(["prefetch", "--input", list.path, "--cache-dir", cache.path, "--json"])
            #expect(run.status == 1)
            let summary = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            #expect(summary?["finished"] as? Int == 3)
            #expect(summary?["skipped"] as? Int == 1)
            #expect(run.stderr == "webimage: \(notes.absoluteString): the bytes are not an image webimage can decode\n")
            let storage = DiskStorage(namespace: "default", root: cache)
            #expect(storage.data(forKey: image) == server.png)   // the bytes as served, not decoded and encoded again
            #expect(storage.data(forKey: notes.absoluteString) == nil)
            #expect(try storage.data(forKey: damaged.absoluteString) == Data(contentsOf: damaged))
            #expect(try storage.count() == 2)
        }
    }

    static let failureCases: [CommandLineFailure] = [
        CommandLineFailure(rule: "a missing list names the file", arguments: ["prefetch", "--input", "$DIR/missing.txt"],
                    status: 1, message: "missing.txt: no such file; check the path"),
        CommandLineFailure(rule: "an empty list says so", arguments: ["prefetch", "--input", "$DIR/empty.txt"],
                    status: 1, message: "empty.txt: the file is empty"),
        CommandLineFailure(rule: "a list of comments holds no URLs", arguments: ["prefetch", "--input", "$DIR/comments.txt"],
                    status: 1, message: "comments.txt: no URLs in the list"),
        CommandLineFailure(rule: "a failed fetch goes to standard error with the URL",
                    arguments: ["fetch", "--cache-dir", "$DIR/cache", "http://127.0.0.1:1/nothing.png"],
                    status: 1, message: "http://127.0.0.1:1/nothing.png: could not connect"),
        CommandLineFailure(rule: "a header without a colon is a usage error", arguments: ["fetch", "-H", "nonsense", "http://127.0.0.1:1/a.png"],
                    status: 64, message: "-H must look like 'Name: value'"),
        CommandLineFailure(rule: "a negative retry count is a usage error", arguments: ["fetch", "--retry", "-1", "http://127.0.0.1:1/a.png"],
                    status: 64, message: "--retry"),
        CommandLineFailure(rule: "an unknown load option is a usage error", arguments: ["fetch", "--options", "teleport", "http://127.0.0.1:1/a.png"],
                    status: 64, message: "unknown option 'teleport'"),
        CommandLineFailure(rule: "a malformed fetch thumbnail is a usage error", arguments: ["fetch", "--thumbnail", "0x5", "http://127.0.0.1:1/a.png"],
                    status: 64, message: "--thumbnail must be a size"),
        CommandLineFailure(rule: "a --cache-dir that is a file names it", arguments: ["fetch", "--cache-dir", "$DIR/empty.txt", "file://$DIR/photo.png"],
                    status: 1, message: "empty.txt: is a file, not a folder; choose another --cache-dir"),
        CommandLineFailure(rule: "a --cache-dir under a file names the file", arguments: ["fetch", "--cache-dir", "$DIR/empty.txt/cache", "file://$DIR/photo.png"],
                    status: 1, message: "empty.txt: is a file, not a folder; choose another --cache-dir"),
        CommandLineFailure(rule: "an unwritable --cache-dir names it", arguments: ["fetch", "--cache-dir", "$UNWRITABLE", "file://$DIR/photo.png"],
                    status: 1, message: "choose another --cache-dir"),
        CommandLineFailure(rule: "prefetch checks its --cache-dir too", arguments: ["prefetch", "--input", "$DIR/list.txt", "--cache-dir", "$DIR/empty.txt"],
                    status: 1, message: "empty.txt: is a file, not a folder; choose another --cache-dir"),
        CommandLineFailure(rule: "a 404 names the URL and the status", arguments: ["fetch", "--cache-dir", "$DIR/cache", "$BASE/status/404"],
                    status: 1, message: "/status/404: the server answered 404 Not Found; check the URL"),
        CommandLineFailure(rule: "fetch --out never replaces an existing file without --force",
                    arguments: ["fetch", "--cache-dir", "$DIR/cache", "--out", "$DIR/out", "file://$DIR/photo.png"],
                    status: 1, message: "file://$DIR/photo.png: not saved as $DIR/out/photo.png: already exists; pass --force to replace it"),
        CommandLineFailure(rule: "fetch --out that is a file names it", arguments: ["fetch", "--cache-dir", "$DIR/cache", "--out", "$DIR/empty.txt", "file://$DIR/photo.png"],
                    status: 1, message: "empty.txt: is a file, not a folder; choose another --out"),
        CommandLineFailure(rule: "fetch --format needs --out", arguments: ["fetch", "--format", "webp", "file://$DIR/photo.png"],
                    status: 64, message: "--format needs --out DIR"),
        CommandLineFailure(rule: "fetch --format must be a format written", arguments: ["fetch", "--out", "$DIR/new", "--format", "svg", "file://$DIR/photo.png"],
                    status: 64, message: "--format must be jpg, png, gif, webp, avif, jxl, heic, tiff, bmp or ico, not svg"),
        CommandLineFailure(rule: "a missing info file names the path", arguments: ["info", "$DIR/missing.png"],
                    status: 1, message: "missing.png: no such file; check the path"),
        CommandLineFailure(rule: "info on a folder says it is one", arguments: ["info", "$DIR"],
                    status: 1, message: "is a folder, not an image file"),
    ]

    @Test(arguments: failureCases)
    func badListOrURLFailsWithOneLineAndChangesNoFile(_ testCase: CommandLineFailure) async throws {
        let folder = try Self.makeFolder()
        defer { Self.removeFolder(folder) }
        let before = try ConvertCommandLineTests.snapshot(folder)
        let server = try TestImageServer()
        let run = try await server.run { base in
            try await CLI.run(testCase.arguments.map {
                $0.replacingOccurrences(of: "$DIR", with: folder.path)
                    .replacingOccurrences(of: "$UNWRITABLE", with: Self.unwritableFolder(in: folder))
                    .replacingOccurrences(of: "$BASE", with: base.absoluteString)
            })
        }
        let message = testCase.message.replacingOccurrences(of: "$DIR", with: folder.path)
        #expect(run.status == testCase.status, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("webimage: ") && run.stderr.contains(message), "\(run.stderr)")
        #expect(!run.stderr.contains("Error Domain"))
        #expect(try ConvertCommandLineTests.snapshot(folder).filter { !$0.key.hasPrefix("cache") } == before)
    }

    /// The test's folder: `empty.txt`, `comments.txt`, `list.txt` (one file URL), `photo.png`, `out/photo.png`
    /// (other bytes than `photo.png`) and `unwritable/` (mode 0555).
    static func makeFolder() throws -> URL {
        let folder = try CLI.temporaryFolder()
        try Data().write(to: folder.appendingPathComponent("empty.txt"))
        try Data("# nothing here\n\n".utf8).write(to: folder.appendingPathComponent("comments.txt"))
        let png = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 16, height: 8)), as: .png, options: ImageEncodingOptions())
        try png.write(to: folder.appendingPathComponent("photo.png"))
        try Data("file://\(folder.path)/photo.png\n".utf8).write(to: folder.appendingPathComponent("list.txt"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: folder.appendingPathComponent("out/photo.png"))
        let unwritable = folder.appendingPathComponent("unwritable")
        try FileManager.default.createDirectory(at: unwritable, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: unwritable.path)
        return folder
    }

    /// A folder no file can be written in: `unwritable/` (mode 0555), or, for root (whom modes do not
    /// stop), a folder under `/sys`, where nobody can create one.
    static func unwritableFolder(in folder: URL) -> String {
        geteuid() == 0 ? "/sys/webimage-test-cache" : folder.appendingPathComponent("unwritable").path
    }

    static func removeFolder(_ folder: URL) {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.appendingPathComponent("unwritable").path)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func infoReadsHeadersUnlessAskedToDecodeAndHonoursMaxPixels() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: CLI.sampleSize)
        let headers = try await CLI.run(["info", "--json"] + samples.map(\.path))
        let decoded = try await CLI.run(["info", "--json", "--decode"] + samples.map(\.path))
        #expect(headers.status == 0 && decoded.status == 0, "\(headers.stderr)\(decoded.stderr)")
        let fromHeaders = try JSONDecoder().decode([ImageSummary].self, from: Data(headers.stdout.utf8))
        let fromPixels = try JSONDecoder().decode([ImageSummary].self, from: Data(decoded.stdout.utf8))
        #expect(fromHeaders == fromPixels)
        let limited = try await CLI.run(["info", "--decode", "--max-pixels", "1000", samples[0].path])
        #expect(limited.status == 1 && limited.stderr.contains("too large"))
    }
}
