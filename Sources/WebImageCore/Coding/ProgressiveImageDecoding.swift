public import Foundation

/// A coder that can show an image while its bytes are still arriving.
///
/// Each download asks for its own ``ProgressiveDecoder`` (a new stateful instance per
/// download) and feeds it the bytes received so far.
public protocol ProgressiveImageDecoding: ImageDecoding {
    /// Whether this coder can decode `data` incrementally (usually: it recognises the leading bytes).
    func canDecodeIncrementally(_ data: Data) -> Bool
    /// A fresh decoder for one download, applying `options` to every image it returns.
    func makeProgressiveDecoder(options: ImageDecodingOptions) -> any ProgressiveDecoder
}

extension ProgressiveImageDecoding {
    public func canDecodeIncrementally(_ data: Data) -> Bool { canDecode(data) }
}

/// Decodes one image from a growing prefix of its bytes.
///
/// Threading contract: an instance belongs to one download and is used from one task at a time; it
/// is not `Sendable`. Every call passes **all** the bytes received so far (each call's data starts
/// with the previous call's), as SDWebImage's `incrementalDecodedImageWithData:finished:` does.
public protocol ProgressiveDecoder: AnyObject {
    /// Returns the best image the bytes so far allow: `nil` when nothing is decodable yet, a partial
    /// image (rows not yet received are transparent; a progressive JPEG is full size but blurry; an
    /// animation has the frames received so far) while incomplete, and once ``isComplete`` exactly
    /// what a one-shot decode of the same bytes gives.
    ///
    /// Throws ``ImageCodingError`` as soon as the bytes so far are corrupt (not merely short). When the
    /// download has ended, call ``ImageDecoding/decode(_:options:)`` for the final image instead: it
    /// also reports truncation.
    func decode(_ dataSoFar: Data) throws -> Image?
    /// Whether the last ``decode(_:)`` saw the whole image (its end marker).
    var isComplete: Bool { get }
}
