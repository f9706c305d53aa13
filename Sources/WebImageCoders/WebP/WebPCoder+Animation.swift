public import Foundation
public import WebImageCore

extension WebPCoder: AnimatedImageDecoding {
    /// A source that decodes an animated WebP frame by frame, keeping the bytes and one canvas, or `nil`
    /// for a still WebP. Throws as ``decode(_:options:)`` does for a bad container, a canvas over the
    /// pixel limit, or a file cut short.
    public func makeAnimatedFrameSource(for data: Data, options: ImageDecodingOptions) throws -> (any AnimatedImageFrameSource)? {
        let container = try Self.container(of: data, options: options)
        guard container.hasAnimation else { return nil }
        return try WebPFrameSource(data: data, container: container, options: options)
    }
}
