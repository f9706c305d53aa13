import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import WebImageCore

extension ImageDownloader {
    /// What a transfer ended with: a body to decode, or "not modified".
    enum TransferOutcome: Sendable {
        case body(Data, DownloadResponse)
        case notModified(DownloadResponse)
    }

    /// How many bytes are enough to tell an image from something else by its leading bytes.
    static let sniffLength = 1024

    /// Runs one started operation: the transfer, then the completions of the subscribers still attached.
    func run(_ operationID: UInt64, on loop: any EventLoop) async {
        guard let (url, options, validators) = state.withLock({ $0.request(for: operationID) }) else { return }
        var outcome: Result<TransferOutcome, ImageDownloadError>
        var attempt = 1
        while true {
            let configuration = self.configuration  // each attempt uses the configuration of its start
            do {
                outcome = .success(try await transfer(
                    operationID, url: url, options: options, validators: validators, configuration: configuration, on: loop))
            } catch {
                outcome = .failure(Self.classify(error))
            }
            guard case .failure(let error) = outcome, !Task.isCancelled,
                let delay = configuration.retryPolicy?.delay(after: attempt, failedWith: error)
            else { break }
            logger.debug("retrying", metadata: ["url": "\(url)", "attempt": "\(attempt)", "error": "\(error)", "delay": "\(delay)"])
            do {
                try await configuration.clock.sleep(delay)
            } catch {
                outcome = .failure(.cancelled())
                break
            }
            attempt += 1
        }
        if case .success = outcome { emit(.finished(url)) }
        state.withLock { state in
            state.endTransfer(operationID)
            startReady(&state)
        }
        let subscribers = state.withLock { $0.removeOperation(operationID) }
        switch outcome {
        case .failure(let error):
            if !subscribers.isEmpty {
                logger.debug("download failed", metadata: ["url": "\(url)", "error": "\(error)"])
            }
            complete(subscribers, with: .failure(error))
        case .success(.notModified(let response)):
            complete(subscribers, with: .success(DownloadedData(data: Data(), response: response)))
        case .success(.body(let data, let response)):
            complete(subscribers, with: .success(DownloadedData(data: data, response: response)))
        }
    }

    /// Sends the request and collects the body, checking status, type and size as early as possible.
    /// A 304 is accepted only for a conditional request; without validators it is a bad status.
    private func transfer(
        _ operationID: UInt64, url: URL, options: DownloadOptions, validators: Validators?, configuration: Configuration,
        on loop: any EventLoop
    ) async throws -> TransferOutcome {
        let (target, headers) = try await makeRequest(url: url, options: options, validators: validators, configuration: configuration)
        try Task.checkCancellation()
        emit(.started(url))
        defer { emit(.stopped(url)) }
        if let transport = configuration.transport {
            let request = DownloadRequest(url: target, headers: Dictionary(headers.map { ($0.name, $0.value) }) { "\($0), \($1)" })
            let head: DownloadResponse, body: AsyncThrowingStream<Data, any Error>
            do {
                (head, body) = try await transport.send(request, timeout: configuration.effectiveTimeout)
            } catch let error as ImageDownloadError {
                throw error
            } catch is CancellationError {
                throw ImageDownloadError.cancelled()
            } catch {
                throw ImageDownloadError(.network, "the transport failed: \(error)", underlying: error)
            }
            let lowercased = DownloadResponse(url: head.url, statusCode: head.statusCode, fields: head.headers.lazy.map { ($0.key, $0.value) })
            let setCookie = lowercased.value(forHeader: "set-cookie").map { [$0] } ?? []
            return try await receive(operationID, url: url, head: lowercased, setCookie: setCookie, body: body,
                                     options: options, validators: validators, configuration: configuration)
        }
        let (final, head, body) = try await get(target, headers: headers, options: options, configuration: configuration, on: loop)
        let response = DownloadResponse(url: final, statusCode: Int(head.status.code), fields: head.headers.lazy.map { ($0.name, $0.value) })
        return try await receive(operationID, url: url, head: response, setCookie: head.headers["set-cookie"],
                                 body: body.map { $0.readableBytesView },
                                 options: options, validators: validators, configuration: configuration)
    }

