import Foundation
import WebImageCore

/// What a WebP file's RIFF header and first chunk say, read in Swift before libwebp sees the data.
///
/// libwebp accepts some incomplete files (a RIFF size larger than the data, a VP8X file whose
/// metadata chunks are cut off), so the container check here is what makes a file cut at any
/// point fail with `.truncatedData`. A `VP8X` header also gives the canvas size, which is checked
/// against the pixel limit before libwebp is asked anything (libwebp itself rejects canvases of
/// 2³² pixels or more as corrupt, not as too large).
struct WebPContainer {
    /// The canvas size a `VP8X` chunk declares; `nil` for a simple (VP8 or VP8L only) file.
    var canvasSize: PixelSize?
    /// The `VP8X` flag for an `EXIF` chunk.
    var hasEXIF = false
    /// The `VP8X` flag for an animation.
    var hasAnimation = false
    /// The file's length as its RIFF header declares it (the RIFF size plus 8); bytes past it are ignored.
    var fileSize = 0

    private static let riffTag = Array("RIFF".utf8)
    private static let webpTag = Array("WEBP".utf8)
    /// "RIFF", the RIFF size, "WEBP".
    private static let riffHeaderSize = 12
    /// The RIFF header plus one chunk header: the least a WebP file can be.
    private static let minimumFileSize = riffHeaderSize + 8
    /// A `VP8X` chunk: header (8), flags (4), canvas width − 1 (3), canvas height − 1 (3).
    private static let vp8xEnd = riffHeaderSize + 8 + 10

    /// Reads the header, throwing `.truncatedData` when the data is shorter than the RIFF size
    /// declares, `.corruptData` for an impossible RIFF size and `.unsupportedFormat` for data that is not WebP.
    init(_ data: Data) throws(ImageCodingError) {
        let parsed = data.withUnsafeBytes { Self.parse($0, prefix: false) }
        switch parsed {
        case .success(let container?): self = container
        case .success(nil): throw ImageCodingError(.truncatedData, format: .webp, "the data ends inside the WebP header")
        case .failure(let error): throw error
        }
    }

    /// Reads the header from the first bytes of a file still arriving (progressive decoding): `nil`
    /// while the RIFF header or the `VP8X` chunk is incomplete, and no complaint that the data is
    /// shorter than the RIFF size; throws as ``init(_:)`` does for anything else.
    init?(prefix data: Data) throws(ImageCodingError) {
        let parsed = data.withUnsafeBytes { Self.parse($0, prefix: true) }
        switch parsed {
        case .success(let container?): self = container
        case .success(nil): return nil
        case .failure(let error): throw error
        }
    }

    private init() {}

    /// Parses the header; `.success(nil)` means "too short so far", only when `prefix` is set.
    private static func parse(_ bytes: UnsafeRawBufferPointer, prefix: Bool) -> Result<WebPContainer?, ImageCodingError> {
        guard bytes.count >= minimumFileSize else {
            // A prefix of "RIFF????WEBP": a WebP file cut inside its header.
            let looksLikeWebP = zip(bytes.prefix(4), riffTag).allSatisfy(==)
                && zip(bytes.dropFirst(8).prefix(4), webpTag).allSatisfy(==)
            if prefix, looksLikeWebP { return .success(nil) }
            return .failure(looksLikeWebP
                ? ImageCodingError(.truncatedData, format: .webp, "the data ends inside the \(bytes.count)-byte RIFF header")
                : ImageCodingError(.unsupportedFormat, format: .unknown, "the data is not a WebP RIFF container"))
        }
        guard bytes.starts(with: riffTag), bytes[8..<12].elementsEqual(webpTag) else {
            return .failure(ImageCodingError(.unsupportedFormat, format: .unknown, "the data is not a WebP RIFF container"))
        }
        let riffSize = Int(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
        guard riffSize >= minimumFileSize - 8 else {
            return .failure(ImageCodingError(.corruptData, format: .webp, "the RIFF size \(riffSize) is too small for a WebP file"))
        }
        // The RIFF size counts everything after its own field; trailing bytes beyond it are ignored, as libwebp does.
        guard prefix || bytes.count - 8 >= riffSize else {
            return .failure(ImageCodingError(
                .truncatedData, format: .webp,
                "the RIFF header declares \(riffSize + 8) bytes but the data has only \(bytes.count)"
            ))
        }
        var container = WebPContainer()
        container.fileSize = riffSize + 8
        if bytes[12..<16].elementsEqual("VP8X".utf8) {
            if prefix, riffSize + 8 >= vp8xEnd, bytes.count < vp8xEnd { return .success(nil) }
            guard riffSize + 8 >= vp8xEnd, bytes.count >= vp8xEnd else {
                return .failure(ImageCodingError(.corruptData, format: .webp, "the VP8X chunk is shorter than its 10 bytes"))
            }
            let flags = bytes[20]
            container.hasAnimation = flags & 0x02 != 0
            container.hasEXIF = flags & 0x08 != 0
            container.canvasSize = PixelSize(width: 1 + uint24(bytes, at: 24), height: 1 + uint24(bytes, at: 27))
        }
        return .success(container)
    }

    private static func uint24(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
    }
}

extension WebPContainer {
    /// A minimal little-endian TIFF block holding only the orientation tag, the payload of a WebP `EXIF` chunk.
    ///
    /// Layout: `II`, 42, first IFD at offset 8; one IFD entry (tag 0x0112, type SHORT, count 1, the value);
    /// next-IFD offset 0. 26 bytes in all.
    static func exifOrientationBlock(_ orientation: ImageOrientation) -> [UInt8] {
        let value = UInt8(orientation.exifValue)
        return [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, // header: little-endian, magic 42, IFD at 8
            0x01, 0x00, // one entry
            0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, value, 0x00, 0x00, 0x00, // Orientation, SHORT, 1, value
            0x00, 0x00, 0x00, 0x00, // no next IFD
        ]
    }
}
