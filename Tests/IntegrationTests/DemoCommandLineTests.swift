import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `webimage demo` end to end, at a small scale so that a debug build stays quick (issue 7).
@Suite struct DemoCommandLineTests {
    @Test func theDemoLoadsFromNetworkThenMemoryThenDiskAndWritesAContactSheet() async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("demo-output")
        let keep = folder.appendingPathComponent("keep.txt")
        try Data("mine".utf8).write(to: keep)
        let run = try await CommandLineToolTests.run(["demo", "--output", output.path, "--scale", "0.1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("8 images: 7 network, 1 failed"))
        #expect(run.stdout.contains("8 images: 7 memory, 1 failed"))
        #expect(run.stdout.contains("8 images: 7 disk, 1 failed"))
        #expect(run.stderr.contains("missing.png: this URL failed before"))  // the 404 fails at once in the second round
        let sheet = try ImageCodersManager.shared.decode(Data(contentsOf: output.appendingPathComponent("contact-sheet.png")))
        #expect(sheet.pixelSize == PixelSize(width: 1020, height: 516))  // 8 tiles, 4 by 2
        let thumbnails = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("thumbnails").path)
        #expect(thumbnails.count == 7)
        #expect(FileManager.default.fileExists(atPath: keep.path))  // nothing outside --output is touched
        #expect(!run.stdout.contains("\u{1B}["))
    }
}
