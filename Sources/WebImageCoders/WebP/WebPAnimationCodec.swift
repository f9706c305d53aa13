import CWebP
import Foundation
import WebImageCore

// The second of the two files that call libwebp (see WebPStillCodec.swift for why there are two):
// animations, through WebPAnimDecoder (libwebpdemux) and WebPAnimEncoder (libwebpmux).

/// Animated WebP decoding and encoding.
enum WebPAnimationCodec {
    /// Frames shown for this long or less play for ``shortFrameReplacement`` instead, as browsers do
    /// for GIF (and Chrome and Firefox for WebP): many files say 0 ms or 10 ms and expect "about 100 ms".
    static let shortFrameThreshold: Duration = .milliseconds(10)
    /// The duration given to frames at or under ``shortFrameThreshold``.
    static let shortFrameReplacement: Duration = .milliseconds(100)

    /// The decoded frames of an animation, each a fully composited canvas, and how often it loops.
    struct Decoded {
        /// The frames, blending and disposal already applied.
        var frames: [ImageFrame]
        /// The loop count from the `ANIM` chunk; 0 means forever.
        var loopCount: Int
        /// What a lenient decode let pass: frames dropped after a cut or a frame that does not decode.
        var issues: [DecodingIssue] = []
    }

    /// Decodes an animation whose canvas (`features`) the caller has checked against the pixel limit.
    ///
    /// With `options.firstFrameOnly`, or when all frames would exceed `options.maximumAnimationByteCount`
    /// and `options.firstFrameWhenAnimationTooLarge` is set, only the first frame is decoded and returned
    /// as a still frame (duration zero, loop count 0).
    ///
    /// Unless `options.strict`, a frame that does not decode ends the animation with the frames before it, and the
    /// result's issues say so (Chromium plays such a file); damage before the first frame still throws. A file cut
    /// short is refused before this, as Chromium refuses it.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, features: WebPFeatures, options: ImageDecodingOptions
    ) throws(ImageCodingError) -> Decoded {
        try decodeFrames(bytes, features: features, options: options)
    }

    /// Decodes the frames of a file whose chunks are all there; unless `options.strict`, a frame that does not
    /// decode ends the animation with the frames before it.
    private static func decodeFrames(
        _ bytes: UnsafeRawBufferPointer, features: WebPFeatures, options: ImageDecodingOptions
    ) throws(ImageCodingError) -> Decoded {
        let decoder = try FrameDecoder(borrowing: bytes, features: features)
        let wanted = try framesToDecode(frameCount: decoder.frameCount, frameBytes: decoder.frameByteCount, options: options)
        var frames: [ImageFrame] = []
        var issues: [DecodingIssue] = []
        frames.reserveCapacity(wanted)
        while frames.count < wanted {
            let pixels: PixelBuffer
            do {
                pixels = try decoder.decodeNext()
            } catch where !options.strict && !frames.isEmpty {
                issues.append(DecodingIssue(.framesDropped, detail: "\(error.message); the frames from \(frames.count + 1) on were dropped"))
                break
            }
            frames.append(ImageFrame(pixels: pixels, duration: wanted == 1 ? .zero : decoder.durations[frames.count]))
        }
        if frames.count == 1 { frames[0].duration = .zero }
        return Decoded(frames: frames, loopCount: frames.count == 1 ? 0 : decoder.loopCount, issues: issues)
    }

    /// How many frames to decode under the memory limit: all, or 1 (or throws `.animationTooLarge`).
    private static func framesToDecode(frameCount: Int, frameBytes: Int, options: ImageDecodingOptions) throws(ImageCodingError) -> Int {
        if options.firstFrameOnly { return 1 }
        let (total, overflow) = frameBytes.multipliedReportingOverflow(by: frameCount)
        guard overflow || total > options.maximumAnimationByteCount else { return frameCount }
        if options.firstFrameWhenAnimationTooLarge { return 1 }
        throw ImageCodingError(
            .animationTooLarge, format: .webp,
            "\(frameCount) frames of \(frameBytes) bytes exceed the limit of \(options.maximumAnimationByteCount) bytes"
        )
    }

    /// A frame's display time as the file gives it, short frames lengthened.
    fileprivate static func frameDuration(milliseconds: Int) -> Duration {
        let duration = Duration.milliseconds(max(milliseconds, 0))
        return duration <= shortFrameThreshold ? shortFrameReplacement : duration
    }
}

