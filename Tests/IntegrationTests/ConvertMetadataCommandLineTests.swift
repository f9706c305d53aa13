import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `convert --strip` and `--keep-metadata`: by default the orientation is the one piece of metadata written;
/// `--keep-metadata` carries EXIF, XMP, IPTC and the profile into the formats that hold them.
@Suite struct ConvertMetadataCommandLineTests {
    typealias CLI = CommandLineToolTests

    /// A 40×20 JPEG stored sideways (orientation right) with an EXIF camera and date and an ICC profile.
    static func sidewaysPhoto(in folder: URL) throws -> URL {
        var exif = MetadataFixtures.exif
        exif.insert(contentsOf: [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0], at: 10) // Orientation 6 (right), first in IFD0
        exif[9] += 1 // one more entry
        let stored = Image(pixels: .samplePattern(width: 40, height: 20), orientation: .right,
                           metadata: ImageMetadata(exif: Data(Self.shiftingOffsets(exif, by: 12))))
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

    @Test func keepMetadataCarriesEXIFAndTheProfileWithTheOrientationOfThePixels() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.sidewaysPhoto(in: folder)
        let output = folder.appendingPathComponent("a.webp")
        let asked = try await CLI.run(["convert", input.path, output.path, "--keep-metadata"])
        #expect(asked.status == 0 && asked.stderr.isEmpty, "\(asked.stderr)")
        let written = try Data(contentsOf: output)
        let exif = try #require(ImageMetadata(reading: written, format: .webp)?.exif)
        #expect(String(decoding: exif, as: UTF8.self).contains("Canon EOS R5"))
        // Turned upright while converting, so the tag now says "up" and the file is 20×40 as stored.
        #expect(ExifOrientationReader.orientation(inTIFF: exif) == .up)
        let image = try ImageCodersManager.shared.decode(written, options: ImageDecodingOptions(applyOrientation: true, keepsColorProfile: true))
        #expect(image.pixelSize == PixelSize(width: 20, height: 40))
        #expect(image.iccProfile == Data(MetadataFixtures.profile(named: "Wide Gamut")))
    }

    @Test func keepMetadataSaysWhatTheOutputCannotHoldAndTheDefaultIsQuiet() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.sidewaysPhoto(in: folder)
        let asked = try await CLI.run(["convert", input.path, folder.appendingPathComponent("a.gif").path, "--keep-metadata"])
        #expect(asked.status == 0)
        #expect(asked.stderr == "webimage: \(input.path): has metadata GIF cannot hold, so it is not kept: "
                + "the colour profile Wide Gamut (the pixels were converted to sRGB), EXIF\n")
        let quiet = try await CLI.run(["convert", input.path, folder.appendingPathComponent("b.webp").path])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(ImageMetadata(reading: try Data(contentsOf: folder.appendingPathComponent("b.webp")), format: .webp) == nil)
        let help = try await CLI.run(["convert", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("--strip") && words.contains("by default the only metadata written is the EXIF orientation"))
    }

    /// `exif` (a big-endian TIFF block with one IFD) with every value offset past the IFD moved by `shift` bytes,
    /// after an entry was inserted into the IFD.
    static func shiftingOffsets(_ exif: [UInt8], by shift: Int) -> [UInt8] {
        var bytes = exif
        let count = Int(bytes[8]) << 8 | Int(bytes[9])
        for index in 0..<count {
            let entry = 10 + 12 * index
            let type = Int(bytes[entry + 2]) << 8 | Int(bytes[entry + 3])
            let length = bytes[(entry + 4)..<(entry + 8)].reduce(0) { $0 << 8 | Int($1) }
            guard type == 2, length > 4 else { continue } // ASCII values longer than 4 bytes sit at an offset
            let offset = bytes[(entry + 8)..<(entry + 12)].reduce(0) { $0 << 8 | Int($1) } + shift
            for byte in 0..<4 { bytes[entry + 8 + byte] = UInt8((offset >> (8 * (3 - byte))) & 0xFF) }
        }
        return bytes
    }
}
