import Foundation
import Testing
@testable import WebImageCoders

/// `ImageCodersManager.decode(contentsOf:)` (issue 15): a still PNG is read from its file as its rows are
/// decoded, never whole; every result equals decoding the file's bytes.
@Suite struct FileDecodeTests {
    static let photo = Image(pixels: .samplePattern(width: 640, height: 480, seed: 11))

    /// Writes `data` to a fresh temporary file and passes its URL to `body`.
    static func withFile<T>(_ data: Data, _ body: (URL) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("file-decode-\(UUID().uuidString)")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }

    static func expectFileDecodeEqualsBytesDecode(_ data: Data, options: ImageDecodingOptions) throws {
        let fromBytes = try ImageCodersManager.shared.decode(data, options: options)
        let fromFile = try withFile(data) { try ImageCodersManager.shared.decode(contentsOf: $0, options: options) }
        #expect(fromFile.pixelSize == fromBytes.pixelSize)
        #expect(fromFile.format == fromBytes.format)
        #expect(fromFile.orientation == fromBytes.orientation)
        #expect(fromFile.frames.count == fromBytes.frames.count)
        #expect(fromFile.iccProfile == fromBytes.iccProfile)
        #expect(maxChannelDifference(fromFile.pixels, fromBytes.pixels) == 0)
    }

