import Foundation
import Testing
@testable import WebImageCoders

/// A big-endian EXIF block with Orientation, Make, Artist and Copyright in IFD0, as cameras write it.
enum SampleExif {
    static func block(orientation: Int = 6, make: String = "Camera", artist: String = "Ann Artist",
                      copyright: String = "(c) 2026 Ann") -> Data {
        let strings = [(UInt16(0x010F), make), (0x013B, artist), (0x8298, copyright)].map { ($0.0, Array($0.1.utf8) + [0]) }
        var bytes: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
        let entryCount = 1 + strings.count
        bytes += be16(entryCount)
        var dataOffset = 8 + 2 + 12 * entryCount + 4
        var tail: [UInt8] = []
        bytes += be16(0x0112) + be16(3) + be32(1) + be16(orientation) + [0, 0]
        for (tag, value) in strings.sorted(by: { $0.0 < $1.0 }) {
            bytes += be16(Int(tag)) + be16(2) + be32(value.count) + be32(dataOffset)
            tail += value
            dataOffset += value.count
        }
        bytes += be32(0) + tail
        return Data(bytes)
    }

    static let xmp = Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>"#.utf8)
    /// One IPTC-IIM dataset: record 2, dataset 116 (copyright notice), "IPTC (c)".
    static let iptc = Data([0x1C, 0x02, 0x74, 0x00, 0x08] + Array("IPTC (c)".utf8))
    static let all = ImageMetadata(exif: block(), xmp: xmp, iptc: iptc)

    private static func be16(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
    private static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }
}

@Suite struct ImageMetadataTests {
    static let pixels = PixelBuffer.samplePattern(width: 40, height: 24)
    static let keeping = ImageDecodingOptions(keepsMetadata: true)

    /// `image` encoded as `format` and decoded again, keeping metadata.
    func roundTrip(_ image: Image, as format: ImageFormat) throws -> Image {
        let data = try ImageCodersManager.shared.encode(image, as: format, options: ImageEncodingOptions())
        return try ImageCodersManager.shared.decode(data, options: Self.keeping)
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp, .avif, .heic])
    func exifAndXMPSurviveEncodingAndDecoding(format: ImageFormat) throws {
        let image = Image(pixels: Self.pixels, orientation: .right, metadata: SampleExif.all)
        let decoded = try roundTrip(image, as: format)
        let metadata = try #require(decoded.metadata)
        #expect(metadata.xmp == SampleExif.xmp)
        let exif = try #require(metadata.exif)
        #expect(ExifBlock.copyrightOnly(exif) == ExifBlock.copyrightOnly(SampleExif.block()))
        #expect(ExifOrientationReader.orientation(inTIFF: exif) == .right)
    }

    @Test func jpegKeepsIPTCInAPhotoshopSegment() throws {
        let decoded = try roundTrip(Image(pixels: Self.pixels, metadata: SampleExif.all), as: .jpeg)
        #expect(decoded.metadata?.iptc == SampleExif.iptc)
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp])
    func metadataIsReadOnlyWhenAsked(format: ImageFormat) throws {
        let data = try ImageCodersManager.shared.encode(Image(pixels: Self.pixels, metadata: SampleExif.all), as: format)
        #expect(try ImageCodersManager.shared.decode(data).metadata == nil)
        #expect(try ImageCodersManager.shared.decode(data, options: Self.keeping).metadata != nil)
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp])
    func anImageWithoutMetadataIsWrittenWithout(format: ImageFormat) throws {
        let data = try ImageCodersManager.shared.encode(Image(pixels: Self.pixels), as: format)
        #expect(ImageMetadata(reading: data, format: format) == nil)
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp])
    func theWrittenOrientationMatchesThePixelsAfterAutoRotation(format: ImageFormat) throws {
        // The source says "turn right"; decoding upright turns the pixels, so the written tag must say "up".
        let source = try ImageCodersManager.shared.encode(Image(pixels: Self.pixels, orientation: .right, metadata: SampleExif.all), as: format)
        let upright = try ImageCodersManager.shared.decode(source, options: ImageDecodingOptions(applyOrientation: true, keepsMetadata: true))
        #expect(upright.pixelSize == PixelSize(width: 24, height: 40))
        let written = try ImageCodersManager.shared.encode(upright, as: format)
        let exif = try #require(ImageMetadata(reading: written, format: format)?.exif)
        #expect(ExifOrientationReader.orientation(inTIFF: exif) == .up)
        let again = try ImageCodersManager.shared.decode(written, options: ImageDecodingOptions(applyOrientation: true))
        #expect(again.pixelSize == PixelSize(width: 24, height: 40))
    }

    @Test func copyrightOnlyKeepsArtistAndCopyrightAndDropsTheRest() throws {
        let reduced = try #require(ExifBlock.copyrightOnly(SampleExif.block()))
        let text = String(decoding: reduced, as: UTF8.self)
        #expect(text.contains("Ann Artist"))
        #expect(text.contains("(c) 2026 Ann"))
        #expect(!text.contains("Camera"))
        #expect(ExifOrientationReader.orientation(inTIFF: reduced) == nil)
        #expect(ExifBlock.copyrightOnly(SampleExif.block(artist: "", copyright: "")).map { String(decoding: $0, as: UTF8.self).contains("Camera") } != true)
    }

    @Test func malformedMetadataBlocksGiveNothingAndNeverCrash() {
        for cut in 0..<SampleExif.block().count {
            let block = SampleExif.block().prefix(cut)
            _ = ExifBlock.copyrightOnly(block)
            _ = ExifBlock.settingOrientation(block, to: .up)
        }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + Array("Exif".utf8))
        #expect(ImageMetadata(reading: jpeg, format: .jpeg) == nil)
        let heif = Data([0, 0, 0, 16] + Array("meta".utf8) + [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(ImageMetadata(reading: heif, format: .heic) == nil)
    }
}
