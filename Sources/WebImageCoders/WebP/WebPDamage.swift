import Foundation
import WebImageCore

/// What a lenient WebP decode does with a damaged file (issue 31), as Chromium shows one:
///
/// - a still image cut (or broken) inside its VP8/VP8L bitstream gives the rows libwebp's incremental
///   decoder finished before the damage, the rest transparent;
/// - an animation cut inside a frame plays the frames before it, and one whose frame does not decode
///   plays the frames before that frame;
/// - a RIFF size larger than the file is let pass (the chunks that are there are used).
///
/// Every copy made here is at most the size of the file; pixel memory is what the header, checked
/// against the limits before, declares.
enum WebPDamage {
    /// The issue for a file shorter than its RIFF header says, when the image itself is whole.
    static func shortRIFF(declared: Int, actual: Int) -> DecodingIssue {
        DecodingIssue(.truncated, detail: "the RIFF header declares \(declared) bytes but the file has \(actual)")
    }

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

    /// The chunks of an animated file that are whole, as a file of their own (its RIFF size set to
    /// them), and the issue for what was cut off; `nil` when every chunk the RIFF size declares is there.
    ///
    /// `bytes` holds at least the RIFF header; `declaredSize` is the file size that header declares.
    static func wholeChunks(of bytes: UnsafeRawBufferPointer, declaredSize: Int) -> (file: Data, issue: DecodingIssue)? {
        guard bytes.count < declaredSize else { return nil }
        var offset = 12 // after "RIFF", the size and "WEBP"
        var frames = 0
        var cutChunk: String?
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else { cutChunk = "a chunk header"; break }
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]), as: UTF8.self)
            let size = Int(bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian)
            guard size <= bytes.count - offset - 8 else { cutChunk = type; break }
            if type == "ANMF" { frames += 1 }
            offset += 8 + size + size % 2 // chunks are padded to an even size
        }
        let kept = min(offset, bytes.count)
        var file = Data(capacity: kept + 1)
        file.append(UnsafeRawBufferPointer(rebasing: bytes[0..<kept]).assumingMemoryBound(to: UInt8.self))
        if kept < offset { file.append(0) } // the last whole chunk's padding byte was cut off
        withUnsafeBytes(of: UInt32(file.count - 8).littleEndian) { file.replaceSubrange(4..<8, with: $0) }
        let detail = "the RIFF header declares \(declaredSize) bytes but the file has \(bytes.count)"
        let issue = cutChunk == "ANMF"
            ? DecodingIssue(.framesDropped, detail: "\(detail): the frames after frame \(frames) were dropped")
            : DecodingIssue(.truncated, detail: detail)
        return (file, issue)
    }
}