    /// Sends a `GET` for `url` and follows redirects (at most ``Configuration/maximumRedirects``, never to a URL
    /// already visited); credentials and cookies are not sent on to another origin. Returns the URL that answered,
    /// the response head and its body.
    private func get(
        _ url: URL, headers: HTTPHeaders, options: DownloadOptions, configuration: Configuration, on loop: any EventLoop
    ) async throws -> (URL, HTTPResponseHead, AsyncThrowingStream<ByteBuffer, any Error>) {
        var url = url
        var headers = headers
        var visited: Set<String> = [url.absoluteString]
        while true {
            let (head, body) = try await connections.get(
                url, headers: headers, timeout: configuration.effectiveTimeout,
                maximumBodyBytes: configuration.maximumResponseSize, verifiesCertificates: !options.contains(.allowInvalidSSLCertificates), on: loop)
            guard [301, 302, 303, 307, 308].contains(head.status.code), let location = head.headers.first(name: "location") else {
                return (url, head, body)
            }
            guard visited.count <= configuration.maximumRedirects else {
                throw ImageDownloadError(.tooManyRedirects, "more than \(configuration.maximumRedirects) redirects")
            }
            guard let next = URL(string: location, relativeTo: url)?.absoluteURL, canLoad(next) else {
                throw ImageDownloadError(.network, "the server redirected to \(location), which is not an http(s) URL")
            }
            guard visited.insert(next.absoluteString).inserted else {
                throw ImageDownloadError(.tooManyRedirects, "the redirects loop back to \(next.absoluteString)")
            }
            if next.scheme?.lowercased() != url.scheme?.lowercased() || next.host != url.host || next.port != url.port {
                headers.remove(name: "Authorization")
                headers.remove(name: "Cookie")
            }
            url = next
        }
    }

    /// Checks the response head, then collects the body within the size limit, sniffing its first bytes and
    /// reporting progress (with the bytes so far, for progressive callers) as chunks arrive.
    private func receive<Body: AsyncSequence>(
        _ operationID: UInt64, url: URL, head: DownloadResponse, setCookie: [String], body: Body,
        options: DownloadOptions, validators: Validators?, configuration: Configuration
    ) async throws -> TransferOutcome where Body.Element: Collection<UInt8> {
        if options.contains(.handleCookies) {
            cookies.store(setCookieHeaders: setCookie, from: head.url)
        }
        var head = head
        if let modifier = configuration.responseModifier {
            guard let modified = await modifier(head) else {
                throw ImageDownloadError(.rejected, "the response modifier rejected the response (status \(head.statusCode))")
            }
            head = modified
        }
        if head.statusCode == 304 {
            guard validators != nil else {
                throw ImageDownloadError(.badStatus(304), "the server answered 304 to a request that was not conditional")
            }
            emit(.receivedResponse(url, head))
            return .notModified(head)
        }
        try validate(head, configuration)
        emit(.receivedResponse(url, head))
        let expected = head.value(forHeader: "content-length").flatMap { Int($0.filter { $0 != " " && $0 != "\t" }) }
        if let expected, expected > configuration.maximumResponseSize {
            throw ImageDownloadError(.tooLarge, "Content-Length \(expected) exceeds the limit of \(configuration.maximumResponseSize) bytes")
        }
        // Checked here, not in reportProgress: an async call costs a frame even when it returns at once.
        if wantsProgress(operationID) {
            await reportProgress(operationID, DownloadProgress(url: url, receivedBytes: 0, expectedBytes: expected))
        }
        var data = Data()
        // Encrypted bytes say nothing until decrypted: no sniffing, no partial data.
        let decryptor = configuration.decryptor
        var sniffed = decryptor != nil
        do {
            for try await chunk in body {
                guard data.count + chunk.count <= configuration.maximumResponseSize else {
                    throw ImageDownloadError(.tooLarge, "the body exceeds the limit of \(configuration.maximumResponseSize) bytes")
                }
                if data.isEmpty, let whole = chunk as? Data, whole.startIndex == 0 {
                    // A transport that gathers the body (the server's hands it over in pieces of up to 512 KiB):
                    // its first piece is taken as it is, not copied.
                    data = whole
                } else {
                    if data.isEmpty { data.reserveCapacity(min(expected ?? 64 * 1024, configuration.maximumResponseSize)) }
                    data.append(contentsOf: chunk)
                }
                if !sniffed, data.count >= Self.sniffLength {
                    sniffed = true
                    try checkContent(head, data, configuration)
                }
                if wantsProgress(operationID) {
                    await reportProgress(
                        operationID, DownloadProgress(url: url, receivedBytes: data.count, expectedBytes: expected),
                        data: decryptor == nil ? data : nil)
                }
            }
        } catch let error as ImageDownloadError {
            throw error
        } catch {
            let classified = Self.classify(error)
            guard classified.code == .network else { throw classified }
            throw ImageDownloadError(.network, "the connection broke after \(Self.describe(data.count, of: expected))", underlying: error)
        }
        try Task.checkCancellation()  // a cancelled stream ends early without an error
        if let expected, data.count < expected {
            throw ImageDownloadError(.network, "the body ended after \(Self.describe(data.count, of: expected))")
        }
        guard !data.isEmpty else {
            throw ImageDownloadError(.emptyBody, "the server sent no bytes (status \(head.statusCode))")
        }
        if let decryptor {
            do {
                data = try decryptor(data, head)
            } catch {
                throw ImageDownloadError(.decryptionFailed, "the decryptor failed", underlying: error)
            }
            try checkContent(head, data, configuration)
        } else if !sniffed {
            try checkContent(head, data, configuration)
        }
        return .body(data, head)
    }

