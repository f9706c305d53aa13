import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31: the damaged fixtures (`Fixtures/damaged`, written by scripts/make-damaged-fixtures.py from our own
/// samples) decode as headless Chromium shows them: `chromium.json` is Chromium's verdict and size for each file,
/// re-checked against Chromium itself in CI (scripts/damaged-fixtures-check.sh).
@Suite struct DamagedFixtureTests {
    /// What Chromium shows for one file.
    struct ChromiumVerdict: Decodable {
        var shown: Bool
        var width: Int
        var height: Int
    }

    static func verdicts() throws -> [String: ChromiumVerdict] {
        try JSONDecoder().decode([String: ChromiumVerdict].self, from: Fixtures.data("damaged/chromium.json"))
    }

    static let names: [String] = (try? verdicts().keys.sorted()) ?? []

    /// The clean file a damaged fixture was made from, when its rows can be compared (same size, same encoding).
    static func cleanSource(of name: String) -> String? {
        if name.hasPrefix("clean-") { return nil }
        if name.hasPrefix("jpeg-") { return "clean-photo.jpg" }
        if name.hasPrefix("progressive-") { return "clean-progressive.jpg" }
        if name.hasPrefix("gif-") { return "clean-animation.gif" }
        if name.hasPrefix("png-palette") { return "clean-palette.png" }
        if name.hasPrefix("webp-animation") { return "clean-animation.webp" }
        if name.hasPrefix("webp-") { return "clean-photo.webp" }
        if name.hasPrefix("apng-") { return "clean-animation.png" }
        if name.hasPrefix("adam7-") { return "clean-adam7.png" }
        if name.hasPrefix("ico-") { return "clean-photo.ico" }
        if name.hasPrefix("bmp-") { return nil } // bottom-up: the rows it keeps are the bottom ones (the issue names row 0)
        if name.hasPrefix("png-bad-row") || name.hasPrefix("png-bad-zlib") { return nil } // a stored-zlib file of its own
        return name.hasPrefix("png-") ? "clean-alpha.png" : nil
    }

    @Test func theFixtureSetCoversEveryFormatAndBothVerdicts() throws {
        let verdicts = try Self.verdicts()
        #expect(verdicts.count >= 25)
        for prefix in ["jpeg-", "progressive-", "png-", "gif-", "webp-", "apng-", "adam7-", "bmp-", "ico-"] {
            let group = verdicts.filter { $0.key.hasPrefix(prefix) }
            #expect(!group.isEmpty, "\(prefix)")
        }
        #expect(verdicts.values.contains { !$0.shown } && verdicts.values.contains { $0.shown })
    }

    @Test(arguments: names) func decodesAsChromiumShowsIt(name: String) throws {
        let verdict = try #require(try Self.verdicts()[name])
        let data = try Fixtures.data("damaged/" + name)
        guard verdict.shown else {
            #expect(throws: ImageCodingError.self, "Chromium shows nothing for \(name)") {
                try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions())
            }
            return
        }
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions())
        #expect(image.pixelSize == PixelSize(width: verdict.width, height: verdict.height), "Chromium's size")
        if name.hasPrefix("clean-") {
            #expect(image.issues.isEmpty)
            return
        }
        // Two fixtures are odd rather than damaged as far as a decoder can tell: zlib's checksum, which Chromium and a
        // lenient decode do not check, and a first frame outside the screen, which grows the image in every browser.
        guard !["png-bad-zlib-checksum.png", "gif-first-frame-past-screen.gif"].contains(name) else { return }
        #expect(!image.issues.isEmpty, "the damage is reported")
        #expect(throws: ImageCodingError.self, "strict refuses \(name)") {
            try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(strict: true))
        }
        guard let source = Self.cleanSource(of: name), let row = image.issues.compactMap(\.firstDamagedRow).min() else { return }
        let clean = try ImageCodersManager.shared.decode(Fixtures.data("damaged/" + source), options: ImageDecodingOptions())
        guard clean.pixelSize == image.pixelSize else { return }
        #expect(DamagedImageTests.topRows(image.pixels, row) == DamagedImageTests.topRows(clean.pixels, row),
                "the rows above the damage (\(row)) are the clean file's")
    }

    /// Thumbnails and shrink-on-load take other paths through the decoders (rows streamed band by band, frames
    /// resampled as they are composited): they show or refuse the same files.
    @Test(arguments: names) func thumbnailsDecodeAsChromiumShowsIt(name: String) throws {
        let verdict = try #require(try Self.verdicts()[name])
        let data = try Fixtures.data("damaged/" + name)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 24, height: 24))
        guard verdict.shown else {
            #expect(throws: ImageCodingError.self) { try ImageCodersManager.shared.decode(data, options: options) }
            return
        }
        let image = try ImageCodersManager.shared.decode(data, options: options)
        #expect(max(image.pixelSize.width, image.pixelSize.height) == min(24, max(verdict.width, verdict.height)), "\(image.pixelSize)")
    }
}
