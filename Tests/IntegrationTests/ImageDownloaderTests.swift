import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// The downloader against a real server on 127.0.0.1 (SPEC sections 1–3).
@Suite struct ImageDownloaderTests {
    typealias Completion = (index: Int, result: Result<DownloadResult, ImageDownloadError>)

    /// Waits until the server reports `event`, skipping others.
    static func wait(for event: TestImageServer.Event, in iterator: inout AsyncStream<TestImageServer.Event>.Iterator) async {
        while let next = await iterator.next(), next != event {}
    }

    static func error(_ url: URL, _ configuration: ImageDownloader.Configuration = .init()) async throws -> ImageDownloadError? {
        try await withImageDownloader(configuration: configuration) { downloader in
            do {
                _ = try await downloader.image(for: url)
                return nil
            } catch let error as ImageDownloadError {
                return error
            }
        }
    }

    @Test func downloadsAndDecodesAnImageSendingTheDefaultHeaders() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let result = try await downloader.image(for: base.appendingPathComponent("image/a.png"))
                #expect(result.image.pixelSize == PixelSize(width: 16, height: 8))
                #expect(result.data == server.png)
                #expect(result.response.statusCode == 200)
                #expect(result.response.mimeType == "image/png")
            }
            let headers = await server.log.headers
            #expect(headers["user-agent"] == ImageDownloader.Configuration.defaultUserAgent)
            #expect(headers["accept"]?.hasPrefix("image/avif,image/webp") == true)
        }
    }

    @Test func oneRequestServesAHundredSubscribersOfOneURL() async throws {  // SPEC DL-48
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("held/shared.png")
                let (results, sink) = AsyncStream.makeStream(of: Completion.self)
                for index in 0..<100 {
                    downloader.download(url) { sink.yield((index, $0)) }
                }
                await server.gates.release("/held/shared.png")
                var successes = 0
                for await completion in results.prefix(100) {
                    if case .success(let result) = completion.result, result.image.pixelSize.width == 16 { successes += 1 }
                }
                #expect(successes == 100)
            }
            #expect(await server.log.count("/held/shared.png") == 1)
        }
    }

    @Test func cancellingOneTokenKeepsTheOtherSubscribers() async throws {  // SPEC DL-59, TK-04
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("held/one.png")
                let (results, sink) = AsyncStream.makeStream(of: Completion.self)
                let tokens = (0..<3).map { index in downloader.download(url) { sink.yield((index, $0)) } }
                tokens[0].cancel()
                await server.gates.release("/held/one.png")
                var delivered: [Int] = []
                for await completion in results.prefix(2) {
                    #expect((try? completion.result.get()) != nil)
                    delivered.append(completion.index)
                }
                // Each subscriber's bytes are decoded on its own (in parallel, so in any order); the cancelled
                // one was left before the body arrived, so it gets nothing to decode and is never called.
                #expect(delivered.sorted() == [1, 2])
            }
        }
    }

    @Test func cancellingTheLastSubscriberAbortsTheRequest() async throws {  // SPEC OP-16, K-12
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                var events = server.events.makeAsyncIterator()
                let called = LockedValue(false)
                let url = base.appendingPathComponent("drip")
                let first = downloader.download(url) { _ in called.withLock { $0 = true } }
                let second = downloader.download(url) { _ in called.withLock { $0 = true } }
                await Self.wait(for: .arrived("/drip"), in: &events)
                first.cancel()
                second.cancel()
                var outcome: TestImageServer.Event?
                while let event = await events.next() {
                    if event == .dripAborted || event == .dripCompleted {
                        outcome = event
                        break
                    }
                }
                #expect(outcome == .dripAborted)
                #expect(called.withLock { $0 } == false)
            }
        }
    }

    @Test func theConcurrencyLimitHoldsServerSide() async throws {  // SPEC DL-17
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.maximumConcurrentDownloads = 2
            try await withImageDownloader(configuration: configuration) { downloader in
                var events = server.events.makeAsyncIterator()
                let (results, sink) = AsyncStream.makeStream(of: Completion.self)
                for index in 0..<6 {
                    downloader.download(base.appendingPathComponent("held/\(index).png")) { sink.yield((index, $0)) }
                }
                var arrived: [String] = []
                while arrived.count < 6, let event = await events.next() {
                    guard case .arrived(let path) = event else { continue }
                    arrived.append(path)
                    // Keep two requests held; each release lets exactly one more start.
                    if arrived.count >= 2 { await server.gates.release(arrived[arrived.count - 2]) }
                }
                await server.gates.releaseAll()
                var successes = 0
                for await completion in results.prefix(6) where (try? completion.result.get()) != nil { successes += 1 }
                #expect(successes == 6)
                #expect(downloader.currentDownloadCount == 0)
            }
            #expect(await server.log.maximumInFlight == 2)
        }
    }

    @Test(arguments: [DownloadExecutionOrder.fifo, .lifo])
    func prioritiesThenExecutionOrderDecideTheStartOrder(order: DownloadExecutionOrder) async throws {  // SPEC DL-57, DL-58
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.maximumConcurrentDownloads = 1
            configuration.executionOrder = order
            try await withImageDownloader(configuration: configuration) { downloader in
                downloader.suspend()
                let requests: [(String, DownloadOptions)] = [
                    ("a", .lowPriority), ("b", []), ("c", .highPriority), ("d", []), ("e", .lowPriority),
                ]
                let (results, sink) = AsyncStream.makeStream(of: Completion.self)
                for (index, (name, options)) in requests.enumerated() {
                    downloader.download(base.appendingPathComponent("image/\(name)"), options: options) { sink.yield((index, $0)) }
                }
                #expect(downloader.currentDownloadCount == 5)
                downloader.resume()
                for await _ in results.prefix(5) {}
            }
            let expected = order == .fifo ? ["c", "b", "d", "a", "e"] : ["c", "d", "b", "e", "a"]
            #expect(await server.log.paths == expected.map { "/image/\($0)" })
        }
    }

    @Test func aSilentServerTimesOut() async throws {  // SPEC DL-19
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.timeout = .milliseconds(300)
            let error = try await Self.error(base.appendingPathComponent("held/never.png"), configuration)
            #expect(error?.code == .timeout)
            #expect(error?.isTransient == true)
        }
    }

    @Test func errorStatusesFailWithTheirCode() async throws {  // SPEC OP-27, section 16 note 3
        let server = try TestImageServer()
        try await server.run { base in
            let notFound = try await Self.error(base.appendingPathComponent("status/404"))
            #expect(notFound?.code == .badStatus(404))
            #expect(notFound?.isTransient == false)
            let serverError = try await Self.error(base.appendingPathComponent("status/500"))
            #expect(serverError?.code == .badStatus(500))
            let unavailable = try await Self.error(base.appendingPathComponent("status/503"))
            #expect(unavailable?.isTransient == true)
        }
    }

    @Test func aBodyThatIsNotAnImageFailsWithBadContentType() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let error = try await Self.error(base.appendingPathComponent("html"))
            #expect(error?.code == .badContentType)
            // Image bytes under a generic type are sniffed and accepted.
            #expect(try await Self.error(base.appendingPathComponent("octet")) == nil)
            var strict = ImageDownloader.Configuration()
            strict.acceptableContentTypes = ["image/*"]
            #expect(try await Self.error(base.appendingPathComponent("octet"), strict)?.code == .badContentType)
        }
    }

    @Test func responsesOverTheSizeLimitFail() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.maximumResponseSize = 100_000
            let declared = try await Self.error(URL(string: "\(base)/large?bytes=1000000")!, configuration)
            #expect(declared?.code == .tooLarge)
            let streamed = try await Self.error(URL(string: "\(base)/large-chunked?bytes=1000000")!, configuration)
            #expect(streamed?.code == .tooLarge)
        }
    }

    @Test func credentialsAreSentAsBasicAuthorisation() async throws {  // SPEC DL-56
        let server = try TestImageServer()
        try await server.run { base in
            let url = base.appendingPathComponent("auth")
            let anonymous = try await Self.error(url)
            #expect(anonymous?.code == .badStatus(401))
            var configuration = ImageDownloader.Configuration()
            configuration.credentials = .init(user: "user", password: "pass", origin: base, allowsInsecureHTTP: true)
            let authorised = try await Self.error(url, configuration)
            #expect(authorised == nil)
        }
    }

    @Test func aRedirectLoopFails() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let error = try await Self.error(base.appendingPathComponent("loop/a"))
            #expect(error?.code == .tooManyRedirects)
            #expect(error?.isTransient == false)
        }
    }

    @Test func callersShareOneRequestAndEachDecodesWithItsOwnOptionsAndCoders() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let counter = CountingCoder()
            let coders = ImageCodersManager(coders: [counter])
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("held/options.png")
                let thumbnail = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 4, height: 4))
                let (results, sink) = AsyncStream.makeStream(of: Completion.self)
                for index in 0..<4 {
                    downloader.download(url, decoding: index.isMultiple(of: 2) ? .init() : thumbnail, coders: coders) {
                        sink.yield((index, $0))
                    }
                }
                await server.gates.release("/held/options.png")
                for await completion in results.prefix(4) {
                    let width = try completion.result.get().image.pixelSize.width
                    #expect(width == (completion.index.isMultiple(of: 2) ? 16 : 4))
                }
            }
            #expect(counter.decodeCount == 4)   // the registry given is the one that decodes
            #expect(await server.log.count("/held/options.png") == 1)
        }
    }

    @Test func taskCancellationCancelsTheCaller() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                var events = server.events.makeAsyncIterator()
                let task = Task { try await downloader.image(for: base.appendingPathComponent("held/task.png")) }
                await Self.wait(for: .arrived("/held/task.png"), in: &events)
                task.cancel()
                do {
                    _ = try await task.value
                    Issue.record("a cancelled task must not get an image")
                } catch {
                    #expect((error as? ImageDownloadError)?.code == .cancelled)
                }
            }
        }
    }

    @Test func progressReportsEachChunkUpToTheExpectedSize() async throws {  // SPEC DL-11, K-09
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let reports = LockedValue<[DownloadProgress]>([])
                let result = try await downloader.image(for: URL(string: "\(base)/large?bytes=200000")!) { progress in
                    reports.withLock { $0.append(progress) }
                }
                let progress = reports.withLock { $0 }
                #expect(progress.first?.receivedBytes == 0)
                #expect(progress.allSatisfy { $0.expectedBytes == 200_000 })
                #expect(progress.last?.receivedBytes == result.data.count)
                #expect(progress.map(\.receivedBytes) == progress.map(\.receivedBytes).sorted())
            }
        }
    }

    @Test func theDownloaderIsTheRegistryLoaderForHTTP() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let registry = ImageLoaderRegistry(loaders: [downloader, FileImageLoader(), DataURLImageLoader()])
                let url = base.appendingPathComponent("image/registry.png")
                let result = try await registry.loadData(for: url, options: [], validators: nil, progress: nil)
                #expect(try ImageCodersManager.shared.decode(result.data, options: .init()).pixelSize.width == 16)
            }
        }
    }

    @Test func aDedicatedEventLoopGroupIsShutDownWithTheDownloader() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.eventLoopThreads = 1
            let downloader = ImageDownloader(configuration: configuration)
            let result = try await downloader.image(for: base.appendingPathComponent("image/own-loop.png"))
            #expect(result.response.statusCode == 200)
            try await downloader.shutdown()
            let afterShutdown = await #expect(throws: ImageDownloadError.self) {
                try await downloader.image(for: base.appendingPathComponent("image/late.png"))
            }
            #expect(afterShutdown?.code == .cancelled)
        }
    }

    @Test func invalidURLsFailAtOnce() async throws {  // SPEC DL-47
        let error = try await Self.error(URL(string: "ftp://example.com/a.png")!)
        #expect(error?.code == .invalidURL)
    }
}
