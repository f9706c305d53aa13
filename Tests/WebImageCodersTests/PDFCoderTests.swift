import Foundation
import Testing
@testable import WebImageCoders

/// PDFCoder against a two-page document written by scripts/fixtures/make-svg-pdf-fixtures.py, whose
/// expected pixels are pdftoppm's rendering at 72 dpi.
@Suite struct PDFCoderTests {
    let coder = PDFCoder()

    /// pdftoppm renders with poppler's Splash back end, we with its cairo back end: edges may differ slightly.
    static let tolerance = 2

    @Test func rendersTheFirstPageAt72DpiOnWhiteLikePdftoppm() throws {
        let image = try coder.decode(Fixtures.data("pdf/two-pages.pdf"))
        let expected = try Fixtures.expectedPixels("pdf/two-pages-1.rgba", width: 72, height: 36)
        #expect(image.format == .pdf)
        #expect(image.pixelSize == PixelSize(width: 72, height: 36))
        #expect(!image.hasAlpha)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func configuredPageIndexRendersThatPageLikePdftoppm() throws {
        let image = try PDFCoder(configuration: .init(pageIndex: 1)).decode(Fixtures.data("pdf/two-pages.pdf"))
        let expected = try Fixtures.expectedPixels("pdf/two-pages-2.rgba", width: 72, height: 36)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func pageBeyondTheDocumentThrowsCorruptData() throws {
        let error = codingError { try PDFCoder(configuration: .init(pageIndex: 2)).decode(Fixtures.data("pdf/two-pages.pdf")) }
        #expect(error?.code == .corruptData)
    }

    @Test func rendersAtTheThumbnailSizeLikePdftoppm() throws {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 96, height: 96))
        let image = try coder.decode(Fixtures.data("pdf/two-pages.pdf"), options: options)
        let expected = try Fixtures.expectedPixels("pdf/two-pages-1-96.rgba", width: 96, height: 48)
        #expect(image.pixelSize == PixelSize(width: 96, height: 48))
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func scaleMultipliesThePageSizeAt72Dpi() throws {
        let image = try coder.decode(Fixtures.data("pdf/two-pages.pdf"), options: ImageDecodingOptions(scale: 2))
        #expect(image.pixelSize == PixelSize(width: 144, height: 72))
        #expect(image.size == (72, 36))
    }

    @Test func hugePageThrowsImageTooLargeBeforeAllocating() throws {
        let text = try #require(String(data: Fixtures.data("pdf/two-pages.pdf"), encoding: .isoLatin1))
        let huge = Data(text.replacingOccurrences(of: "/MediaBox [0 0 72 36]", with: "/MediaBox [0 0 72000 36000]").utf8)
        #expect(codingError { try coder.decode(huge) }?.code == .imageTooLarge)
        let limited = codingError {
            try coder.decode(Fixtures.data("pdf/two-pages.pdf"), options: ImageDecodingOptions(maximumPixelCount: 72 * 36 - 1))
        }
        #expect(limited?.code == .imageTooLarge)
    }

    @Test func cutFileThrowsTruncatedData() throws {
        let data = try Fixtures.data("pdf/two-pages.pdf")
        for cut in truncations(of: data) {
            let error = codingError { try coder.decode(cut) }
            #expect(error?.code == .truncatedData || error?.code == .unsupportedFormat, "cut at \(cut.count)")
        }
    }

    @Test func garbageAfterTheSignatureThrowsCorruptData() {
        let data = Data("%PDF-1.4\n".utf8) + randomBytes(count: 500, seed: 7) + Data("\n%%EOF".utf8)
        #expect(codingError { try coder.decode(data) }?.code == .corruptData)
    }

    @Test func sharedRegistryRendersPDFAndNeverEncodesIt() throws {
        let image = try ImageCodersManager.shared.decode(Fixtures.data("pdf/two-pages.pdf"))
        #expect(image.format == .pdf)
        #expect(!coder.canEncode(to: .pdf))
    }
}