    static let optionSets: [ImageDecodingOptions] = [
        ImageDecodingOptions(),
        ImageDecodingOptions(scaleDownLimitBytes: 200 * 150 * 4),
        ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 97, height: 61), thumbnailMode: .stretch),
    ]

    @Test(arguments: 0..<3)
    func aStillPNGFileDecodesToThePixelsOfItsBytes(optionSet: Int) throws {
        // Large enough that libpng reads on from the file many times (the file buffer is 64 KiB).
        let data = try PNGCoder().encode(Self.photo, as: .png)
        #expect(data.count > 4 * 65_536)
        try Self.expectFileDecodeEqualsBytesDecode(data, options: Self.optionSets[optionSet])
    }

    @Test(arguments: ["png/rgba16-adam7.png", "png/palette4-trns.png", "png/exif-orientation6.png", "icc/p3.png",
                      "apng/apng-dispose-previous.png", "apng/apng-one-frame.png", "jpeg/baseline-420.jpg"])
    func everyFileDecodesAsItsBytesDo(fixture: String) throws {
        let data = try Fixtures.data(fixture)
        try Self.expectFileDecodeEqualsBytesDecode(data, options: ImageDecodingOptions())
        try Self.expectFileDecodeEqualsBytesDecode(data, options: ImageDecodingOptions(keepsColorProfile: true))
        try Self.expectFileDecodeEqualsBytesDecode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 12, height: 12)))
    }

    @Test func aStillPNGIsReadUpToItsImageDataFirstAndAnAnimatedOneIsNot() throws {
        let still = try PNGCoder().encode(Self.photo, as: .png)
        let stillHead = try Self.withFile(still) { url in try PNGFileHead(readingFrom: FileHandle(forReadingFrom: url)) }
        let chunks = try still.withUnsafeBytes { try APNGChunkReader.chunks(in: $0) }
        let firstImageData = try #require(chunks.first { $0.type == PNGChunk.idat })
        #expect(stillHead.endsAtImageData)
        #expect(stillHead.bytes.starts(with: still.prefix(firstImageData.data.lowerBound)))
        #expect(stillHead.bytes == still.prefix(PNGFileHead.blockSize), "one block read, not the whole file")

        let animated = try Fixtures.data("apng/apng-dispose-previous.png")
        let animatedHead = try Self.withFile(animated) { url in try PNGFileHead(readingFrom: FileHandle(forReadingFrom: url)) }
        #expect(!animatedHead.endsAtImageData)
        let jpegHead = try Self.withFile(try Fixtures.data("jpeg/baseline-420.jpg")) { url in
            try PNGFileHead(readingFrom: FileHandle(forReadingFrom: url))
        }
        #expect(!jpegHead.endsAtImageData)
    }

    /// A hostile file of many empty chunks before its image data is walked in memory, block by block, and
    /// one with more than 16 MiB of chunks first is read whole instead.
    @Test func aPNGWithLongMetadataIsReadWholeAndManyEmptyChunksAreWalkedInMemory() throws {
        let still = try PNGCoder().encode(Image(pixels: .samplePattern(width: 16, height: 16, seed: 3)), as: .png)
        let chunks = try still.withUnsafeBytes { try APNGChunkReader.chunks(in: $0) }
        let imageData = try #require(chunks.first { $0.type == PNGChunk.idat }).data.lowerBound - 8
        func inserting(_ chunk: Data, count: Int) -> Data {
            var file = Data(still.prefix(33)) // signature and IHDR
            for _ in 0..<count { file.append(chunk) }
            file.append(still[imageData...])
            return file
        }
        let empty = Data([0, 0, 0, 0]) + Data("abCd".utf8) + Data([0, 0, 0, 0]) // an unknown ancillary chunk; CRC unchecked here
        let manyEmpty = inserting(empty, count: 200_000)
        let head = try Self.withFile(manyEmpty) { url in try PNGFileHead(readingFrom: FileHandle(forReadingFrom: url)) }
        #expect(head.endsAtImageData)
        #expect(head.bytes.starts(with: manyEmpty.prefix(33 + 200_000 * 12 + 8)))
        #expect(head.bytes.count <= 33 + 200_000 * 12 + 8 + PNGFileHead.blockSize)

        var big = Data([0x00, 0x20, 0x00, 0x08]) + Data("abCd".utf8) // a 2 MiB + 8 chunk, 9 of them
        big.append(Data(count: (2 << 20) + 8 + 4))
        let longMetadata = inserting(big, count: 9)
        let longHead = try Self.withFile(longMetadata) { url in try PNGFileHead(readingFrom: FileHandle(forReadingFrom: url)) }
        #expect(!longHead.endsAtImageData)
    }

    @Test func aPNGFileCutShortFailsAsItsBytesDoWhenStrict() throws {
        let data = try PNGCoder().encode(Self.photo, as: .png)
        let options = ImageDecodingOptions(scaleDownLimitBytes: 200 * 150 * 4, strict: true)
        for cut in [20, 40, 100, data.count / 3, data.count - 13, data.count - 1] {
            let bytes = data.prefix(cut)
            let expected = codingError { try ImageCodersManager.shared.decode(bytes, options: options) }
            let actual = try Self.withFile(bytes) { url in codingError { try ImageCodersManager.shared.decode(contentsOf: url, options: options) } }
            #expect(expected != nil, "cut at \(cut)")
            #expect(actual?.code == expected?.code, "cut at \(cut): \(String(describing: actual))")
        }
    }

    @Test func libpngReadsOnFromTheDescriptorAfterTheGivenBytes() throws {
        let data = try PNGCoder().encode(Self.photo, as: .png)
        let split = 1_000
        let decoded = try Self.withFile(data) { url in
            let file = try FileHandle(forReadingFrom: url)
            defer { try? file.close() }
            let start = try #require(try file.read(upToCount: split))
            return try LibPNG.decode(start, readingOnFrom: file.fileDescriptor, maximumPixelCount: .max)
        }
        #expect(maxChannelDifference(decoded.pixels, try PNGCoder().decode(data).pixels) == 0)
    }

    @Test func aReadThatFailsPartWayThrowsReadFailed() throws {
        let data = try PNGCoder().encode(Self.photo, as: .png)
        // read(2) on a folder's descriptor fails (EISDIR) once the given bytes are used up.
        let folder = open(FileManager.default.temporaryDirectory.path, O_RDONLY)
        try #require(folder >= 0)
        defer { close(folder) }
        let error = codingError { try LibPNG.decode(data.prefix(1_000), readingOnFrom: folder, maximumPixelCount: .max) }
        #expect(error?.code == .readFailed)
        #expect(error?.message.contains("reading the file failed") == true)
    }

    /// A pipe cannot seek back to its start: the head read first is joined to the rest instead.
    @Test(arguments: ["jpeg/baseline-420.jpg", "png/palette4-trns.png", "apng/apng-one-frame.png"])
    func aFileThatCannotSeekDecodesAsItsBytesDo(fixture: String) throws {
        let data = try Fixtures.data(fixture)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("file-decode-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let writer = Thread {
            // Opening blocks until the decoder opens the other end; it reads every byte, so no write fails.
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.write(data)
            try? handle.close()
        }
        writer.start()
        let fromPipe = try ImageCodersManager.shared.decode(contentsOf: URL(fileURLWithPath: path))
        let fromBytes = try ImageCodersManager.shared.decode(data)
        #expect(fromPipe.pixelSize == fromBytes.pixelSize)
        #expect(fromPipe.frames.count == fromBytes.frames.count)
        #expect(maxChannelDifference(fromPipe.pixels, fromBytes.pixels) == 0)
    }

    @Test func aMissingFileThrowsTheFileSystemsError() {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString).png")
        #expect(throws: CocoaError.self) { try ImageCodersManager.shared.decode(contentsOf: url) }
    }
}
