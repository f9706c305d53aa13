import Foundation
import Testing
import WebImageCoders

/// Hostile input for the HEIC, JPEG XL, SVG and PDF decoders, through the shared registry.
@Suite struct HEIFJXLSVGPDFRobustnessTests {
    @Test func signaturesFollowedByRandomBytesThrowTypedErrors() {
        let signatures: [[UInt8]] = [
            [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8),
            [0, 0, 0, 0x14] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1".utf8),
            [0xFF, 0x0A],
            [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A],
            Array("%PDF-1.7\n".utf8),
            Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\">".utf8),
        ]
        for (index, signature) in signatures.enumerated() {
            for seed in 1...20 {
                var data = Data(signature) + randomBytes(count: 16 + seed * 37, seed: UInt64(seed * 100 + index))
                if index == 4 { data += Data("%%EOF".utf8) } // past the end-marker check, into poppler
                #expect(throws: ImageCodingError.self, "signature \(index), seed \(seed)") {
                    _ = try ImageCodersManager.shared.decode(data)
                }
            }
        }
    }

    @Test func newFormatsAreDetected() throws {
        #expect(ImageFormat(detecting: try Fixtures.data("heic/opaque.heic")) == .heic)
        #expect(ImageFormat(detecting: try Fixtures.data("jxl/opaque.jxl")) == .jpegXL)
        #expect(ImageFormat(detecting: try Fixtures.data("jxl/alpha.jxl")) == .jpegXL)
        #expect(ImageFormat(detecting: try Fixtures.data("svg/basic.svg")) == .svg)
        #expect(ImageFormat(detecting: try Fixtures.data("pdf/two-pages.pdf")) == .pdf)
    }

    /// Many decodes at once on separate threads (run under the thread sanitizer too).
    @Test func concurrentDecodesOfEveryNewFormatAgree() async throws {
        let names = ["heic/alpha.heic", "jxl/animation.jxl", "svg/basic.svg", "pdf/two-pages.pdf"]
        let files = try names.map { try Fixtures.data($0) }
        let expected = try files.map { try ImageCodersManager.shared.decode($0).pixels }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for round in 0..<16 {
                let index = round % files.count
                let data = files[index], pixels = expected[index]
                group.addTask { try ImageCodersManager.shared.decode(data).pixels == pixels }
            }
            for try await same in group { #expect(same) }
        }
    }
}
