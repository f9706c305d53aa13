import Foundation
import Testing
@testable import WebImageCoders

/// Incremental JPEG decoding: libjpeg's buffered-image mode over a suspending source.
@Suite struct JPEGProgressiveDecodingTests {
    let coder = JPEGCoder()

    /// Every committed fixture, plus progressive-large.jpg (240×160, cjpeg -progressive, 10 scans).
    static let fixtures = [
        "baseline-420", "progressive", "progressive-large", "gray", "cmyk-adobe", "ycck", "444", "restart", "rgb",
        "orientation-6",
    ]

    /// A freshly encoded 4:2:0 baseline photo-like image (our own encoder), 256×192.
    static let freshBaseline: Data = {
        var bytes = [UInt8]()
        let width = 256, height = 192
        for y in 0..<height {
            for x in 0..<width {
                let wave = 40 * sin(Double(x) / 9) * cos(Double(y) / 13)
                bytes += [
                    UInt8(clamping: Int(Double(x) * 0.8 + wave) + 20), UInt8(clamping: Int(Double(y) * 1.1 - wave) + 30),
                    UInt8(clamping: (x / 16 + y / 16) % 2 == 0 ? 200 : 60), 255,
                ]
            }
        }
        let pixels = PixelBuffer(width: width, height: height, hasAlpha: false, bytes: bytes)
        // Force-try is fine in a test helper: encoding a valid buffer cannot fail.
        return (try? JPEGCoder().encode(Image(pixels: pixels), as: .jpeg, options: ImageEncodingOptions(quality: 0.8))) ?? Data()
    }()

    static func data(_ name: String) throws -> Data {
        name == "fresh-baseline" ? freshBaseline : try Fixtures.data("jpeg/\(name).jpg")
    }

    static let allInputs = fixtures + ["fresh-baseline"]

    @Test(arguments: allInputs, [1, 7, 100, 1000, 4096])
    func chunkedDecodeEndsEqualToOneShotAndIsCompleteOnlyAtTheEnd(name: String, chunkSize: Int) throws {
        let data = try Self.data(name)
        #expect(data.count > 400)
        if chunkSize == 1 && data.count > 12_000 { return } // byte by byte only for the small files
        let oneShot = try coder.decode(data)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var end = 0
        var last: Image?
        while end < data.count {
            end = min(end + chunkSize, data.count)
            let image = try decoder.decode(data.prefix(end))
            if let image {
                #expect(image.pixelSize == oneShot.pixelSize, "intermediate images have the full canvas size")
                #expect(image.orientation == oneShot.orientation)
                last = image
            }
            #expect(decoder.isComplete == (end == data.count))
        }
        let final = try #require(last)
        #expect(final.pixels == oneShot.pixels)
        #expect(final.pixels.hasAlpha == oneShot.pixels.hasAlpha)
        // TestSupport's helper agrees.
        let (_, helperFinal, complete) = try decodeInChunks(data, coder: coder, chunkSize: max(chunkSize, 7))
        #expect(complete && helperFinal?.pixels == oneShot.pixels)
    }

    @Test(arguments: allInputs)
    func theFirstTwentyBytesGiveNil(name: String) throws {
        let data = try Self.data(name)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        for count in 0...20 {
            #expect(try decoder.decode(data.prefix(count)) == nil, "\(count) bytes")
            #expect(!decoder.isComplete)
        }
        // A fresh decoder for each length too (no state carried over).
        for count in 2...20 {
            #expect(try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(data.prefix(count)) == nil)
        }
    }

    @Test(arguments: allInputs)
    func everyPrefixGivesNilOrAFullSizeImageAndNeverThrows(name: String) throws {
        let data = try Self.data(name)
        let size = try coder.decode(data).pixelSize
        let isProgressive = try coder.info(of: data).isProgressive
        let shared = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        for prefix in truncations(of: data, samples: 64) {
            let fresh = try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(prefix)
            let fed = try shared.decode(prefix)
            #expect(fresh.map(\.pixelSize) ?? size == size)
            #expect(fed.map(\.pixelSize) ?? size == size)
            #expect((fresh == nil) == (fed == nil), "\(prefix.count) bytes")
            if !isProgressive {
                // One scan: cut at the same point, a fresh decoder and one fed every earlier prefix agree.
                let same = fresh?.pixels == fed?.pixels
                #expect(same, "\(prefix.count) bytes")
            }
        }
    }

