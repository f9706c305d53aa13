import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// A request reads its source once: one read of the cached entry (bytes, validators and age together).
@Suite struct SourceReadTests {
    @Test func aNewSizeOfACachedSourceReadsTheSourceOnceAndDoesNotFetchIt() async throws {
        let origin = try SourceOrigin()
        let directory = try TemporaryDirectory("source-reads")
        defer { directory.remove() }
        var configuration = ImageServerConfiguration(port: 0, sourcePolicy: SourceURLPolicy(addressPolicy: .loopback), cacheDirectory: directory.url)
        configuration.cacheMinimumUses = 1
        let counting = CountingCache(base: ImageCache(namespace: "sources", root: directory.url))
        let metrics = ServerMetrics(), logger = ServerTestHarness.quietLogger
        let configured = try ImageRequestPipeline(configuration: configuration, metrics: metrics, logger: logger)
        let pipeline = ImageRequestPipeline(
            signature: configured.signature, parser: configured.parser, sourcePolicy: configured.sourcePolicy,
            negotiation: configured.negotiation,
            sources: ImageManager(cache: counting, loader: configured.sources.loader, configuration: configured.sources.configuration, logger: logger),
            results: configured.results, cacheAdmission: configured.cacheAdmission, shared: configured.shared, admission: configured.admission, decoding: configured.decoding,
            coders: configured.coders, metrics: metrics, configuration: configured.configuration,
            resultSettings: configured.resultSettings)
        let app = Application(router: buildRouter(pipeline: pipeline, state: ServerState(), metrics: metrics, logger: logger))
        try await origin.run { base in
            try await app.test(.router) { client in
                try await client.execute(uri: "/_/w:60/plain/\(base)/validated.jpg", method: .get) { #expect($0.status == .ok) }
                await counting.base.flush()
                counting.reads.withLock { $0 = 0 }
                try await client.execute(uri: "/_/w:61/plain/\(base)/validated.jpg", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.lastModified] != nil)
                }
            }
            #expect(counting.reads.withLock { $0 } == 1)
            #expect(await origin.requests.count("/validated.jpg") == 1)
        }
    }
}

/// An ``ImageCache`` that counts the reads of stored bytes.
final class CountingCache: ImageCaching {
    let base: ImageCache
    let reads = LockedValue(0)

    init(base: ImageCache) {
        self.base = base
    }

    func storedData(forKey key: String, cacheType: ImageCacheType) async -> CacheQueryResult? {
        reads.withLock { $0 += 1 }
        return await base.storedData(forKey: key, cacheType: cacheType)
    }

    func store(_ image: Image?, data: Data?, forKey key: String, extendedData: Data?, cacheType: ImageCacheType) async throws {
        try await base.store(image, data: data, forKey: key, extendedData: extendedData, cacheType: cacheType)
    }

    func storeInBackground(
        _ image: Image?, data: Data?, forKey key: String, extendedData: Data?, cacheType: ImageCacheType,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        base.storeInBackground(image, data: data, forKey: key, extendedData: extendedData, cacheType: cacheType, completion: completion)
    }

    func remove(forKey key: String, cacheType: ImageCacheType) async throws {
        try await base.remove(forKey: key, cacheType: cacheType)
    }

    func contains(_ key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        await base.contains(key, cacheType: cacheType)
    }

    func clear(cacheType: ImageCacheType) async throws {
        try await base.clear(cacheType: cacheType)
    }
}

/// What the server keeps of a source that is not an image, and what it says about it.
@Suite struct UndecodableSourceTests {
    @Test func aSourceThatDoesNotDecodeIs422AndIsFetchedAgainNextTime() async throws {
        try await ServerTestHarness.run { client, base, origin in
            for width in [40, 41] {
                try await client.execute(uri: "/_/w:\(width)/plain/\(base)/broken.jpg", method: .get) { response in
                    #expect(response.status == .unprocessableContent)
                    #expect(String(buffer: response.body) == "the source is not an image the server can decode\n")
                }
            }
            #expect(await origin.requests.count("/broken.jpg") == 2)
        }
    }

    @Test func anErrorAfterAcceptNegotiationVariesByAccept() async throws {
        try await ServerTestHarness.run(configure: { $0.autoWebP = true }) { client, base, _ in
            try await client.execute(uri: "/_/w:42/plain/\(base)/broken.jpg", method: .get, headers: [.accept: "image/webp"]) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.headers[.vary] == "Accept")
            }
        }
    }
}
