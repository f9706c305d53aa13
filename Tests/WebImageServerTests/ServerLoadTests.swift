import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOHTTP1
import ServiceLifecycle
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// Shared work, the worker limit, the request timeout, the result cache and draining.
@Suite struct ServerLoadTests {
    @Test func identicalRequestsInFlightAllSucceedWithOneFetch() async throws {
        try await ServerTestHarness.run { client, base, origin in
            // Five connections at once (the test client has one, which would make them wait in turn).
            let url = try Self.url(client, "/_/w:70/plain/\(base)/slow/300/photo.jpg")
            let statuses = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<5 {
                    group.addTask { try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(60)).status.code.description }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: "200", count: 5))
            #expect(await origin.requests.count("/slow/300/photo.jpg") == 1)
        }
    }

    @Test func pastTheWorkersAndTheQueueTheServerAnswers429WithRetryAfter() async throws {
        try await ServerTestHarness.run(configure: { $0.workers = 1; $0.maximumQueue = 0 }) { client, base, origin in
            // The first request's source is held at the origin until the second has been answered (a delay was not
            // enough: a starved sanitizer run took longer than it between the two).
            let url = try Self.url(client, "/_/w:71/plain/\(base)/held/photo.jpg")
            let held = Task { try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(120)).status.code.description }
            do {
                // Wait until the held request has the only worker (its source request reached the origin).
                try await eventually(timeout: .seconds(60)) { await origin.requests.count("/held/photo.jpg") == 1 }
                try await client.execute(uri: "/_/w:72/plain/\(base)/photo.jpg", method: .get) { response in
                    #expect(response.status == .tooManyRequests)
                    #expect(response.headers[.retryAfter] == "1")
                    #expect(response.headers[.cacheControl] == "no-cache")
                }
            } catch {
                await origin.gate.open()
                throw error
            }
            await origin.gate.open()
            #expect(try await held.value == "200")
        }
    }

    /// The server's URL for `path`, for clients other than the test client.
    static func url(_ client: any TestClientProtocol, _ path: String) throws -> String {
        "http://127.0.0.1:\(try #require(client.port))\(path)"
    }

    @Test func aRequestThatOutlivesTheTimeoutGets504() async throws {
        try await ServerTestHarness.run(configure: { $0.requestTimeout = .milliseconds(300) }) { client, base, _ in
            try await client.execute(uri: "/_/w:73/plain/\(base)/slow/3000/photo.jpg", method: .get) { response in
                #expect(response.status == .gatewayTimeout)
            }
        }
    }

    @Test func aResultIsServedFromTheResultCacheByANewServerWithoutFetching() async throws {
        let origin = try SourceOrigin()
        let directory = try TemporaryDirectory("results")
        defer { directory.remove() }
        var settings = ImageServerConfiguration(port: 0, sourcePolicy: SourceURLPolicy(addressPolicy: .loopback), cacheDirectory: directory.url)
        settings.cacheMinimumUses = 1
        let configuration = settings
        try await origin.run { base in
            let uri = "/_/w:74/f:png/plain/\(base)/photo.jpg"
            var bodies: [ByteBuffer] = []
            for _ in 0..<2 {
                // A new server each time: no memory cache; the source cache is cleared in between.
                try? FileManager.default.removeItem(at: directory.url.appendingPathComponent("sources"))
                let app = try buildApplication(configuration: configuration, logger: ServerTestHarness.quietLogger)
                let body = try await app.test(.live) { client in
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .ok)
                        return response.body
                    }
                }
                bodies.append(body)
            }
            #expect(bodies.count == 2 && bodies[0] == bodies[1])
            #expect(await origin.requests.count("/photo.jpg") == 1)
        }
    }

    @Test func theDeadlineEndsWorkThatOutlivesItAndPassesFasterWorkThrough() async throws {
        await #expect(throws: DeadlinePassed.self) {
            try await withDeadline(.milliseconds(50)) {
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        #expect(try await withDeadline(.seconds(60)) { 42 } == 42)
    }

    @Test func theWorkLimiterAdmitsInOrderAndRefusesPastTheQueue() async throws {
        let limiter = WorkLimiter(workers: 1, maximumQueue: 1, metrics: ServerMetrics())
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        try await eventually(timeout: .seconds(60)) { limiter.counts.waiting == 1 }
        await #expect(throws: WorkLimiter.Busy.self) { try await limiter.acquire() }
        limiter.release()
        try await waiter.value
        #expect(limiter.counts.active == 1 && limiter.counts.waiting == 0)
        limiter.release()
        #expect(limiter.counts.active == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let limiter = WorkLimiter(workers: 1, maximumQueue: 4, metrics: ServerMetrics())
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        try await eventually(timeout: .seconds(60)) { limiter.counts.waiting == 1 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(limiter.counts.waiting == 0 && limiter.counts.active == 1)
        limiter.release()
    }

    @Test func healthAnswers503WhileDraining() async throws {
        let state = ServerState()
        let configuration = ImageServerConfiguration(port: 0, loader: UnreachableLoader())
        let metrics = ServerMetrics(), logger = ServerTestHarness.quietLogger
        let pipeline = try ImageRequestPipeline(configuration: configuration, metrics: metrics, logger: logger)
        let router = buildRouter(pipeline: pipeline, state: state, metrics: metrics, logger: logger)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            state.startDraining()
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .serviceUnavailable) }
        }
    }

    @Test func gracefulShutdownMarksTheServerDraining() async throws {
        let state = ServerState()
        let watcher = DrainWatcher(state: state)
        let group = ServiceGroup(configuration: .init(services: [watcher], logger: ServerTestHarness.quietLogger))
        let running = Task { try await group.run() }
        #expect(!state.isDraining)
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(state.isDraining)
    }
}

/// Cached sources and results are used for `sourceMaxAge`, then the source is asked again, conditionally.
@Suite struct SourceFreshnessTests {
    @Test func aStaleSourceIsRevalidatedWithItsETagAndA304KeepsTheCachedBytes() async throws {
        try await ServerTestHarness.run(configure: { $0.sourceMaxAge = .zero }) { client, base, origin in
            for width in [51, 52, 51] {
                try await client.execute(uri: "/_/w:\(width)/plain/\(base)/validated.jpg", method: .get) { response in
                    #expect(response.status == .ok)
                    let image = try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: ImageDecodingOptions())
                    #expect(image.pixelSize.width == width)
                }
            }
            #expect(await origin.requests.count("/validated.jpg") == 3)
            #expect(await origin.requests.count("/validated.jpg (304)") == 2)
        }
    }

    @Test func aFreshSourceAndItsResultsAreNotFetchedAgain() async throws {
        try await ServerTestHarness.run { client, base, origin in
            for width in [51, 52, 51] {
                try await client.execute(uri: "/_/w:\(width)/plain/\(base)/validated.jpg", method: .get) { #expect($0.status == .ok) }
            }
            #expect(await origin.requests.count("/validated.jpg") == 1)
        }
    }
}