// MARK: - Frame-by-frame decoding

extension WebPAnimationCodec {
    /// libwebp's animation decoder, which composites frames strictly in order: the machinery of both
    /// the full decode and ``WebPFrameSource``.
    ///
    /// It reads the encoded bytes in place, so they must outlive it: either borrowed from a scope the
    /// decoder does not leave (``init(borrowing:features:)``) or copied into memory it owns and frees
    /// in `deinit` (``init(copying:features:)``). Not thread-safe: one caller at a time.
    final class FrameDecoder {
        let width: Int
        let height: Int
        let frameCount: Int
        /// The `ANIM` chunk's loop count; 0 means forever.
        let loopCount: Int
        /// Every frame's display time (from the demuxer's per-frame durations, short ones lengthened):
        /// the differences of the timestamps `WebPAnimDecoderGetNext` reports.
        let durations: [Duration]
        /// The index of the frame ``decodeNext()`` decodes.
        private(set) var nextIndex = 0
        private let decoder: OpaquePointer
        private let hasAlpha: Bool
        /// The bytes the decoder reads, when this object owns them.
        private let ownedBytes: UnsafeMutableRawBufferPointer?

        /// Bytes one decoded frame takes.
        var frameByteCount: Int { width * height * PixelBuffer.bytesPerPixel }

        /// A decoder reading `bytes` in place; the caller keeps them alive and unchanged while it is used.
        convenience init(borrowing bytes: UnsafeRawBufferPointer, features: WebPFeatures) throws(ImageCodingError) {
            try self.init(bytes: bytes, owned: nil, features: features)
        }

        /// A decoder reading its own copy of `bytes`.
        convenience init(copying bytes: UnsafeRawBufferPointer, features: WebPFeatures) throws(ImageCodingError) {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
            if let base = bytes.baseAddress { copy.baseAddress?.copyMemory(from: base, byteCount: bytes.count) }
            do {
                try self.init(bytes: UnsafeRawBufferPointer(rebasing: copy[0..<bytes.count]), owned: copy, features: features)
            } catch {
                copy.deallocate()
                throw error
            }
        }

        private init(bytes: UnsafeRawBufferPointer, owned: UnsafeMutableRawBufferPointer?, features: WebPFeatures) throws(ImageCodingError) {
            var decoderOptions = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else {
                throw ImageCodingError(.corruptData, format: .webp, "libwebp rejected the animation decoder options (ABI mismatch)")
            }
            decoderOptions.color_mode = MODE_RGBA
            decoderOptions.use_threads = 1
            var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            guard let decoder = WebPAnimDecoderNew(&data, &decoderOptions) else {
                throw ImageCodingError(.corruptData, format: .webp, "libwebp could not parse the animation")
            }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.frame_count > 0 else {
                WebPAnimDecoderDelete(decoder)
                throw ImageCodingError(.corruptData, format: .webp, "the animation has no frames")
            }
            let width = Int(info.canvas_width), height = Int(info.canvas_height)
            guard width == features.width, height == features.height else {
                WebPAnimDecoderDelete(decoder)
                throw ImageCodingError(.corruptData, format: .webp, "the animation canvas \(width)×\(height) differs from the header")
            }
            let frameCount = Int(info.frame_count)
            var durations: [Duration] = []
            durations.reserveCapacity(frameCount)
            if let demuxer = WebPAnimDecoderGetDemuxer(decoder) {
                var iterator = WebPIterator()
                for number in 1...frameCount {
                    guard WebPDemuxGetFrame(demuxer, Int32(number), &iterator) != 0 else { break }
                    durations.append(WebPAnimationCodec.frameDuration(milliseconds: Int(iterator.duration)))
                }
                WebPDemuxReleaseIterator(&iterator)
            }
            guard durations.count == frameCount else {
                WebPAnimDecoderDelete(decoder)
                throw ImageCodingError(.corruptData, format: .webp, "libwebp could not read the frames' durations")
            }
            self.decoder = decoder
            self.width = width
            self.height = height
            self.frameCount = frameCount
            self.loopCount = Int(info.loop_count)
            self.durations = durations
            self.hasAlpha = features.hasAlpha
            self.ownedBytes = owned
        }

