import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
@testable import WebImageServer

/// imgproxy's processing options added for the drop-in (issue 30), on the origin's photo: 400×300, the left half
/// red (220, 0, 0), the right half blue (0, 0, 220).
@Suite struct ImgproxyOptionsTests {
    typealias Colors = SyntheticImages
    static let red = RGBA(red: 220, green: 0, blue: 0), blue = RGBA(red: 0, green: 0, blue: 220)

    /// The decoded answer to `options` for the photo, as PNG.
    static func image(_ client: any TestClientProtocol, _ base: String, _ options: String) async throws -> PixelBuffer {
        try await client.execute(uri: "/_/\(options)/f:png/plain/\(base)/photo.jpg", method: .get) { response in
            #expect(response.status == .ok, "\(options)")
            return try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: .init()).pixels
        }
    }

    @Test func flipMirrorsTheResultAfterTheRotation() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let flipped = try await Self.image(client, base, "fl:1")
            #expect(Colors.close(flipped[20, 150], Self.blue, tolerance: 12) && Colors.close(flipped[380, 150], Self.red, tolerance: 12))
            let turned = try await Self.image(client, base, "rot:90/fl::1")
            // Turned clockwise the red half is on top; flipped top to bottom it is at the bottom.
            #expect(turned.size == PixelSize(width: 300, height: 400))
            #expect(Colors.close(turned[150, 380], Self.red, tolerance: 12) && Colors.close(turned[150, 20], Self.blue, tolerance: 12))
        }
    }

    @Test func pixelateMakesBlocksOfOneAverageColour() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let blocks = try await Self.image(client, base, "pix:100")
            #expect(blocks[100, 0] == blocks[199, 99] && blocks[200, 0] == blocks[299, 99])
            #expect(Colors.close(blocks[150, 50], Self.red, tolerance: 12))
            let mixed = try await Self.image(client, base, "pix:150")
            // The block from x = 150 to 299 is a third red and two thirds blue.
            #expect(Colors.close(mixed[160, 10], RGBA(red: 73, green: 0, blue: 147), tolerance: 12), "\(mixed[160, 10])")
        }
    }

    @Test func paddingAddsCSSStyleSidesTimesDprFilledWithTheBackground() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let padded = try await Self.image(client, base, "w:200/pd:10:20/bg:00ff00")
            #expect(padded.size == PixelSize(width: 240, height: 170))
            #expect(padded[5, 5] == RGBA(red: 0, green: 255, blue: 0) && padded[235, 165] == RGBA(red: 0, green: 255, blue: 0))
            #expect(Colors.close(padded[30, 20], Self.red, tolerance: 12))
            let hidpi = try await Self.image(client, base, "w:100/dpr:2/pd:5")
            #expect(hidpi.size == PixelSize(width: 220, height: 170))
            #expect(hidpi[3, 3].alpha == 0)
        }
    }

    @Test func anExpiredURLIs404AndAFutureOneIsServed() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let past = Int(Date().timeIntervalSince1970) - 60, future = Int(Date().timeIntervalSince1970) + 3600
            try await client.execute(uri: "/_/w:50/exp:\(past)/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.status == .notFound && String(buffer: response.body) == "the URL has expired\n")
            }
            try await client.execute(uri: "/_/w:50/exp:\(future)/plain/\(base)/photo.jpg", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func zeroBlurAndSharpenCancelAPresetsFilter() async throws {
        let presets = try ProcessingPresets(parsing: ["soft=bl:20"])
        try await ServerTestHarness.run(configure: { $0.presets = presets }) { client, base, _ in
            let plain = try await Self.image(client, base, "w:100")
            let cancelled = try await Self.image(client, base, "w:100/pr:soft/bl:0")
            let blurred = try await Self.image(client, base, "w:100/pr:soft")
            #expect(cancelled == plain && blurred != plain)
        }
    }

    /// The body and content type of the answer to `options` for `source`.
    static func answer(_ client: any TestClientProtocol, _ base: String, _ options: String, source: String = "photo.jpg") async throws -> (ByteBuffer, String?) {
        try await client.execute(uri: "/_/\(options)/plain/\(base)/\(source)", method: .get) { response in
            #expect(response.status == .ok, "\(options)")
            return (response.body, response.headers[.contentType])
        }
    }

    @Test func formatQualityAppliesToItsFormatAndQualityWins() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let (byFormat, _) = try await Self.answer(client, base, "w:200/fq:jpg:20:webp:90")
            let (explicit, _) = try await Self.answer(client, base, "w:200/q:20")
            let (both, _) = try await Self.answer(client, base, "w:200/fq:jpg:20/q:60")
            let (at60, _) = try await Self.answer(client, base, "w:200/q:60")
            #expect(byFormat == explicit && both == at60 && byFormat != at60)
        }
    }

    @Test func maxBytesLowersTheQualityUntilTheResultFits() async throws {
        try await ServerTestHarness.run { client, base, origin in
            let (full, _) = try await Self.answer(client, base, "q:100")
            let (low, _) = try await Self.answer(client, base, "q:20")
            let limit = low.readableBytes
            #expect(full.readableBytes > limit)
            let (fitted, type) = try await Self.answer(client, base, "q:100/mb:\(limit)")
            #expect(fitted.readableBytes <= limit && type == "image/jpeg", "\(fitted.readableBytes) > \(limit)")
            let (png, _) = try await Self.answer(client, base, "mb:10/f:png")
            #expect(png.readableBytes > 10)  // PNG is lossless: max_bytes does not apply
            _ = origin
        }
    }

    @Test func rawAndSkipProcessingServeTheSourceBytesAsTheyAre() async throws {
        try await ServerTestHarness.run { client, base, origin in
            let source = ByteBuffer(bytes: origin.photo)
            let (raw, type) = try await Self.answer(client, base, "w:50/raw:1")
            #expect(raw == source && type == "image/jpeg")
            let (skipped, _) = try await Self.answer(client, base, "w:50/skp:jpg:png")
            #expect(skipped == source)
            // Skipped only when the result would be in the source's format.
            let (converted, convertedType) = try await Self.answer(client, base, "w:50/skp:jpg/f:png")
            #expect(converted != source && convertedType == "image/png")
            let (other, _) = try await Self.answer(client, base, "w:50/skp:png")
            #expect(other != source)
        }
    }
}
