public import Foundation
public import WebImageCore

extension ImageCodersManager {
    /// Decodes the image file at `url`.
    ///
    /// A still PNG that the built-in ``PNGCoder`` decodes is read as its rows are decoded, 64 KiB at a
    /// time, so with a thumbnail size or a scale-down limit in `options` neither the file nor its full-size
    /// pixels are ever whole in memory (an 82 MB 8000×6000 PNG scales down to 60 MB of pixels in about 90 MB
    /// of memory instead of 170; an interlaced PNG's pixels are still decoded whole first). Every other file,
    /// an animated PNG included, is read whole and decoded as `decode(_:options:)` decodes its bytes; so is
    /// a PNG when `options` keep the data.
    ///
    /// Throws the file system's error when the file cannot be opened or read, and otherwise what
    /// `decode(_:options:)` throws; `ImageCodingError.Code.readFailed` when reading a PNG fails part way.
    ///
    /// ```swift
    /// let options = ImageDecodingOptions(scaleDownLimitBytes: ImageDecodingOptions.defaultScaleDownLimitBytes)
    /// let image = try ImageCodersManager.shared.decode(contentsOf: URL(fileURLWithPath: "huge.png"), options: options)
    /// ```
    public func decode(contentsOf url: URL, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> Image {
        let file = try FileHandle(forReadingFrom: url)
        defer { try? file.close() }
        let head = try PNGFileHead(readingFrom: file)
        if head.endsAtImageData, !options.keepsData, let png = decoder(for: head.bytes) as? PNGCoder {
            return try png.decodeStill(head.bytes, readingOnFrom: file.fileDescriptor, options: options)
        }
        return try decode(Self.wholeFile(file, startingWith: head.bytes), options: options)
    }

    /// The file's bytes in one buffer: read again from the start when the file can seek (so the head and
    /// the rest are never both in memory beside their concatenation), else the head and the rest joined.
    private static func wholeFile(_ file: FileHandle, startingWith head: Data) throws -> Data {
        if (try? file.seek(toOffset: 0)) != nil { return try file.readToEnd() ?? Data() }
        return head + (try file.readToEnd() ?? Data())
    }
}

/// The start of a file, read in 64 KiB blocks until it holds every chunk of a PNG before its first `IDAT`:
/// enough for the decoder's header, profile and animation checks, leaving the rest of the image data to be
/// read as it is decoded.
struct PNGFileHead {
    /// The most bytes read before the image data (chunks before it are metadata; a longer run is read whole).
    static let maximumSize = 16 << 20
    /// How many bytes are read at a time.
    static let blockSize = 64 << 10

    /// The bytes read, from the start of the file: when ``endsAtImageData``, the signature, every chunk
    /// before the first `IDAT` and that chunk's length and type, and possibly more of the file after them.
    private(set) var bytes = Data()
    /// Whether `bytes` reach the first `IDAT`'s data with no `acTL` before it; `false` for any other file
    /// (not a PNG, an animated PNG, one cut short or with more than ``maximumSize`` bytes of chunks first).
    private(set) var endsAtImageData = false

    init(readingFrom file: FileHandle) throws {
        var offset = APNGChunkReader.signature.count // of the next chunk
        while true {
            while bytes.count < offset + 8 {
                guard offset <= Self.maximumSize, try appendBlock(from: file) else { return }
            }
            guard bytes.prefix(APNGChunkReader.signature.count).elementsEqual(APNGChunkReader.signature) else { return }
            let header = bytes[(bytes.startIndex + offset)..<(bytes.startIndex + offset + 8)]
            let length = header.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            let type = header.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if type == PNGChunk.idat {
                endsAtImageData = true
                return
            }
            guard type != PNGChunk.actl, type != PNGChunk.iend, length <= Self.maximumSize else { return }
            offset += 12 + length // length, type, data, CRC
        }
    }

    /// Reads the next block; whether anything was left to read.
    private mutating func appendBlock(from file: FileHandle) throws -> Bool {
        let read = try file.read(upToCount: Self.blockSize) ?? Data()
        bytes.append(read)
        return !read.isEmpty
    }
}
