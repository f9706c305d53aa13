import Foundation
import WebImageCore

/// Decodes an animated PNG (APNG) on top of the still-PNG glue: each frame's data is wrapped into a
/// standalone PNG in memory (the file's IHDR with the frame's size, its PLTE and tRNS, the frame's
/// data as IDAT with fresh CRCs, IEND), decoded by libpng, and composited onto the canvas.
///
/// Validation, chosen between the specification and browsers' leniency:
/// - every chunk's CRC is checked and the file must reach IEND (a cut anywhere throws `truncatedData`);
/// - `fcTL` and `fdAT` sequence numbers must strictly increase (gaps allowed, disorder is `corruptData`);
/// - each frame must lie inside the canvas, have a non-zero size and some data; an `fcTL` before the
///   IDAT must cover the whole canvas at (0, 0); `fdAT` before any `fcTL` is `corruptData`;
/// - frame counts are lenient, as in browsers: frames past `acTL`'s `num_frames` are ignored, fewer
///   frames than announced play as they are, and an `acTL` with no frame at all decodes as a still PNG.
///
/// The default image is decoded only when an `fcTL` precedes the IDAT (it is then frame 0);
/// otherwise it is not part of the animation and is skipped (its CRCs are still checked).
enum APNGDecoder {
    /// The animation as the chunks describe it.
    struct Animation {
        var canvasWidth: Int
        var canvasHeight: Int
        /// The IHDR's data (13 bytes).
        var header: Range<Int>
        var palette: Range<Int>?
        var transparency: Range<Int>?
        var exif: Range<Int>?
        var declaredFrameCount: Int
        var playCount: Int
        var frames: [Frame]
        /// What a lenient parse let pass: bad checksums, chunks dropped after a broken one.
        var issues: [DecodingIssue] = []
        /// Whether the file ends before IEND (a lenient parse keeps the last frame's data as far as it goes).
        var isCut = false
    }

    /// One frame: its control chunk and the ranges of its compressed data (IDAT or fdAT payloads).
    struct Frame {
        var control: APNGFrameControl
        var data: [Range<Int>]
    }

    /// What the decode produced.
    struct Decoded {
        var frames: [ImageFrame]
        var loopCount: Int
        var orientation: ImageOrientation
        /// What a lenient decode let pass; empty for a clean file.
        var issues: [DecodingIssue] = []
    }