        deinit {
            WebPAnimDecoderDelete(decoder)
            ownedBytes?.deallocate()
        }

        /// Decodes frame ``nextIndex`` onto the canvas and returns a copy of the canvas.
        func decodeNext() throws(ImageCodingError) -> PixelBuffer {
            let canvas = try advance()
            let pixels = PixelBuffer(width: width, height: height, hasAlpha: true) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(start: canvas, count: buffer.count))
            }
            // Without the VP8X alpha flag the canvas is still transparent wherever no frame has drawn yet.
            return hasAlpha ? pixels : pixels.withAlphaFlagFromContent()
        }

        /// Decodes frame ``nextIndex`` onto the canvas without copying it out (to reach a later frame).
        func skipNext() throws(ImageCodingError) {
            _ = try advance()
        }

        private func advance() throws(ImageCodingError) -> UnsafeMutablePointer<UInt8> {
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard nextIndex < frameCount, WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                throw ImageCodingError(.corruptData, format: .webp, "libwebp could not decode frame \(nextIndex + 1) of \(frameCount)")
            }
            nextIndex += 1
            return canvas
        }

        /// Goes back to the first frame.
        func reset() {
            WebPAnimDecoderReset(decoder)
            nextIndex = 0
        }
    }
}

// MARK: - Encoding

extension WebPAnimationCodec {
    /// Encodes frames (all of one size) as an animated WebP with per-frame timestamps and `loopCount`.
    ///
    /// libwebp's animation encoder stores only what changes between frames; a frame identical to the
    /// one before it is not stored and the earlier frame's duration grows instead, so decoding gives
    /// fewer frames (with the same total duration).
    static func encode(_ frames: [ImageFrame], loopCount: Int, options: ImageEncodingOptions) throws(ImageCodingError) -> Data {
        let first = frames[0].pixels
        guard first.width <= WebPStillCodec.maximumDimension, first.height <= WebPStillCodec.maximumDimension else {
            throw ImageCodingError(
                .encodingFailed, format: .webp,
                "\(first.width)×\(first.height) is outside WebP's 1…\(WebPStillCodec.maximumDimension) pixels per side"
            )
        }
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else {
            throw ImageCodingError(.encodingFailed, format: .webp, "libwebp rejected the animation encoder options (ABI mismatch)")
        }
        encoderOptions.anim_params.loop_count = Int32(min(max(loopCount, 0), 65535))
        encoderOptions.anim_params.bgcolor = 0 // transparent, what decoders composite onto
        var config = try WebPStillCodec.makeConfig(options)
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &encoderOptions) else {
            throw ImageCodingError(.encodingFailed, format: .webp, "libwebp could not create the animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }

        var timestamp = 0
        for frame in frames {
            var picture = try WebPStillCodec.makePicture(frame.pixels, argb: true)
            defer { WebPPictureFree(&picture) }
            guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
                throw encoderError(encoder, "adding a frame")
            }
            timestamp += milliseconds(frame.duration)
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
            throw encoderError(encoder, "finishing the frames")
        }
        var output = WebPData()
        WebPDataInit(&output)
        defer { WebPDataClear(&output) }
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else {
            throw encoderError(encoder, "assembling the file")
        }
        return Data(bytes: bytes, count: output.size)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        guard duration >= .zero else { return 0 }
        // Timestamps are Int32 milliseconds: cap at ~11.6 days. Rounded to the nearest millisecond.
        let capped = min(duration, .seconds(1_000_000) + .milliseconds(999))
        return Int((capped + .microseconds(500)).milliseconds)
    }

    private static func encoderError(_ encoder: OpaquePointer, _ activity: String) -> ImageCodingError {
        let reason = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return ImageCodingError(.encodingFailed, format: .webp, "libwebp's animation encoder failed \(activity): \(reason)")
    }
}
