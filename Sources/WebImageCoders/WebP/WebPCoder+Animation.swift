public import Foundation
public import WebImageCore

extension WebPCoder: AnimatedImageDecoding {
    /// A source that decodes an animated WebP frame by frame, keeping the bytes and one canvas, or `nil`
    /// for a still WebP. Throws as ``decode(_:options:)`` does for a bad container, a canvas over the
    /// pixel limit, or a file cut short; unless `options.strict`, an animation that does not parse is `nil`
    /// instead: ``decode(_:options:)`` plays the frames before the damage (issue 31).
    public func makeAnimatedFrameSource(for data: Data, options: ImageDecodingOptions) throws -> (any AnimatedImageFrameSource)? {
        let container = try Self.container(of: data, options: options)
        guard container.hasAnimation else { return nil }
        let source: WebPFrameSource
        do {
            source = try WebPFrameSource(data: data, container: container, options: options)
        } catch {
            guard !options.strict, error.code == .corruptData || error.code == .truncatedData else { throw error }
            return nil
        }
        return source
    }
}
