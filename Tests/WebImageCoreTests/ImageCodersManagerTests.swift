import Foundation
import Testing
import WebImageCore

/// A coder that accepts data starting with its tag byte and reports which instance decoded it.
private struct TaggedCoder: ImageCoding {
    let tag: UInt8
    let name: String
    var encodes: Set<ImageFormat> = []

    func canDecode(_ data: Data) -> Bool { data.first == tag }

    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        let value = UInt8(truncatingIfNeeded: name.utf8.count)
        return Image(pixels: PixelBuffer(width: 1, height: 1, fill: RGBA(red: value, green: 0, blue: 0)))
    }

    func canEncode(to format: ImageFormat) -> Bool { encodes.contains(format) }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        Data(name.utf8)
    }
}

private struct OtherCoder: ImageCoding {
    func canDecode(_ data: Data) -> Bool { true }
    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image { Image(pixels: PixelBuffer(width: 1, height: 1)) }
    func canEncode(to format: ImageFormat) -> Bool { false }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data { Data() }
}

@Suite struct ImageCodersManagerTests {
    @Test func theLastRegisteredCoderThatCanDecodeWins() throws { // CD-14, K-23
        let manager = ImageCodersManager(coders: [TaggedCoder(tag: 1, name: "a"), TaggedCoder(tag: 1, name: "bbb")])
        #expect(try manager.decode(Data([1])).pixels[0, 0].red == 3)
        manager.add(TaggedCoder(tag: 1, name: "cc"))
        #expect(try manager.decode(Data([1])).pixels[0, 0].red == 2)
    }

    @Test func codersAreListedHighestPriorityFirst() {
        let manager = ImageCodersManager(coders: [TaggedCoder(tag: 1, name: "first")])
        manager.add(OtherCoder())
        #expect(manager.coders.first is OtherCoder)
        #expect(manager.coders.count == 2)
    }

    @Test func removeTakesOutEveryCoderOfThatType() { // CD-13
        let manager = ImageCodersManager(coders: [TaggedCoder(tag: 1, name: "a"), OtherCoder(), TaggedCoder(tag: 2, name: "b")])
        manager.remove(TaggedCoder(tag: 9, name: "any"))
        #expect(manager.coders.count == 1)
        #expect(!manager.canDecode(Data()) || manager.coders.first is OtherCoder)
    }

    @Test func dataNoCoderAcceptsFailsWithUnsupportedFormat() {
        let manager = ImageCodersManager(coders: [TaggedCoder(tag: 1, name: "a")])
        let error = #expect(throws: ImageCodingError.self) { try manager.decode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.format == .png)
        let empty = #expect(throws: ImageCodingError.self) { try manager.decode(Data()) }
        #expect(empty?.code == .unsupportedFormat)
    }

    @Test func encodingPicksTheCoderForTheFormatAndUnknownMeansPNGForAlphaElseJPEG() throws { // K-24
        let manager = ImageCodersManager(coders: [
            TaggedCoder(tag: 1, name: "png", encodes: [.png]),
            TaggedCoder(tag: 2, name: "jpeg", encodes: [.jpeg]),
        ])
        let opaque = Image(pixels: PixelBuffer(width: 1, height: 1, fill: .white))
        let clear = Image(pixels: PixelBuffer(width: 1, height: 1))
        #expect(try manager.encode(opaque, as: .png) == Data("png".utf8))
        #expect(try manager.encode(opaque, as: .unknown) == Data("jpeg".utf8))
        #expect(try manager.encode(clear, as: .unknown) == Data("png".utf8))
        let error = #expect(throws: ImageCodingError.self) { try manager.encode(opaque, as: .tiff) }
        #expect(error?.code == .unsupportedFormat)
    }

    @Test func k24UnknownKeepsTheImagesOwnFormatWhenItKeepsAlphaAndFramesElseGIFPNGOrJPEG() throws {
        let manager = ImageCodersManager(coders: [
            TaggedCoder(tag: 1, name: "all", encodes: [.png, .jpeg, .gif, .webp, .avif]),
        ])
        let opaque = PixelBuffer(width: 2, height: 2, fill: .white)
        let clear = PixelBuffer(width: 2, height: 2)
        let frames = [ImageFrame(pixels: opaque), ImageFrame(pixels: opaque)]
        #expect(manager.preferredFormat(for: Image(pixels: opaque, format: .webp)) == .webp)
        #expect(manager.preferredFormat(for: Image(frames: frames, format: .webp)) == .webp)
        #expect(manager.preferredFormat(for: Image(frames: frames, format: .png)) == .gif)  // APNG is not written
        #expect(manager.preferredFormat(for: Image(pixels: clear, format: .jpeg)) == .png)  // JPEG has no alpha
        #expect(manager.preferredFormat(for: Image(pixels: opaque, format: .avif)) == .jpeg)  // AVIF is too slow to write
        #expect(manager.preferredFormat(for: Image(pixels: opaque)) == .jpeg)
    }

    @Test func registryIsSafeToChangeWhileOthersDecode() async {
        let manager = ImageCodersManager(coders: [TaggedCoder(tag: 1, name: "a")])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        if index % 2 == 0 {
                            manager.add(OtherCoder())
                            manager.remove(OtherCoder())
                        } else {
                            _ = try? manager.decode(Data([1]))
                        }
                    }
                }
            }
        }
        #expect(manager.coders.count == 1)
    }
}

@Suite struct ImageCodingErrorTests {
    @Test func dimensionCheckRejectsZeroOverflowAndOverLimitSizes() {
        #expect(throws: Never.self) { try ImageCodingError.checkDimensions(.png, width: 100, height: 100, limit: 10_000) }
        let zero = #expect(throws: ImageCodingError.self) { try ImageCodingError.checkDimensions(.png, width: 0, height: 5, limit: 100) }
        #expect(zero?.code == .invalidDimensions)
        let over = #expect(throws: ImageCodingError.self) { try ImageCodingError.checkDimensions(.png, width: 101, height: 100, limit: 10_000) }
        #expect(over?.code == .imageTooLarge)
        let overflow = #expect(throws: ImageCodingError.self) {
            try ImageCodingError.checkDimensions(.png, width: Int.max / 2, height: 3, limit: .max)
        }
        #expect(overflow?.code == .imageTooLarge)
    }

    @Test func descriptionNamesFormatCodeAndMessage() {
        let error = ImageCodingError(.truncatedData, format: .jpeg, "premature end of data")
        #expect(error.description == "JPEG truncatedData: premature end of data")
    }
}
