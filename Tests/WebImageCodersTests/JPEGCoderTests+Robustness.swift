import Foundation
import Testing
@testable import WebImageCoders

/// Bad input: cut, corrupt, hostile or huge files throw ``ImageCodingError`` and never crash.
extension JPEGCoderTests {
    @Test(arguments: ["baseline-420", "progressive", "restart", "cmyk-adobe", "gray"])
    func everyTruncationThrowsTruncatedDataWhenStrict(name: String) throws {
        let data = try Fixtures.data("jpeg/\(name).jpg")
        for prefix in truncations(of: data) {
            // Includes cuts that lose only the EOI marker: libjpeg would quietly pad those with grey.
            let error = #expect(throws: ImageCodingError.self, "cut at \(prefix.count) of \(data.count)") {
                try coder.decode(prefix, options: ImageDecodingOptions(strict: true))
            }
            #expect(error?.code == .truncatedData, "cut at \(prefix.count): \(String(describing: error))")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func startOfImageFollowedByRandomBytesThrows(seed: UInt64) {
        let data = Data([0xFF, 0xD8, 0xFF]) + randomBytes(count: 2000, seed: seed)
        #expect(throws: ImageCodingError.self) { try coder.decode(data) }
    }

    @Test func randomBytesWithoutASignatureThrowCorruptData() {
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(randomBytes(count: 500, seed: 42)) }
        #expect(error?.code == .corruptData)
    }

    @Test func aBrokenFrameHeaderThrowsCorruptData() throws {
        var data = try Fixtures.data("jpeg/baseline-420.jpg")
        let sof = try #require(markerOffset(0xC0, in: data))
        data[sof + 4] = 12 // 12-bit samples: not supported by this 8-bit libjpeg build
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data) }
        #expect(error?.code == .corruptData)
    }

    @Test func extraneousBytesBetweenMarkersAreOnlyAWarning() throws {
        let data = try Fixtures.data("jpeg/baseline-420.jpg")
        let sof = try #require(markerOffset(0xC0, in: data))
        var padded = data
        padded.insert(contentsOf: [0x00, 0x12, 0x34], at: sof) // libjpeg: "extraneous bytes before marker"
        padded.append(contentsOf: [0x00, 0x01, 0x02]) // and junk after EOI
        #expect(try coder.decode(padded).pixels == coder.decode(data).pixels)
    }

    @Test func aHeaderClaimingSixtyThousandSquaredPixelsThrowsImageTooLarge() {
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(craftedJPEG(width: 60000, height: 60000)) }
        #expect(error?.code == .imageTooLarge)
    }

    @Test func anImageOverALoweredPixelLimitThrowsImageTooLarge() throws {
        let data = try Fixtures.data("jpeg/baseline-420.jpg") // 45×29 = 1305 pixels
        let options = ImageDecodingOptions(maximumPixelCount: 1000)
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)
        // The limit applies to the decoded size: at 1/2 (23×15) the same file fits.
        #expect(try coder.decode(data, options: options, scale: .half).pixelSize == PixelSize(width: 23, height: 15))
    }

    @Test func progressiveDecodeNeedingMoreWorkingMemoryThanTheLimitThrowsImageTooLarge() {
        // 1/8 of 4000×4000 is 500×500, within 1 M pixels, but a progressive file keeps every
        // coefficient of the full image (96 MB at 4:4:4), over the 8 MB working memory allowed.
        let data = craftedJPEG(width: 4000, height: 4000, progressive: true)
        let options = ImageDecodingOptions(maximumPixelCount: 1_000_000)
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data, options: options, scale: .eighth) }
        #expect(error?.code == .imageTooLarge)
        // With room for the coefficients the same header gets past the memory check (and then
        // fails on its missing Huffman table).
        let roomy = #expect(throws: ImageCodingError.self) { try coder.decode(data, options: ImageDecodingOptions(), scale: .eighth) }
        #expect(roomy?.code == .corruptData, "\(String(describing: roomy))")
    }

    @Test func aProgressiveFileWithThousandsOfScansIsRejected() throws {
        // Repeat progressive.jpg's last scan 1200 times: each repeat is a valid SOS segment.
        let data = try Fixtures.data("jpeg/progressive.jpg")
        let lastScan = try #require(lastMarkerOffset(0xDA, in: data))
        let scan = data[lastScan..<(data.count - 2)]
        var hostile = data.prefix(lastScan)
        for _ in 0..<1200 { hostile.append(contentsOf: scan) }
        hostile.append(contentsOf: [0xFF, 0xD9])
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(hostile) }
        #expect(error?.code == .corruptData)
        #expect(error?.message.contains("scans") == true)
    }
}

/// The offset of the first `FF <marker>` segment in the header, walking segment lengths.
private func markerOffset(_ marker: UInt8, in data: Data) -> Int? {
    let bytes = [UInt8](data)
    var offset = 2
    while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
        if bytes[offset + 1] == marker { return offset }
        if bytes[offset + 1] == 0xDA { return nil }
        offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
    }
    return nil
}

/// The offset of the last `FF <marker>` pair anywhere in the data.
private func lastMarkerOffset(_ marker: UInt8, in data: Data) -> Int? {
    let bytes = [UInt8](data)
    return (0..<(bytes.count - 1)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == marker }
}

/// A JPEG with a frame header and a scan header but no scan data: SOI, SOF0/SOF2, SOS, EOI.
/// Three components at 1×1 sampling, no tables (libjpeg-turbo supplies default Huffman tables).
func craftedJPEG(width: Int, height: Int, progressive: Bool = false) -> Data {
    let (w, h) = (UInt8(truncatingIfNeeded: width >> 8), UInt8(truncatingIfNeeded: height >> 8))
    let (wl, hl) = (UInt8(truncatingIfNeeded: width), UInt8(truncatingIfNeeded: height))
    var bytes: [UInt8] = [0xFF, 0xD8]
    bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64) // one flat quantisation table
    bytes += [0xFF, progressive ? 0xC2 : 0xC0, 0x00, 0x11, 0x08, h, hl, w, wl, 0x03,
              0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00]
    bytes += progressive
        ? [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00] // DC first scan
        : [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00]
    bytes += [0xFF, 0xD9]
    return Data(bytes)
}
