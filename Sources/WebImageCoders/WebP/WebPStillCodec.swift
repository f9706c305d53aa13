import CWebP
import Foundation
import WebImageCore

// The Swift that calls libwebp lives in three files: this one (still images, bitstream features, EXIF
// through WebPDemux/WebPMux, and the config/picture set-up the animation encoder reuses),
// WebPAnimationCodec.swift (WebPAnimDecoder/WebPAnimEncoder) and WebPIncrementalCodec.swift
// (WebPIDecoder, for progressive decoding). They are split only to keep each file near 300 lines;
// nothing else in the package imports CWebP. libwebp reports errors through
// return codes (no setjmp/longjmp), so calling it directly from Swift is safe.

/// What `WebPGetFeatures` reads from a WebP header.
struct WebPFeatures {
    /// The image (or animation canvas) width.
    var width: Int
    /// The image (or animation canvas) height.
    var height: Int
    /// Whether the file declares alpha (a VP8X flag, an `ALPH` chunk or the VP8L header bit).
    var hasAlpha: Bool
    /// Whether the file is an animation.
    var hasAnimation: Bool
    /// Whether the bitstream is VP8L (lossless).
    var isLossless: Bool
}

/// Still-image decoding and encoding through libwebp's advanced API.
enum WebPStillCodec {
    /// Reads the header with `WebPGetFeatures`.
    static func features(_ bytes: UnsafeRawBufferPointer) throws(ImageCodingError) -> WebPFeatures {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw decodingError(status, "reading the header") }
        return WebPFeatures(
            width: Int(features.width), height: Int(features.height),
            hasAlpha: features.has_alpha != 0, hasAnimation: features.has_animation != 0,
            isLossless: features.format == 2
        )
    }

    /// Decodes a still image straight into a new pixel buffer, scaled by libwebp to `size` when given.
    ///
    /// The caller has checked the dimensions (and `size`) against the pixel limit.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, features: WebPFeatures, scaledTo size: PixelSize? = nil
    ) throws(ImageCodingError) -> PixelBuffer {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw ImageCodingError(.corruptData, format: .webp, "libwebp rejected the decoder configuration (ABI mismatch)")
        }
        let width = size?.width ?? features.width
        let height = size?.height ?? features.height
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        config.options.use_threads = 1
        if let size {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(size.width)
            config.options.scaled_height = Int32(size.height)
        }
        let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let pixels = try PixelBuffer(width: width, height: height, hasAlpha: features.hasAlpha) {
            (buffer) throws(ImageCodingError) in
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(width * PixelBuffer.bytesPerPixel)
            config.output.u.RGBA.size = buffer.count
            defer { WebPFreeDecBuffer(&config.output) }
            let status = WebPDecode(input, bytes.count, &config)
            guard status == VP8_STATUS_OK else { throw decodingError(status, "decoding the image") }
        }
        return withAlphaFlag(pixels, features: features)
    }

    /// `pixels`, decoded with `hasAlpha` from `features`, with the flag corrected where the header may be wrong.
    static func withAlphaFlag(_ pixels: PixelBuffer, features: WebPFeatures) -> PixelBuffer {
        // The VP8L "alpha is used" bit is only a hint; trust "no alpha" only after looking. VP8 without ALPH is always opaque.
        !features.hasAlpha && features.isLossless ? pixels.withAlphaFlagFromContent() : pixels
    }

    /// The orientation in the file's `EXIF` chunk, found with WebPDemux; `nil` when there is none.
    static func exifOrientation(_ bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { return nil }
        defer { WebPDemuxDelete(demuxer) }
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "EXIF", 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        return ExifOrientationReader.orientation(inTIFF: UnsafeRawBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
    }

    /// Maps a libwebp decoding status to our error: missing bytes are `.truncatedData`, the rest `.corruptData`.
    static func decodingError(_ status: VP8StatusCode, _ activity: String) -> ImageCodingError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA:
            ImageCodingError(.truncatedData, format: .webp, "libwebp needs more data while \(activity)")
        case VP8_STATUS_OUT_OF_MEMORY:
            ImageCodingError(.corruptData, format: .webp, "libwebp ran out of memory while \(activity)")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            ImageCodingError(.corruptData, format: .webp, "libwebp does not support a feature of this file (\(activity))")
        case VP8_STATUS_INVALID_PARAM:
            ImageCodingError(.corruptData, format: .webp, "libwebp reported an invalid parameter while \(activity)")
        default:
            ImageCodingError(.corruptData, format: .webp, "libwebp found a bitstream error (status \(status.rawValue)) while \(activity)")
        }
    }
}

// MARK: - Encoding

extension WebPStillCodec {
    /// The largest width or height a WebP bitstream can hold.
    static let maximumDimension = Int(WEBP_MAX_DIMENSION)

