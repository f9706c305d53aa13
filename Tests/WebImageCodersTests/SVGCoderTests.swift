import Foundation
import Testing
import CHEIF
@testable import WebImageCoders

/// SVGCoder against documents written by scripts/fixtures/make-svg-pdf-fixtures.py, whose expected
/// pixels are rsvg-convert's rendering of the same files.
@Suite struct SVGCoderTests {
    /// librsvg is opened at run time: without it an SVG fails with a typed error that says what to install.
    @Test func aMissingVectorLibraryIsAnUnsupportedFormatErrorThatNamesThePackage() {
        #expect {
            _ = try DynamicLibrary(["libwebimage-no-such-library.so.1"], package: "librsvg2-2", for: .svg)
        } throws: { error in
            guard let error = error as? ImageCodingError else { return false }
            return error.code == .unsupportedFormat && error.format == .svg && "\(error)".contains("apt-get install librsvg2-2")
        }
    }

    /// libheif, libjxl and libavif are opened the same way; a library that lacks a function of the table
    /// fails with a typed error naming it, before any call.
    @Test func aLibraryWithoutAFunctionOfItsTableIsAnUnsupportedFormatErrorNamingIt() throws {
        let zlib = try DynamicLibrary(["libz.so.1"], package: "zlib1g", for: .heic)
        #expect {
            _ = try CodecLibraries.table(zlib) { missing in wik_heif_functions_load(zlib.handle, &missing) }
        } throws: { error in
            guard let error = error as? ImageCodingError else { return false }
            return error.code == .unsupportedFormat && error.format == .heic && "\(error)".contains("has no function heif_context_add_XMP_metadata")
        }
    }

    let coder = SVGCoder()

    /// rsvg-convert and we both draw with librsvg 2.54 and cairo; un-premultiplying may round by 1.
    static let tolerance = 1

    @Test func rendersAtTheIntrinsicSizeLikeRsvgConvert() throws {
        let image = try coder.decode(Fixtures.data("svg/basic.svg"))
        let expected = try Fixtures.expectedPixels("svg/basic.rgba", width: 48, height: 32)
        #expect(image.format == .svg)
        #expect(image.pixelSize == PixelSize(width: 48, height: 32))
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func rendersAtTheThumbnailSizeKeepingTheAspectRatioLikeRsvgConvert() throws {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 72, height: 72))
        let image = try coder.decode(Fixtures.data("svg/basic.svg"), options: options)
        let expected = try Fixtures.expectedPixels("svg/basic-72.rgba", width: 72, height: 48)
        #expect(image.pixelSize == PixelSize(width: 72, height: 48)) // enlarged: a vector image has no pixel size of its own
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func stretchesToTheThumbnailSizeWhenNotPreservingTheAspectRatio() throws {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 30, height: 30), thumbnailMode: .stretch)
        let image = try coder.decode(Fixtures.data("svg/basic.svg"), options: options)
        #expect(image.pixelSize == PixelSize(width: 30, height: 30))
        #expect(image.pixels[0, 29].alpha == 255) // the background rectangle fills the whole stretched square
    }

    @Test func documentWithOnlyAViewBoxRendersAtTheViewBoxSizeLikeRsvgConvert() throws {
        let image = try coder.decode(Fixtures.data("svg/viewbox.svg"))
        let expected = try Fixtures.expectedPixels("svg/viewbox.rgba", width: 60, height: 40)
        #expect(image.pixelSize == PixelSize(width: 60, height: 40))
        #expect(image.hasAlpha)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func documentWithoutSizeOrViewBoxThrowsInvalidDimensions() {
        let data = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>"#.utf8)
        #expect(codingError { try coder.decode(data) }?.code == .invalidDimensions)
    }

    @Test func hugeDeclaredSizeThrowsImageTooLargeBeforeAllocating() {
        for size in ["100000", "1e9", "20000000000000000000"] {
            let data = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(size)" height="\#(size)"/>"#.utf8)
            #expect(codingError { try coder.decode(data) }?.code == .imageTooLarge, "\(size)")
        }
        let limited = codingError {
            try coder.decode(Fixtures.data("svg/basic.svg"), options: ImageDecodingOptions(maximumPixelCount: 48 * 32 - 1))
        }
        #expect(limited?.code == .imageTooLarge)
        let thumbnail = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 100_000, height: 100_000))
        #expect(codingError { try coder.decode(Fixtures.data("svg/basic.svg"), options: thumbnail) }?.code == .imageTooLarge)
    }

    @Test func externalFilesAreNeverLoaded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let red = try PNGCoder().encode(Image(pixels: PixelBuffer(width: 8, height: 8, fill: RGBA(red: 255, green: 0, blue: 0))), as: .png)
        let file = folder.appendingPathComponent("red.png")
        try red.write(to: file)
        for reference in [file.absoluteString, file.path, "red.png"] {
            let svg = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="8" height="8">"#
                + #"<image width="8" height="8" xlink:href="\#(reference)"/></svg>"#
            let image = try coder.decode(Data(svg.utf8))
            #expect(image.pixels == PixelBuffer(width: 8, height: 8), "\(reference) was loaded")
        }
        // The same picture as a data: URL inside the document is drawn, so the test above can fail.
        let inline = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="8" height="8">"#
            + #"<image width="8" height="8" xlink:href="data:image/png;base64,\#(red.base64EncodedString())"/></svg>"#
        #expect(try coder.decode(Data(inline.utf8)).pixels[4, 4] == RGBA(red: 255, green: 0, blue: 0))
    }

    @Test func malformedOrCutDocumentsThrowTypedErrors() throws {
        let data = try Fixtures.data("svg/basic.svg")
        for cut in truncations(of: data) {
            #expect(codingError { try coder.decode(cut) } != nil, "cut at \(cut.count)")
        }
        let broken = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"><rect></svg>".utf8)
        #expect(codingError { try coder.decode(broken) }?.code == .corruptData)
    }

    @Test func sharedRegistryRendersSVGAndNeverEncodesIt() throws {
        let image = try ImageCodersManager.shared.decode(Fixtures.data("svg/basic.svg"))
        #expect(image.format == .svg)
        #expect(!coder.canEncode(to: .svg))
    }
}