    @Test(arguments: ["progressive", "progressive-large"])
    func aProgressivePrefixIsFullSizeOpaqueAndBlurrierThanALaterOne(name: String) throws {
        let data = try Self.data(name)
        let final = try coder.decode(data).pixels
        func partial(_ fraction: Double) throws -> PixelBuffer {
            let prefix = data.prefix(Int(Double(data.count) * fraction))
            let image = try #require(try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(prefix))
            return image.pixels
        }
        let early = try partial(0.4), later = try partial(0.8)
        #expect(early.size == final.size && later.size == final.size)
        // No transparent rows: the first scans cover the whole image.
        #expect(early.isOpaque && later.isOpaque && !early.hasAlpha)
        let earlyPSNR = psnr(early, final), laterPSNR = psnr(later, final)
        // Blurry but recognisable, and sharper with more scans.
        #expect(earlyPSNR > 15 && earlyPSNR < 40, "\(earlyPSNR) dB")
        #expect(laterPSNR > earlyPSNR, "\(laterPSNR) dB after 80%, \(earlyPSNR) dB after 40%")
    }

    @Test func aProgressiveFileSharpensScanByScanWhileDownloading() throws {
        let data = try Self.data("progressive-large")
        let final = try coder.decode(data).pixels
        let (partials, _, complete) = try decodeInChunks(data, coder: coder, chunkSize: 500)
        #expect(complete)
        let opaque = partials.dropLast().filter { $0.pixels.isOpaque }
        // Several distinct full-size previews (one per completed scan), none equal to the final image.
        let distinct = opaque.map(\.pixels).reduce(into: [PixelBuffer]()) { if $0.last != $1 { $0.append($1) } }
        #expect(distinct.count >= 3)
        #expect(distinct.allSatisfy { $0 != final })
        #expect(psnr(distinct[0], final) < psnr(distinct[distinct.count - 1], final))
    }