    /// Encodes one pixel buffer as a still WebP file.
    static func encode(_ pixels: PixelBuffer, options: ImageEncodingOptions) throws(ImageCodingError) -> Data {
        var config = try makeConfig(options)
        var picture = try makePicture(pixels, argb: options.lossless)
        defer { WebPPictureFree(&picture) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let succeeded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            defer { picture.custom_ptr = nil }
            return WebPEncode(&config, &picture)
        }
        guard succeeded != 0, let memory = writer.mem else {
            throw ImageCodingError(.encodingFailed, format: .webp, "libwebp could not encode: \(describe(picture.error_code))")
        }
        return Data(bytes: memory, count: writer.size)
    }

    /// An encoder configuration: the default preset at `qualityPercent`, method 4 (or `effort` on 0–6), lossless when asked
    /// (then with `exact`, so colours under fully transparent pixels survive).
    static func makeConfig(_ options: ImageEncodingOptions) throws(ImageCodingError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, Float(options.qualityPercent)) != 0 else {
            throw ImageCodingError(.encodingFailed, format: .webp, "libwebp rejected the encoder configuration (ABI mismatch)")
        }
        config.method = Int32(options.effort(in: 0...6) ?? 4)
        config.lossless = options.lossless ? 1 : 0
        config.exact = options.lossless ? 1 : 0
        config.thread_level = 1
        guard WebPValidateConfig(&config) != 0 else {
            throw ImageCodingError(.encodingFailed, format: .webp, "libwebp rejected quality \(options.qualityPercent)")
        }
        return config
    }

    /// A picture holding a copy of `pixels` (RGBX when they are opaque, so no alpha is written).
    /// The caller frees it with `WebPPictureFree`.
    ///
    /// `argb` keeps the pixels as ARGB instead of converting them to YUV 4:2:0 on import: needed for
    /// lossless, and for the animation encoder, which converts a YUV picture back to ARGB (chroma would be
    /// subsampled twice: about 4 dB lost). Lossy stills import straight to YUV, as cwebp does.
    static func makePicture(_ pixels: PixelBuffer, argb: Bool) throws(ImageCodingError) -> WebPPicture {
        guard pixels.width <= maximumDimension, pixels.height <= maximumDimension, pixels.width > 0, pixels.height > 0 else {
            throw ImageCodingError(
                .encodingFailed, format: .webp,
                "\(pixels.width)×\(pixels.height) is outside WebP's 1…\(maximumDimension) pixels per side"
            )
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImageCodingError(.encodingFailed, format: .webp, "libwebp rejected the picture (ABI mismatch)")
        }
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        picture.use_argb = argb ? 1 : 0
        let stride = Int32(pixels.bytesPerRow)
        let imported = pixels.withUnsafeBytes { raw in
            let rgba = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return pixels.hasAlpha
                ? WebPPictureImportRGBA(&picture, rgba, stride)
                : WebPPictureImportRGBX(&picture, rgba, stride)
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw ImageCodingError(.encodingFailed, format: .webp, "libwebp could not import the pixels (out of memory)")
        }
        return picture
    }

    /// Returns `data` (a complete WebP file) with `chunks` (`ICCP`, `EXIF` or `XMP `, each a type and its
    /// payload) added through WebPMux, which writes the extended (`VP8X`) header with the matching flags.
    static func addingChunks(_ chunks: [(type: String, payload: Data)], to data: Data) throws(ImageCodingError) -> Data {
        guard !chunks.isEmpty else { return data }
        let assembled: Data? = data.withUnsafeBytes { raw in
            var bitstream = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
            guard let mux = WebPMuxCreate(&bitstream, 0) else { return nil }
            defer { WebPMuxDelete(mux) }
            for (type, payload) in chunks {
                let added = payload.withUnsafeBytes { bytes in
                    var chunk = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
                    return WebPMuxSetChunk(mux, type, &chunk, 1) == WEBP_MUX_OK // 1: the mux copies the payload
                }
                guard added else { return nil }
            }
            var output = WebPData()
            WebPDataInit(&output)
            defer { WebPDataClear(&output) }
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else { return nil }
            return Data(bytes: bytes, count: output.size)
        }
        guard let assembled else {
            throw ImageCodingError(.encodingFailed, format: .webp, "libwebp's muxer could not add the metadata chunks")
        }
        return assembled
    }

    private static func describe(_ error: WebPEncodingError) -> String {
        switch error {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory"
        case VP8_ENC_ERROR_BAD_DIMENSION: "bad dimensions"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW, VP8_ENC_ERROR_PARTITION_OVERFLOW: "a partition is larger than 512 KiB"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "the file would be larger than 4 GiB"
        case VP8_ENC_ERROR_BAD_WRITE: "the output could not be written"
        default: "error \(error.rawValue)"
        }
    }
}
