@_exported import Foundation
@_exported import WebImageCoders

/// What every fuzz target shares: small limits (so a run explores parsers instead of allocating), and
/// the input as `Data`.
public enum Fuzz {
    /// Decoding limits for fuzzing: 4 megapixels, 64 MiB of frames.
    public static let options = ImageDecodingOptions(maximumPixelCount: 4_000_000, maximumAnimationByteCount: 64 << 20)

    /// The fuzzer's bytes as `Data`.
    public static func data(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Data {
        Data(bytes: bytes, count: count)
    }

    /// Decodes with `coder`; errors are the expected outcome for most inputs, crashes are the findings.
    public static func decode(_ coder: some ImageDecoding, _ bytes: UnsafePointer<UInt8>, _ count: Int) {
        let data = data(bytes, count)
        guard coder.canDecode(data) else { return }
        if let image = try? coder.decode(data, options: options) {
            precondition(image.frames.allSatisfy { $0.pixels.byteCount == $0.pixels.width * $0.pixels.height * 4 })
        }
        var thumbnail = options
        thumbnail.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        _ = try? coder.decode(data, options: thumbnail)
    }
}
