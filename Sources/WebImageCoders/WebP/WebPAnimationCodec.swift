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
    }

    /// Decodes an animation whose canvas (`features`) the caller has checked against the pixel limit.
    ///
    /// With `options.firstFrameOnly`, or when all frames would exceed `options.maximumAnimationByteCount`
    /// and `options.firstFrameWhenAnimationTooLarge` is set, only the first frame is decoded and returned
    /// as a still frame (duration zero, loop count 0).
    static func decode(
        _ bytes: UnsafeRawBufferPointer, features: WebPFeatures, options: ImageDecodingOptions
    ) throws(ImageCodingError) -> Decoded {
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
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.frame_count > 0 else {
            throw ImageCodingError(.corruptData, format: .webp, "the animation has no frames")
        }
        let width = Int(info.canvas_width), height = Int(info.canvas_height)
        guard width == features.width, height == features.height else {
            throw ImageCodingError(.corruptData, format: .webp, "the animation canvas \(width)×\(height) differs from the header")
        }
        let frameCount = Int(info.frame_count)
        let wanted = try framesToDecode(frameCount: frameCount, frameBytes: width * height * PixelBuffer.bytesPerPixel, options: options)

        var frames: [ImageFrame] = []
        frames.reserveCapacity(wanted)
        var previousTimestamp: Int32 = 0
        while frames.count < wanted {
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                throw ImageCodingError(.corruptData, format: .webp, "libwebp could not decode frame \(frames.count + 1) of \(frameCount)")
            }
            let pixels = PixelBuffer(width: width, height: height, hasAlpha: true) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(start: canvas, count: buffer.count))
            }
            let duration = wanted == 1 ? .zero : frameDuration(milliseconds: Int(timestamp) - Int(previousTimestamp))
            previousTimestamp = timestamp
            // Without the VP8X alpha flag the canvas is still transparent wherever no frame has drawn yet.
            frames.append(ImageFrame(pixels: features.hasAlpha ? pixels : pixels.withAlphaFlagFromContent(), duration: duration))
        }
        return Decoded(frames: frames, loopCount: wanted == 1 ? 0 : Int(info.loop_count))
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

    /// A frame's display time from the difference of two timestamps, short frames lengthened.
    private static func frameDuration(milliseconds: Int) -> Duration {
        let duration = Duration.milliseconds(max(milliseconds, 0))
        return duration <= shortFrameThreshold ? shortFrameReplacement : duration
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
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let wholeSeconds = Int(min(seconds, 1_000_000)) // timestamps are Int32 milliseconds: cap at ~11.6 days
        return wholeSeconds * 1000 + Int((attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000)
    }

    private static func encoderError(_ encoder: OpaquePointer, _ activity: String) -> ImageCodingError {
        let reason = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return ImageCodingError(.encodingFailed, format: .webp, "libwebp's animation encoder failed \(activity): \(reason)")
    }
}
