public import Foundation

extension ImageCodersManager {
    /// A frame-by-frame source for animated `data` from the highest-priority coder that decodes it and
    /// can decode it on demand, or `nil` when that coder cannot (or the data is a still image): decode
    /// it with ``decode(_:options:)`` then.
    ///
    /// ```swift
    /// let source = try ImageCodersManager.shared.animatedFrameSource(for: data)
    ///     ?? DecodedFrameSource(try ImageCodersManager.shared.decode(data))
    /// ```
    public func animatedFrameSource(
        for data: Data, options: ImageDecodingOptions = ImageDecodingOptions()
    ) throws -> (any AnimatedImageFrameSource)? {
        guard let decoder = decoder(for: data) as? any AnimatedImageDecoding else { return nil }
        return try decoder.makeAnimatedFrameSource(for: data, options: options)
    }
}
