public import Foundation
public import WebImageCore

extension PNGCoder: AnimatedImageDecoding {
    /// A source that decodes an animated PNG frame by frame, keeping only the bytes and one canvas, or
    /// `nil` for a still PNG (no `acTL`, or no animation frame). Throws as ``decode(_:options:)`` does for
    /// corrupt chunks, a canvas over the pixel limit, or a file cut short; unless `options.strict`, a damaged
    /// animation is `nil` instead: ``decode(_:options:)`` shows what it can of it (issue 31).
    public func makeAnimatedFrameSource(for data: Data, options: ImageDecodingOptions) throws -> (any AnimatedImageFrameSource)? {
        guard canDecode(data) else {
            throw ImageCodingError(.unsupportedFormat, format: ImageFormat(detecting: data), "not a PNG")
        }
        guard APNGChunkReader.isAnimated(data) else { return nil }
        do {
            return try APNGFrameSource(data: data, options: options)
        } catch let error as ImageCodingError where !options.strict && [.corruptData, .truncatedData].contains(error.code) {
            return nil
        }
    }
}
