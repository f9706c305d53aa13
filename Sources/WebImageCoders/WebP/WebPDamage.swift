import Foundation
import WebImageCore

/// What a lenient WebP decode does with a damaged file (issue 31), as Chromium 156 shows one: a still image whose
/// VP8/VP8L bitstream breaks gives the rows libwebp's incremental decoder finished before the damage, the rest
/// transparent (an animation whose frame does not decode plays the frames before it: ``WebPAnimationCodec``).
/// A file shorter than its RIFF size is refused before this, as Chromium refuses it (it draws nothing then).
///
/// Pixel memory is what the header, checked against the limits before, declares.
enum WebPDamage {
    /// Decodes what libwebp's incremental decoder can of a still image whose one-shot decode failed with
    /// `failure`: the rows finished before the data ended or broke, the rest transparent, and the issue; no issue
    /// when the whole image decodes after all (a RIFF size larger than the file stops only the one-shot decoder).
    ///
    /// Throws `failure` when not one row decodes.
    static func decodeStill(
        _ bytes: UnsafeRawBufferPointer, features: WebPFeatures, scaledTo size: PixelSize?, failure: ImageCodingError
    ) throws(ImageCodingError) -> (pixels: PixelBuffer, issue: DecodingIssue?) {
        let decoder = try WebPIncrementalDecoder(features: features, scaledTo: size)
        var broken: ImageCodingError?
        do {
            try decoder.append(bytes)
        } catch {
            broken = error
        }
        if let pixels = decoder.finishedPixels(features: features) {
            return (pixels, nil) // the bitstream is whole: only the RIFF size promised more (the caller says so)
        }
        let rows = decoder.decodedRows
        guard rows > 0 else { throw failure }
        let issue = if let broken {
            DecodingIssue(.corruptData, firstDamagedRow: rows, detail: broken.message)
        } else {
            DecodingIssue(.truncated, firstDamagedRow: rows, detail: "the WebP bitstream ends after \(rows) of \(decoder.height) rows")
        }
        return (decoder.partialPixels(), issue)
    }
}
