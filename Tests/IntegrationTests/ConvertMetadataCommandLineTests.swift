import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `convert --strip` and `--keep-metadata`: the orientation is the one piece of metadata written.
@Suite struct ConvertMetadataCommandLineTests {
    typealias CLI = CommandLineToolTests

    /// A 40×20 JPEG stored sideways (orientation right) with an EXIF camera and date and an ICC profile.
    static func sidewaysPhoto(in folder: URL) throws -> URL {
        let stored = Image(pixels: .samplePattern(width: 40, height: 20), orientation: .right)
        let jpeg = try ImageCodersManager.shared.encode(stored, as: .jpeg, options: ImageEncodingOptions())
        let file = folder.appendingPathComponent("sideways.jpg")
        try MetadataFixtures.jpeg(jpeg, inserting: [
            MetadataFixtures.segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1] + MetadataFixtures.profile(named: "Wide Gamut")),
        ]).write(to: file)
        return file
    }

    @Test func noAutoOrientKeepsTheOrientationTagAndStripDropsIt() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.sidewaysPhoto(in: folder)
        let kept = folder.appendingPathComponent("kept.jpg"), stripped = folder.appendingPathComponent("stripped.jpg")
        let keep = try await CLI.run(["convert", input.path, kept.path, "--no-auto-orient"])
        let strip = try await CLI.run(["convert", input.path, stripped.path, "--no-auto-orient", "--strip"])
        #expect(keep.status == 0 && strip.status == 0, "\(keep.stderr)\(strip.stderr)")
        #expect(try ImageCodersManager.shared.decode(Data(contentsOf: kept)).orientation == .right)
        let bare = try ImageCodersManager.shared.decode(Data(contentsOf: stripped))
        #expect(bare.orientation == .up && bare.pixelSize == PixelSize(width: 40, height: 20))
    }

    @Test func keepMetadataSaysWhatCannotBeWrittenAndTheDefaultIsQuiet() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.sidewaysPhoto(in: folder)
        let asked = try await CLI.run(["convert", input.path, folder.appendingPathComponent("a.webp").path, "--keep-metadata"])
        #expect(asked.status == 0)
        #expect(asked.stderr == "webimage: \(input.path): has metadata WebImageKit cannot write, so it is not kept: "
                + "the colour profile Wide Gamut; only the orientation is carried over\n")
        let quiet = try await CLI.run(["convert", input.path, folder.appendingPathComponent("b.webp").path])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let help = try await CLI.run(["convert", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("--strip") && words.contains("the only metadata written is the EXIF orientation"))
    }
}