    /// "12 of 100 bytes", or "12 bytes" when the size is unknown.
    static func describe(_ received: Int, of expected: Int?) -> String {
        expected.map { "\(received) of \($0) bytes" } ?? "\(received) bytes"
    }

    /// Rejects a response head whose status or declared type is not acceptable.
    private func validate(_ head: DownloadResponse, _ configuration: Configuration) throws {
        guard configuration.acceptableStatusCodes.contains(head.statusCode) else {
            throw ImageDownloadError(
                .badStatus(head.statusCode), "the server answered \(head.statusCode)",
                retryAfter: head.value(forHeader: "retry-after").flatMap { RetryAfter.delay(from: $0) }
            )
        }
        guard configuration.acceptsDeclaredType(head.mimeType) else {
            throw ImageDownloadError(.badContentType, "content type \(head.mimeType ?? "none") is not acceptable")
        }
    }

    /// With no explicit acceptable types, accepts `image/*` or bytes that start like a known image format.
    private func checkContent(_ head: DownloadResponse, _ data: Data, _ configuration: Configuration) throws {
        guard configuration.acceptableContentTypes == nil else { return }
        if let mimeType = head.mimeType, mimeType.hasPrefix("image/") { return }
        guard ImageFormat(detecting: data) == .unknown else { return }
        throw ImageDownloadError(.badContentType, "content type \(head.mimeType ?? "none") is not an image and the bytes are no known image format")
    }

    /// Reports `progress` to the events stream and every subscriber; those that asked for a progressive
    /// load also get `data`, the bytes so far. The callbacks run on the downloader's transfer threads: a transfer
    /// running on an event loop moves there for them and back.
    /// Whether anyone hears `operationID`'s progress: an event listener, or a subscriber with a progress handler.
    private func wantsProgress(_ operationID: UInt64) -> Bool {
        broadcaster.hasListeners || state.withLock { $0.subscribers(of: operationID).contains { $0.progress != nil } }
    }

    private func reportProgress(_ operationID: UInt64, _ progress: DownloadProgress, data: Data? = nil) async {
        if broadcaster.hasListeners { broadcaster.yield(.progress(progress)) }
        let subscribers = state.withLock { $0.subscribers(of: operationID) }.filter { $0.progress != nil }
        guard !subscribers.isEmpty else { return }
        var withData = progress
        withData.data = data
        let report = { @Sendable [withData] in
            for subscriber in subscribers { subscriber.progress?(subscriber.wantsData ? withData : progress) }
        }
        if MultiThreadedEventLoopGroup.currentEventLoop == nil {
            report()
        } else {
            await withTaskExecutorPreference(WorkerThreads.transfers) { report() }
        }
    }

    /// Maps a transport or task error onto an ``ImageDownloadError``.
    static func classify(_ error: any Error) -> ImageDownloadError {
        if let error = error as? ImageDownloadError { return error }
        if error is CancellationError { return .cancelled() }
        if let error = error as? HTTP1ConnectionError {
            switch error {
            case .timedOut: return ImageDownloadError(.timeout, "the server did not answer in time", underlying: error)
            case .closed: return ImageDownloadError(.network, "the connection failed", underlying: error)
            }
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return ImageDownloadError(.timeout, "the server did not answer in time", underlying: error)
        }
        if error is NIOSSLError || error is BoringSSLError {
            return ImageDownloadError(.tlsFailed, "the TLS handshake failed (is the certificate trusted?)", underlying: error)
        }
        return ImageDownloadError(.network, "the connection failed", underlying: error)
    }
}
