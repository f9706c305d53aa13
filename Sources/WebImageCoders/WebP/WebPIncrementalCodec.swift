import CWebP
import Foundation
import WebImageCore

// The third file that calls libwebp (see WebPStillCodec.swift for the split): its incremental
// decoder, WebPIDecoder, for progressive display of still images.

/// One still image decoded by libwebp's incremental decoder (`WebPIDecode` + `WebPIAppend`) into RGBA
/// memory this object owns, bytes given as they arrive.
///
/// - `WebPIAppend` copies the bytes it is given (libwebp keeps what it still needs in its own buffer),
///   so each call passes only the new bytes and nothing of the caller's `Data` outlives the call.
///   (`WebPIUpdate` would map the caller's buffer instead and keep pointers into it between calls,
///   which a `Data` passed per call cannot promise.)
/// - The output is an external buffer, a zero-filled `[UInt8]`: libwebp writes rows into it as they
///   are decoded, `last_y` says how many are done. Its address is handed to libwebp afresh on every
///   append (`decode.h` allows changing an external buffer's pointer between calls), so no pointer
///   into the array escapes a `withUnsafeMutableBufferPointer`. When libwebp finishes, the array
///   becomes the final image's storage without a copy.
/// - Single-threaded (`use_threads = 0`): with threads, libwebp's filtering worker could still be
///   writing a row, and `last_y`, after `WebPIAppend` returns. Output is the same either way.
/// - Scaling (`use_scaling`) works incrementally and gives exactly what `WebPDecode` gives.
///
/// The `WebPDecoderConfig` lives on the heap: libwebp keeps pointers to its options and output
/// buffer for the decoder's whole life. Everything is freed in `deinit`.
final class WebPIncrementalDecoder {
    /// The width of the decoded (possibly scaled) image.
    let width: Int
    /// The height of the decoded (possibly scaled) image.
    let height: Int
    /// How many bytes of the file libwebp has been given so far.
    private(set) var bytesGiven = 0
    /// Whether libwebp has decoded the whole image (`VP8_STATUS_OK`).
    private(set) var isFinished = false

    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    private let decoder: OpaquePointer
    /// The RGBA output libwebp writes into; zero (transparent) where nothing has been decoded yet.
    private var output: [UInt8]

    /// Creates a decoder for an image `features` describes, scaled by libwebp to `size` when given.
    ///
    /// The caller has checked the dimensions (and `size`) against the pixel limit.
    init(features: WebPFeatures, scaledTo size: PixelSize?) throws(ImageCodingError) {
        width = size?.width ?? features.width
        height = size?.height ?? features.height
        config = .allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        guard WebPInitDecoderConfig(config) != 0 else {
            config.deallocate()
            throw ImageCodingError(.corruptData, format: .webp, "libwebp rejected the decoder configuration (ABI mismatch)")
        }
        config.pointee.output.colorspace = MODE_RGBA
        config.pointee.output.is_external_memory = 1
        config.pointee.output.u.RGBA.stride = Int32(width * PixelBuffer.bytesPerPixel)
        config.pointee.options.use_threads = 0
        if let size {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(size.width)
            config.pointee.options.scaled_height = Int32(size.height)
        }
        guard let decoder = WebPIDecode(nil, 0, config) else {
            config.deallocate()
            throw ImageCodingError(.corruptData, format: .webp, "libwebp could not create an incremental decoder (out of memory)")
        }
        self.decoder = decoder
        output = [UInt8](repeating: 0, count: width * height * PixelBuffer.bytesPerPixel)
    }

    deinit {
        WebPIDelete(decoder)
        WebPFreeDecBuffer(&config.pointee.output) // nothing to free for external memory; kept for symmetry
        config.deallocate()
    }

    /// Gives libwebp the bytes of `data` past ``bytesGiven`` and decodes as far as they go.
    ///
    /// Throws `.corruptData` for any status but "done" and "suspended" (waiting for more bytes).
    func append(_ data: Data) throws(ImageCodingError) {
        guard !isFinished, data.count > bytesGiven else { return }
        let status = data.withUnsafeBytes { appendNewBytes(of: $0) }
        try check(status)
    }

    /// Gives libwebp the bytes of `bytes` (the file so far, in memory) past ``bytesGiven``, as ``append(_:)`` does.
    func append(_ bytes: UnsafeRawBufferPointer) throws(ImageCodingError) {
        guard !isFinished, bytes.count > bytesGiven else { return }
        try check(appendNewBytes(of: bytes))
    }

    /// Hands libwebp the bytes of `raw` past ``bytesGiven`` with the output buffer's current address.
    private func appendNewBytes(of raw: UnsafeRawBufferPointer) -> VP8StatusCode {
        let new = UnsafeRawBufferPointer(rebasing: raw[bytesGiven...])
        bytesGiven = raw.count
        return output.withUnsafeMutableBufferPointer { pixels in
            config.pointee.output.u.RGBA.rgba = pixels.baseAddress
            config.pointee.output.u.RGBA.size = pixels.count
            defer { config.pointee.output.u.RGBA.rgba = nil }
            return WebPIAppend(decoder, new.baseAddress?.assumingMemoryBound(to: UInt8.self), new.count)
        }
    }

    /// Marks the decoder finished on "done", and throws for any status but "done" and "suspended".
    private func check(_ status: VP8StatusCode) throws(ImageCodingError) {
        switch status {
        case VP8_STATUS_OK: isFinished = true
        case VP8_STATUS_SUSPENDED: break
        case VP8_STATUS_NOT_ENOUGH_DATA:
            throw ImageCodingError(.corruptData, format: .webp, "libwebp's incremental decoder reported missing data")
        default:
            throw WebPStillCodec.decodingError(status, "decoding incrementally") // .corruptData for these
        }
    }

    /// How many rows, from the top, are decoded (libwebp's `last_y`); 0 before the first.
    ///
    /// Read with `WebPIDecodedArea`, not `WebPIDecGetRGB`: the latter returns the output pointer, which is
    /// only set during ``append(_:)``, so it would say "no output yet".
    var decodedRows: Int {
        var rows: Int32 = 0
        guard WebPIDecodedArea(decoder, nil, nil, nil, &rows) != nil else { return 0 }
        return min(max(Int(rows), 0), height)
    }

    /// The image so far: the decoded rows, and transparent rows below them.
    ///
    /// Costs one copy of the pixels (rows below the decoded ones are zeroed, not copied, whatever
    /// libwebp may have started writing there).
    func partialPixels() -> PixelBuffer {
        let rows = decodedRows
        let decodedBytes = rows * width * PixelBuffer.bytesPerPixel
        return PixelBuffer(width: width, height: height, hasAlpha: true) { buffer in
            output.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[..<decodedBytes])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<decodedBytes]))
            }
            UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[decodedBytes...]).initializeMemory(as: UInt8.self, repeating: 0)
        }
    }

    /// The finished image's pixels, sharing the output memory (no copy); `nil` until ``isFinished``.
    ///
    /// `hasAlpha` is decided as ``WebPStillCodec/decode(_:features:scaledTo:)`` decides it.
    func finishedPixels(features: WebPFeatures) -> PixelBuffer? {
        guard isFinished else { return nil }
        let pixels = PixelBuffer(width: width, height: height, hasAlpha: features.hasAlpha, bytes: output)
        return WebPStillCodec.withAlphaFlag(pixels, features: features)
    }
}
