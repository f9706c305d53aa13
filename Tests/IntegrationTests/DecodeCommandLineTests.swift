import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `webimage decode` fails the way every other command does: one line naming the file, in words.
@Suite struct DecodeCommandLineTests {
    static let failureCases: [CommandLineFailure] = [
        CommandLineFailure(rule: "a missing file names the path", arguments: ["$DIR/missing.png"],
                    status: 1, message: "missing.png: no such file; check the path"),
        CommandLineFailure(rule: "a folder is not an image", arguments: ["$DIR"],
                    status: 1, message: "is a folder, not an image file"),
        CommandLineFailure(rule: "text named .jpg is not an image", arguments: ["$DIR/text.jpg"],
                    status: 1, message: "text.jpg: the data matches no known image format"),
        CommandLineFailure(rule: "a cut-short PNG says it is incomplete", arguments: ["$DIR/broken.png"],
                    status: 1, message: "broken.png: the PNG image ends before it is complete"),
        CommandLineFailure(rule: "a repeat count under one is a usage error", arguments: ["--repeat", "0", "$DIR/text.jpg"],
                    status: 64, message: "--repeat must be at least 1, not 0"),
    ]

    @Test(arguments: failureCases)
    func badFileFailsWithOneLine(_ testCase: CommandLineFailure) async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not an image\n".utf8).write(to: folder.appendingPathComponent("text.jpg"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: folder.appendingPathComponent("broken.png"))
        let arguments = testCase.arguments.map { $0.replacingOccurrences(of: "$DIR", with: folder.path) }
        let run = try await CommandLineToolTests.run(["decode"] + arguments)
        #expect(run.status == testCase.status, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("webimage: ") && run.stderr.contains(testCase.message), "\(run.stderr)")
        #expect(!run.stderr.contains("Error Domain") && !run.stderr.contains("ImageCodingError"))
        #expect(run.stdout.isEmpty)
    }

    @Test func goodFilesStillDecodeWhenOneFails() async throws {
        let folder = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: CommandLineToolTests.sampleSize, names: ["photo.jpg"])
        let run = try await CommandLineToolTests.run(["decode", samples[0].path, folder.appendingPathComponent("missing.png").path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("photo.jpg: 480×320, 1 frame(s)"))
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }
}
