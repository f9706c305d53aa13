import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
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

    /// Runs one started operation: the transfer, then one decode per distinct option set, then the
    /// completions of the subscribers still attached (SPEC OP-17…OP-30).
    func run(_ operationID: UInt64) async {
        guard let (url, options, validators) = state.withLock({ $0.request(for: operationID) }) else { return }
        var outcome: Result<TransferOutcome, ImageDownloadError>
        var attempt = 1
        while true {
            do {
                outcome = .success(try await transfer(operationID, url: url, options: options, validators: validators))
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
        switch outcome {
        case .failure(let error):
            let subscribers = state.withLock { $0.removeOperation(operationID) }
            if !subscribers.isEmpty {
                logger.debug("download failed", metadata: ["url": "\(url)", "error": "\(error)"])
            }
            deliver(.failure(error), to: subscribers)
        case .success(.notModified(let response)):
            deliver(.success(.notModified(response)), to: state.withLock { $0.removeOperation(operationID) })
        case .success(.body(let data, let response)):
            await decodeAndDeliver(operationID, data: data, response: response)
        }
    }

    /// Decodes once per distinct `ImageDecodingOptions` among the subscribers still attached and
    /// calls each of them; a subscriber that cancels meanwhile is skipped. Decodes run on
    /// ``WorkerThreads/processing``.
    private func decodeAndDeliver(_ operationID: UInt64, data: Data, response: DownloadResponse) async {
        var decoded: [ImageDecodingOptions: Result<SubscriberOutcome, ImageDownloadError>] = [:]
        for subscriber in state.withLock({ $0.subscribers(of: operationID) }) {
            let result: Result<SubscriberOutcome, ImageDownloadError>
            if subscriber.decoding == nil {
                result = .success(.bytes(DownloadedData(data: data, response: response)))
            } else if let decoding = subscriber.decoding, let cached = decoded[decoding] {
                result = cached
            } else if let decoding = subscriber.decoding {
                // Nobody is waiting for this option set any more: skip the decode.
                guard state.withLock({ $0.subscribers(of: operationID).contains { $0.id == subscriber.id } }) else {
                    continue
                }
                let coders = decoding.coders ?? coders
                result = await WorkerThreads.processing.run {
                    do {
                        let image = try coders.decode(data, options: decoding)
                        return .success(.modified(DownloadResult(image: image, data: data, response: response)))
                    } catch {
                        return .failure(ImageDownloadError(.decodeFailed, "the downloaded bytes could not be decoded", underlying: error))
                    }
                }
                decoded[decoding] = result
            } else {
                continue
            }
            if let taken = state.withLock({ $0.takeSubscriber(subscriber.id, of: operationID) }) {
                taken.completion(result)
            }
        }
        _ = state.withLock { $0.removeOperation(operationID) }
    }

    /// Sends the request and collects the body, checking status, type and size as early as possible.
    /// A 304 is accepted only for a conditional request (SPEC K-09); without validators it is a bad status.
    private func transfer(_ operationID: UInt64, url: URL, options: DownloadOptions, validators: Validators?) async throws -> TransferOutcome {
        let request = try await makeRequest(url: url, options: options, validators: validators)
        try Task.checkCancellation()
        emit(.started(url))
        defer { emit(.stopped(url)) }
        let response = try await client.execute(request, deadline: .distantFuture, logger: logger)
        if options.contains(.handleCookies) {
            cookies.store(setCookieHeaders: response.headers["set-cookie"], from: response.url ?? url)
        }
        var head = DownloadResponse(
            url: response.url ?? url,
            statusCode: Int(response.status.code),
            headers: Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }) { "\($0), \($1)" }
        )
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
        try validate(head)
        emit(.receivedResponse(url, head))
        let expected = head.value(forHeader: "content-length").flatMap { Int($0.filter { $0 != " " && $0 != "\t" }) }
        if let expected, expected > configuration.maximumResponseSize {
            throw ImageDownloadError(.tooLarge, "Content-Length \(expected) exceeds the limit of \(configuration.maximumResponseSize) bytes")
        }
        reportProgress(operationID, DownloadProgress(url: url, receivedBytes: 0, expectedBytes: expected))
        var data = Data()
        data.reserveCapacity(min(expected ?? 64 * 1024, configuration.maximumResponseSize))
        // Encrypted bytes say nothing until decrypted: no sniffing, no partial images.
        let decryptor = configuration.decryptor
        var sniffed = decryptor != nil
        let feeder = ProgressiveFeeder(coders: coders, interval: configuration.minimumProgressiveInterval, clock: configuration.clock)
        do {
            for try await chunk in response.body {
                guard data.count + chunk.readableBytes <= configuration.maximumResponseSize else {
                    throw ImageDownloadError(.tooLarge, "the body exceeds the limit of \(configuration.maximumResponseSize) bytes")
                }
                data.append(contentsOf: chunk.readableBytesView)
                if !sniffed, data.count >= Self.sniffLength {
                    sniffed = true
                    try checkContent(head, data)
                }
                let subscribers = decryptor == nil ? state.withLock { $0.subscribers(of: operationID) } : []
                for (subscriber, image) in await feeder.feed(data, expectedBytes: expected, subscribers: subscribers) {
                    subscriber.partial?(image)
                }
                reportProgress(operationID, DownloadProgress(url: url, receivedBytes: data.count, expectedBytes: expected))
            }
        } catch let error as ImageDownloadError {
            throw error
        } catch {
            let classified = Self.classify(error)
            guard classified.code == .network else { throw classified }
            throw ImageDownloadError(.network, "the connection broke after \(Self.describe(data.count, of: expected))", underlying: error)
        }
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
            try checkContent(head, data)
        } else if !sniffed {
            try checkContent(head, data)
        }
        return .body(data, head)
    }

    /// "12 of 100 bytes", or "12 bytes" when the size is unknown.
    static func describe(_ received: Int, of expected: Int?) -> String {
        expected.map { "\(received) of \($0) bytes" } ?? "\(received) bytes"
    }

    /// Rejects a response head whose status or declared type is not acceptable (SPEC OP-27, K-09).
    private func validate(_ head: DownloadResponse) throws {
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
    private func checkContent(_ head: DownloadResponse, _ data: Data) throws {
        guard configuration.acceptableContentTypes == nil else { return }
        if let mimeType = head.mimeType, mimeType.hasPrefix("image/") { return }
        guard ImageFormat(detecting: data) == .unknown else { return }
        throw ImageDownloadError(.badContentType, "content type \(head.mimeType ?? "none") is not an image and the bytes are no known image format")
    }

    private func reportProgress(_ operationID: UInt64, _ progress: DownloadProgress) {
        if broadcaster.hasListeners { broadcaster.yield(.progress(progress)) }
        for subscriber in state.withLock({ $0.subscribers(of: operationID) }) {
            subscriber.progress?(progress)
        }
    }

    /// Maps a transport or task error onto an ``ImageDownloadError``.
    static func classify(_ error: any Error) -> ImageDownloadError {
        if let error = error as? ImageDownloadError { return error }
        if error is CancellationError { return .cancelled() }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled, .alreadyShutdown:
                return ImageDownloadError(.cancelled, "the request was cancelled", underlying: error)
            case .readTimeout, .connectTimeout, .deadlineExceeded, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return ImageDownloadError(.timeout, "the server did not answer in time", underlying: error)
            case .redirectCycleDetected, .redirectLimitReached:
                return ImageDownloadError(.tooManyRedirects, "redirects looped or exceeded the limit", underlying: error)
            default:
                break
            }
        }
        if error is NIOSSLError || error is BoringSSLError {
            return ImageDownloadError(.tlsFailed, "the TLS handshake failed (is the certificate trusted?)", underlying: error)
        }
        return ImageDownloadError(.network, "the connection failed", underlying: error)
    }
}