    /// Decodes every frame (or the first, per `options`), or returns `nil` when the file turns out to
    /// have no animation frame (an `acTL` announcing none): decode it as a still PNG then.
    ///
    /// With `framesReceived`, `data` may be a prefix of the file: the frames whose data is complete
    /// (a later `fcTL` or IEND has arrived) are decoded, `nil` when there is none yet.
    ///
    /// Unless `options.strict` (and without `framesReceived`), a damaged file plays what decodes, as browsers
    /// show it (see ``decodeLeniently(_:playsAll:in:canvas:maximumPixelCount:)``); the result's issues say what was wrong.
    static func decode(_ data: Data, options: ImageDecodingOptions, framesReceived: Bool = false) throws -> Decoded? {
        let lenient = !options.strict && !framesReceived
        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> Decoded? in
            let animation = try parse(
                bytes, maximumPixelCount: options.maximumPixelCount, upToTruncation: framesReceived, lenient: lenient
            )
            guard !animation.frames.isEmpty else { return nil }
            var frames = animation.frames
            var canvas = APNGCanvas(width: animation.canvasWidth, height: animation.canvasHeight)
            if options.firstFrameOnly {
                frames.removeSubrange(1...)
            } else {
                let (total, overflow) = frames.count.multipliedReportingOverflow(by: canvas.frameByteCount)
                if frames.count > 1, overflow || total > options.maximumAnimationByteCount {
                    guard options.firstFrameWhenAnimationTooLarge else {
                        throw ImageCodingError(.animationTooLarge, format: .png,
                                               "\(frames.count) frames of \(canvas.width)×\(canvas.height) exceed \(options.maximumAnimationByteCount) bytes")
                    }
                    frames.removeSubrange(1...)
                }
            }
            var decoded: [ImageFrame] = []
            decoded.reserveCapacity(frames.count)
            var issues = animation.issues
            if lenient {
                var wanted = animation
                wanted.frames = frames
                let playsAll = frames.count == animation.frames.count
                let played = try decodeLeniently(wanted, playsAll: playsAll, in: bytes, canvas: &canvas, maximumPixelCount: options.maximumPixelCount)
                decoded = played.frames
                issues += played.issues
            } else {
                for (index, frame) in frames.enumerated() {
                    try draw(frame, isFirst: index == 0, of: animation, in: bytes, onto: &canvas, maximumPixelCount: options.maximumPixelCount)
                    decoded.append(ImageFrame(pixels: canvas.snapshot(), duration: frame.control.duration))
                }
            }
            if decoded.count == 1 { decoded[0].duration = .zero }
            return Decoded(frames: decoded, loopCount: decoded.count == 1 ? 0 : animation.playCount,
                           orientation: orientation(of: animation, in: bytes), issues: issues)
        }
    }

    /// Decodes `frame` (its data wrapped as a standalone PNG) and draws it onto `canvas`, which holds the
    /// frames before it: the one step of composition shared by the full decode and ``APNGFrameSource``.
    static func draw(
        _ frame: Frame, isFirst: Bool, of animation: Animation, in bytes: UnsafeRawBufferPointer,
        onto canvas: inout APNGCanvas, maximumPixelCount: Int
    ) throws {
        let png = standalonePNG(for: frame, of: animation, in: bytes)
        let pixels = try LibPNG.decode(png, maximumPixelCount: maximumPixelCount).pixels
        canvas.draw(pixels, control: frame.control, isFirst: isFirst)
    }

    /// The orientation from the file's `eXIf` chunk, `.up` without one.
    static func orientation(of animation: Animation, in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        animation.exif.flatMap { ExifOrientationReader.orientation(inTIFF: UnsafeRawBufferPointer(rebasing: bytes[$0])) } ?? .up
    }

    /// Reads the chunks into an ``Animation``, checking CRCs, the canvas size against `maximumPixelCount`
    /// and the rules in the type's documentation.
    /// With `upToTruncation`, `bytes` may be a prefix: the frames are those whose data is complete.
    ///
    /// With `lenient`, as browsers read a damaged file: CRC mismatches are let pass, and a cut or a chunk that
    /// breaks a rule after some frame data ends the walk, keeping the frames so far (the last one's data as far
    /// as it goes); ``Animation/issues`` and ``Animation/isCut`` say so. A broken IHDR or acTL still throws.
    static func parse(
        _ bytes: UnsafeRawBufferPointer, maximumPixelCount: Int, upToTruncation: Bool = false, lenient: Bool = false
    ) throws(ImageCodingError) -> Animation {
        let chunks: [PNGChunk]
        var issues: [DecodingIssue] = []
        if lenient {
            let walk = try APNGChunkReader.chunksLeniently(in: bytes)
            chunks = walk.chunks
            if !walk.badChecksums.isEmpty {
                issues.append(DecodingIssue(.checksumMismatch, detail: "CRC error in \(walk.badChecksums.joined(separator: ", "))"))
            }
        } else {
            chunks = try APNGChunkReader.chunks(in: bytes, upToTruncation: upToTruncation)
        }
        guard let first = chunks.first, first.type == PNGChunk.ihdr, first.data.count == 13 else {
            throw ImageCodingError(.corruptData, format: .png, "the file does not start with an IHDR chunk")
        }
        let width = Int(APNGChunkReader.readUInt32(bytes, at: first.data.lowerBound))
        let height = Int(APNGChunkReader.readUInt32(bytes, at: first.data.lowerBound + 4))
        try ImageCodingError.checkDimensions(.png, width: width, height: height, limit: maximumPixelCount)
        var animation = Animation(canvasWidth: width, canvasHeight: height, header: first.data, declaredFrameCount: 0, playCount: 0, frames: [])

        var seenIDAT = false, defaultImageIsFrame = false
        var lastSequence: UInt32?
        func checkSequence(_ number: UInt32) throws(ImageCodingError) {
            if let lastSequence, number <= lastSequence {
                throw ImageCodingError(.corruptData, format: .png, "APNG sequence number \(number) after \(lastSequence)")
            }
            lastSequence = number
        }
        func read(_ chunk: PNGChunk) throws(ImageCodingError) {
            let payload = UnsafeRawBufferPointer(rebasing: bytes[chunk.data])
            switch chunk.type {
            case PNGChunk.plte where !seenIDAT: animation.palette = chunk.data
            case PNGChunk.trns where !seenIDAT: animation.transparency = chunk.data
            case PNGChunk.exif: animation.exif = chunk.data
            case PNGChunk.actl where !seenIDAT:
                guard payload.count == 8 else {
                    throw ImageCodingError(.corruptData, format: .png, "an acTL chunk of \(payload.count) bytes instead of 8")
                }
                animation.declaredFrameCount = Int(APNGChunkReader.readUInt32(payload, at: 0))
                animation.playCount = Int(APNGChunkReader.readUInt32(payload, at: 4))
            case PNGChunk.fctl:
                let control = try APNGFrameControl(payload)
                try checkSequence(control.sequenceNumber)
                if let last = animation.frames.last, last.data.isEmpty {
                    throw ImageCodingError(.corruptData, format: .png, "APNG frame \(animation.frames.count) has no image data")
                }
                guard control.fits(canvasWidth: width, canvasHeight: height) else {
                    throw ImageCodingError(.corruptData, format: .png,
                                           "APNG frame \(animation.frames.count + 1) (\(control.width)×\(control.height) at \(control.x),\(control.y)) lies outside the \(width)×\(height) canvas")
                }
                if !seenIDAT {
                    guard control.x == 0, control.y == 0, control.width == width, control.height == height else {
                        throw ImageCodingError(.corruptData, format: .png, "the fcTL before the IDAT does not cover the canvas")
                    }
                    defaultImageIsFrame = true
                }
                animation.frames.append(Frame(control: control, data: []))
            case PNGChunk.idat:
                seenIDAT = true
                if defaultImageIsFrame, animation.frames.count == 1 { animation.frames[0].data.append(chunk.data) }
            case PNGChunk.fdat:
                guard payload.count >= 4 else {
                    throw ImageCodingError(.corruptData, format: .png, "an fdAT chunk without a sequence number")
                }
                try checkSequence(APNGChunkReader.readUInt32(payload, at: 0))
                guard !animation.frames.isEmpty, !(defaultImageIsFrame && animation.frames.count == 1) else {
                    throw ImageCodingError(.corruptData, format: .png, "an fdAT chunk outside any APNG frame")
                }
                animation.frames[animation.frames.count - 1].data.append((chunk.data.lowerBound + 4)..<chunk.data.upperBound)
            default:
                break
            }
        }
        var stoppedEarly = false
        for chunk in chunks.dropFirst() {
            do {
                try read(chunk)
            } catch where lenient && animation.frames.contains(where: { !$0.data.isEmpty }) {
                issues.append(DecodingIssue(.framesDropped, detail: "\(error.message); the chunks from there on were dropped"))
                stoppedEarly = true
                break
            }
        }
        if lenient {
            // Play the frames with data, the last one as far as its data goes.
            while animation.frames.last?.data.isEmpty == true { animation.frames.removeLast() }
            animation.isCut = !stoppedEarly && chunks.last?.type != PNGChunk.iend
        } else if chunks.last?.type != PNGChunk.iend {
            // A prefix: the last frame's data may still be arriving.
            animation.frames.removeLast(min(1, animation.frames.count))
        } else if let last = animation.frames.last, last.data.isEmpty {
            throw ImageCodingError(.corruptData, format: .png, "APNG frame \(animation.frames.count) has no image data")
        }
        if animation.frames.count > animation.declaredFrameCount {
            animation.frames.removeSubrange(animation.declaredFrameCount...)
        }
        animation.issues = issues
        return animation
    }

    /// A complete PNG holding one frame: the file's IHDR with the frame's size, PLTE, tRNS, the
    /// frame's data as IDAT chunks, IEND; every CRC computed afresh.
    static func standalonePNG(for frame: Frame, of animation: Animation, in bytes: UnsafeRawBufferPointer) -> Data {
        let dataSize = frame.data.reduce(0) { $0 + $1.count + 12 }
        var png = Data(capacity: 8 + 25 + 12 + 256 * 3 + 12 + 256 + dataSize + 12)
        png.append(contentsOf: APNGChunkReader.signature)
        var header = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[animation.header]))
        for (offset, value) in [(0, frame.control.width), (4, frame.control.height)] {
            for index in 0..<4 { header[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        }
        header.withUnsafeBytes { appendChunk(PNGChunk.ihdr, $0, to: &png) }
        if let palette = animation.palette { appendChunk(PNGChunk.plte, UnsafeRawBufferPointer(rebasing: bytes[palette]), to: &png) }
        if let transparency = animation.transparency {
            appendChunk(PNGChunk.trns, UnsafeRawBufferPointer(rebasing: bytes[transparency]), to: &png)
        }
        for range in frame.data { appendChunk(PNGChunk.idat, UnsafeRawBufferPointer(rebasing: bytes[range]), to: &png) }
        appendChunk(PNGChunk.iend, UnsafeRawBufferPointer(start: nil, count: 0), to: &png)
        return png
    }

    private static func appendChunk(_ type: UInt32, _ payload: UnsafeRawBufferPointer, to png: inout Data) {
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let typeBytes = bigEndian(type)
        png.append(contentsOf: bigEndian(UInt32(payload.count)))
        png.append(contentsOf: typeBytes)
        if payload.count > 0 { png.append(payload.assumingMemoryBound(to: UInt8.self)) }
        let crc = typeBytes.withUnsafeBytes { PNGCRC32.checksum(payload, continuing: PNGCRC32.checksum($0)) }
        png.append(contentsOf: bigEndian(crc))
    }
}
