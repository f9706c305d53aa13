import Foundation
import Testing
import WebImageCoders

/// Rules that hold for every built-in coder, checked through the shared registry.
@Suite struct BuiltInCodersTests {
    static let writableFormats: [ImageFormat] = [.jpeg, .png, .gif, .webp, .avif, .jpegXL, .heic, .tiff, .bmp, .ico]

    /// Every committed fixture file (not the expected-pixel dumps).
    /// Every clean image fixture (not the damaged ones of `Fixtures/damaged`, which DamagedFixtureTests covers).
    static func fixtureFiles() throws -> [URL] {
        let root = try Fixtures.url("")
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            ImageFormat(fileExtension: $0.pathExtension) != .unknown && $0.deletingLastPathComponent().lastPathComponent != "damaged"
        }.sorted { $0.path < $1.path }
    }

    @Test func sharedRegistryHoldsOneCoderPerWritableFormat() {
        for format in Self.writableFormats {
            #expect(ImageCodersManager.shared.canEncode(to: format), "no encoder for \(format)")
        }
        #expect(ImageCodersManager.builtInCoders.count == 12) // ten read-write, SVG and PDF read-only
        #expect(!ImageCodersManager.shared.canEncode(to: .svg))
        #expect(!ImageCodersManager.shared.canEncode(to: .pdf))
    }

    @Test(arguments: writableFormats)
    func everyFormatRoundTripsThroughTheRegistry(format: ImageFormat) throws {
        let pixels = PixelBuffer.samplePattern(width: 48, height: 32, alpha: format != .jpeg)
        let data = try ImageCodersManager.shared.encode(Image(pixels: pixels), as: format)
        #expect(ImageFormat(detecting: data) == format)
        let image = try ImageCodersManager.shared.decode(data)
        #expect(image.format == format)
        #expect(image.pixelSize == pixels.size)
        #expect(image.hasAlpha == (format != .jpeg))
    }

    @Test func everyFixtureDecodesAndEveryTruncationOfItThrowsWhenStrict() throws {
        let files = try Self.fixtureFiles()
        #expect(files.count >= 20)
        for file in files {
            let data = try Data(contentsOf: file)
            #expect(throws: Never.self, "\(file.lastPathComponent)") { _ = try ImageCodersManager.shared.decode(data) }
            for cut in truncations(of: data, samples: 24) {
                #expect(throws: ImageCodingError.self, "\(file.lastPathComponent) cut at \(cut.count)") {
                    _ = try ImageCodersManager.shared.decode(cut, options: ImageDecodingOptions(strict: true))
                }
            }
        }
    }

    /// Issue 31: leniently, a cut file shows what it has at the size the whole file has, says so, or throws a typed error.
    @Test func everyTruncationOfAFixtureDecodesAtItsFullSizeWithAnIssueOrThrowsWhenLenient() throws {
        for file in try Self.fixtureFiles() {
            let data = try Data(contentsOf: file)
            let whole = try ImageCodersManager.shared.decode(data)
            for cut in truncations(of: data, samples: 24) {
                do {
                    let image = try ImageCodersManager.shared.decode(cut)
                    #expect(image.pixelSize == whole.pixelSize, "\(file.lastPathComponent) cut at \(cut.count)")
                    if [.jpeg, .png, .gif].contains(image.format) {
                        #expect(!image.issues.isEmpty, "\(file.lastPathComponent) cut at \(cut.count)")
                    }
                } catch {
                    #expect(error is ImageCodingError, "\(file.lastPathComponent) cut at \(cut.count): \(error)")
                }
            }
        }
    }

    @Test func signaturesFollowedByRandomBytesThrowTypedErrors() {
        let signatures: [[UInt8]] = [
            [0xFF, 0xD8, 0xFF],
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            Array("GIF89a".utf8),
            Array("RIFF".utf8) + [0xF0, 0, 0, 0] + Array("WEBPVP8 ".utf8),
            [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8),
        ]
        for (index, signature) in signatures.enumerated() {
            for seed in 1...20 {
                let data = Data(signature) + randomBytes(count: 16 + seed * 37, seed: UInt64(seed * 100 + index))
                #expect(throws: ImageCodingError.self) { _ = try ImageCodersManager.shared.decode(data) }
            }
        }
    }

    @Test func decodeOptionsApplyToEveryCoder() throws {
        for format in Self.writableFormats {
            let data = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 40, height: 30)), as: format)
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(scale: 2, keepsData: true))
            #expect(image.scale == 2)
            #expect(image.data == data)
            #expect(image.size == (20, 15))
            let limited = #expect(throws: ImageCodingError.self) {
                try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(maximumPixelCount: 40 * 30 - 1))
            }
            #expect(limited?.code == .imageTooLarge, "\(format)")
        }
    }
}

@Suite struct RegistryProgressiveDecodingTests {
    @Test(arguments: [ImageFormat.jpeg, .png, .gif, .webp])
    func theRegistryHandsOutAProgressiveDecoderForIncrementalFormats(format: ImageFormat) throws {
        let data = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 64, height: 48)), as: format)
        let decoder = try #require(ImageCodersManager.shared.makeProgressiveDecoder(for: data.prefix(16), options: ImageDecodingOptions()))
        let image = try decoder.decode(data)
        #expect(decoder.isComplete)
        #expect(image?.pixels == (try ImageCodersManager.shared.decode(data)).pixels)
    }

    @Test func formatsWithoutIncrementalDecodingGetNone() throws {
        let avif = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 16, height: 16)), as: .avif)
        #expect(ImageCodersManager.shared.makeProgressiveDecoder(for: avif, options: ImageDecodingOptions()) == nil)
        #expect(ImageCodersManager.shared.makeProgressiveDecoder(for: Data("text".utf8), options: ImageDecodingOptions()) == nil)
    }
}
