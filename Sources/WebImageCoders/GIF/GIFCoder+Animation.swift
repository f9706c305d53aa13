public import Foundation

extension GIFCoder: AnimatedImageDecoding {
    /// A source that decodes the GIF frame by frame, keeping only the bytes and one canvas; every GIF
    /// (a still one has one frame). Throws as ``decode(_:options:)`` does for a bad header, a canvas over
    /// the pixel limit, or a file cut short.
    public func makeAnimatedFrameSource(for data: Data, options: ImageDecodingOptions) throws -> (any AnimatedImageFrameSource)? {
        guard canDecode(data) else {
            throw ImageCodingError(.unsupportedFormat, format: ImageFormat(detecting: data), "not a GIF")
        }
        return try GIFFrameSource(data: data, options: options)
    }
}
