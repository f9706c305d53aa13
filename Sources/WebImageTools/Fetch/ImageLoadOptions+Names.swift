import Foundation
package import WebImageKit

extension ImageLoadOptions {
    /// Every option by the name the command line uses (the Swift name: `retryFailed`, `refreshCached`…).
    package static let byName: [(name: String, option: ImageLoadOptions)] = [
        ("retryFailed", .retryFailed), ("lowPriority", .lowPriority), ("cacheMemoryOnly", .cacheMemoryOnly),
        ("progressiveLoad", .progressiveLoad), ("refreshCached", .refreshCached),
        ("handleCookies", .handleCookies),
        ("allowInvalidSSLCertificates", .allowInvalidSSLCertificates), ("highPriority", .highPriority),
        ("delayPlaceholder", .delayPlaceholder), ("transformAnimatedImage", .transformAnimatedImage),
        ("avoidAutoSetImage", .avoidAutoSetImage), ("scaleDownLargeImages", .scaleDownLargeImages),
        ("queryMemoryData", .queryMemoryData), ("queryMemoryDataSync", .queryMemoryDataSync),
        ("queryDiskDataSync", .queryDiskDataSync), ("fromCacheOnly", .fromCacheOnly), ("fromLoaderOnly", .fromLoaderOnly),
        ("decodeFirstFrameOnly", .decodeFirstFrameOnly), 
        ("waitStoreCache", .waitStoreCache), ("forceTransition", .forceTransition),
    ]

    /// Parses a comma-separated list of option names (case-insensitive), such as `retryFailed,fromCacheOnly`.
    /// - Throws: ``TransformList/ParseError`` naming the first unknown option.
    package init(names list: String) throws {
        self = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let match = Self.byName.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                let known = Self.byName.map(\.name).joined(separator: ", ")
                throw TransformList.ParseError(description: "unknown option '\(name)'; known options: \(known)")
            }
            insert(match.option)
        }
    }
}