    @Test(arguments: ["baseline-420", "fresh-baseline", "444", "restart"])
    func aBaselineCutPartWayShowsTheFinalTopRowsAndTransparentBottomRows(name: String) throws {
        let data = try Self.data(name)
        let final = try coder.decode(data).pixels
        let rowBytes = final.bytesPerRow
        let finalRows = (0..<final.height).map { y in Array(final.bytes[y * rowBytes..<(y + 1) * rowBytes]) }
        // Half and three quarters through the entropy-coded data (after the SOS segment). The
        // fixtures are only two 16-row MCU rows high, so half their data may not finish the first.
        let sos = try #require(data.indices.last { data[$0] == 0xFF && data[$0 + 1] == 0xDA })
        var decodedCounts: [Int] = []
        for fraction in [0.5, 0.75] {
            let cut = sos + Int(Double(data.count - sos) * fraction)
            guard let image = try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(data.prefix(cut)) else { continue }
            let pixels = image.pixels
            #expect(pixels.size == final.size && pixels.hasAlpha)
            let rows = (0..<pixels.height).map { y in Array(pixels.bytes[y * rowBytes..<(y + 1) * rowBytes]) }
            let decoded = rows.prefix { row in row.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 } }.count
            #expect(decoded > 0 && decoded < pixels.height, "\(decoded) of \(pixels.height) rows decoded")
            #expect(Array(rows.prefix(decoded)) == Array(finalRows.prefix(decoded)), "decoded rows equal the final image's")
            #expect(rows.dropFirst(decoded).allSatisfy { $0.allSatisfy { $0 == 0 } }, "the rest is transparent")
            decodedCounts.append(decoded)
            if name == "fresh-baseline" && fraction == 0.5 {
                // Roughly half the rows for half the bytes.
                #expect(abs(decoded - pixels.height / 2) <= pixels.height / 4, "\(decoded) rows")
            }
        }
        #expect(!decodedCounts.isEmpty)
    }

    @Test func aBaselineImageGrowsFromTheTopWhileDownloading() throws {
        let data = Self.freshBaseline
        let (partials, _, _) = try decodeInChunks(data, coder: coder, chunkSize: 400)
        let decodedRows = partials.map { image in
            (0..<image.pixels.height).prefix { y in image.pixels.bytes[y * image.pixels.bytesPerRow + 3] == 255 }.count
        }
        #expect(decodedRows == decodedRows.sorted(), "rows never disappear")
        #expect(Set(decodedRows).count >= 5)
    }

    @Test func thumbnailOptionsApplyToPartialImages() throws {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))
        for name in ["fresh-baseline", "progressive-large"] {
            let data = try Self.data(name)
            let oneShot = try coder.decode(data, options: options)
            #expect(oneShot.pixelSize.width == 64)
            let (partials, final, complete) = try decodeInChunks(data, coder: coder, chunkSize: 1500, options: options)
            #expect(complete && final?.pixels == oneShot.pixels)
            #expect(partials.count > 2)
            #expect(partials.allSatisfy { $0.pixelSize == oneShot.pixelSize })
        }
    }

    @Test func aCallWithNoNewBytesReturnsThePreviousImage() throws {
        let data = Self.freshBaseline
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let first = try #require(try decoder.decode(data.prefix(data.count / 2)))
        let again = try #require(try decoder.decode(data.prefix(data.count / 2)))
        #expect(first === again)
    }

    @Test func aCorruptHeaderThrows() throws {
        var data = try Self.data("baseline-420")
        // The SOF0 segment's sample precision: libjpeg-turbo reads only 8-bit samples here.
        let sof = try #require(data.indices.first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data[sof + 4] = 7
        // libjpeg checks the frame header when the first scan starts: shortly after the SOS marker.
        let sos = try #require(data.indices.first { data[$0] == 0xFF && data[$0 + 1] == 0xDA })
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        #expect(try decoder.decode(data.prefix(sof + 12)) == nil)
        let error = #expect(throws: ImageCodingError.self) { try decoder.decode(data.prefix(sos + 20)) }
        #expect(error?.code == .corruptData && error?.format == .jpeg)
        // The decoder stays failed.
        #expect(throws: ImageCodingError.self) { try decoder.decode(data) }
        #expect(throws: ImageCodingError.self) { try coder.decode(data) }
    }

    @Test func aProgressiveFileWithThousandsOfScansThrowsWhileDownloading() throws {
        // progressive.jpg's last scan repeated 1200 times, as in the one-shot robustness test.
        let data = try Self.data("progressive")
        let lastScan = try #require(data.indices.last { data[$0] == 0xFF && data[$0 + 1] == 0xDA })
        var hostile = data.prefix(lastScan)
        for _ in 0..<1200 { hostile.append(contentsOf: data[lastScan..<(data.count - 2)]) }
        hostile.append(contentsOf: [0xFF, 0xD9])
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: ImageCodingError.self) {
            var end = 0
            while end < hostile.count {
                end = min(end + 4096, hostile.count)
                _ = try decoder.decode(hostile.prefix(end))
            }
        }
        #expect(error?.code == .corruptData && error?.message.contains("scans") == true)
        #expect(!decoder.isComplete)
    }

    @Test func dataThatIsNotAJPEGThrows() throws {
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        #expect(throws: ImageCodingError.self) { try decoder.decode(Data("GIF89a not a jpeg at all".utf8)) }
    }

    @Test func anImageLargerThanThePixelLimitThrowsImageTooLarge() throws {
        let options = ImageDecodingOptions(maximumPixelCount: 100)
        let decoder = coder.makeProgressiveDecoder(options: options)
        let error = #expect(throws: ImageCodingError.self) { try decoder.decode(Self.freshBaseline) }
        #expect(error?.code == .imageTooLarge)
    }

    @Test func aShorterPrefixThanLastTimeStartsOver() throws {
        let data = Self.freshBaseline
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        _ = try decoder.decode(data)
        #expect(decoder.isComplete)
        let restarted = try #require(try decoder.decode(data.prefix(data.count / 2)))
        #expect(!decoder.isComplete && restarted.pixels.hasAlpha)
        let fresh = try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(data.prefix(data.count / 2))
        #expect(restarted.pixels == fresh?.pixels)
    }
}
