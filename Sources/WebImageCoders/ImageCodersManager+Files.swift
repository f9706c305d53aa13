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

/// The start of a file, read chunk by chunk up to the first `IDAT` of a PNG that is not animated: enough for
/// the decoder's header, profile and animation checks, leaving the image data to be read as it is decoded.
struct PNGFileHead {
    /// The most bytes read before the image data (chunks before it are metadata; a longer run is read whole).
    static let maximumSize = 16 << 20

    /// The bytes read: the signature and every chunk before the first `IDAT`, then that chunk's length and type.
    private(set) var bytes = Data()
    /// Whether `bytes` ends at the first `IDAT`'s data, with no `acTL` before it; `false` for any other
    /// file (not a PNG, an animated PNG, one cut short), whose `bytes` are then just where reading stopped.
    private(set) var endsAtImageData = false

    init(readingFrom file: FileHandle) throws {
        guard try append(APNGChunkReader.signature.count, from: file),
              bytes.elementsEqual(APNGChunkReader.signature) else { return }
        while bytes.count <= Self.maximumSize, try append(8, from: file) {
            let header = Array(bytes.suffix(8))
            let length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = header[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if type == PNGChunk.idat {
                endsAtImageData = true
                return
            }
            guard type != PNGChunk.actl, type != PNGChunk.iend, length <= Self.maximumSize,
                  try append(length + 4, from: file) else { return } // data and CRC
        }
    }

    /// Reads `count` more bytes; whether they were all there.
    private mutating func append(_ count: Int, from file: FileHandle) throws -> Bool {
        let read = try file.read(upToCount: count) ?? Data()
        bytes.append(read)
        return read.count == count
    }
}
