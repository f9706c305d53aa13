import Foundation
import Testing
@testable import WebImageKit

/// Dedup and cancel rules of the downloader's state machine (SPEC DL-48, DL-59, OP-16, K-12).
@Suite struct DownloaderStateTests {
    static let url = URL(string: "http://example.com/a.png")!

    static func subscribe(
        _ state: inout DownloaderState, url: URL = url, priority: DownloadPriority = .normal
    ) -> (operation: UInt64, subscriber: UInt64) {
        let options: DownloadOptions = priority == .high ? .highPriority : priority == .low ? .lowPriority : []
        return state.subscribe(url: url, key: url.absoluteString, options: options) { id in
            DownloadSubscriber(
                id: id, priority: priority, wantsData: false, progress: nil,
                token: DownloadSubscription(url: url, completion: { _ in }))
        }
    }

    @Test func aSecondCallerForTheSameURLAttaches() {  // SPEC DL-48
        var state = DownloaderState(configuration: ImageDownloader.Configuration())
        let first = Self.subscribe(&state)
        let second = Self.subscribe(&state)
        #expect(first.operation == second.operation)
        #expect(first.subscriber != second.subscriber)
        #expect(state.currentDownloadCount == 1)
        #expect(state.subscribers(of: first.operation).count == 2)
    }

    @Test func aQueuedDownloadRunsAtItsSubscribersHighestPriority() {
        var state = DownloaderState(configuration: ImageDownloader.Configuration())
        state.queue.isSuspended = true
        let low = Self.subscribe(&state, priority: .low)
        let high = Self.subscribe(&state, priority: .high)
        #expect(state.queue.priority(of: low.operation) == .high)
        _ = state.unsubscribe(operation: high.operation, subscriber: high.subscriber)
        #expect(state.queue.priority(of: low.operation) == .low)
    }

    @Test func cancellingOneOfTwoKeepsTheDownload() {  // SPEC DL-59
        var state = DownloaderState(configuration: ImageDownloader.Configuration())
        let first = Self.subscribe(&state)
        _ = Self.subscribe(&state)
        _ = state.takeReady()
        guard case .none = state.unsubscribe(operation: first.operation, subscriber: first.subscriber) else {
            Issue.record("the download must continue for the other subscriber")
            return
        }
        #expect(state.subscribers(of: first.operation).count == 1)
    }

    @Test func cancellingTheLastOfARunningDownloadCancelsTheTransfer() {  // SPEC OP-16, K-12
        var state = DownloaderState(configuration: ImageDownloader.Configuration())
        let only = Self.subscribe(&state)
        let started = state.takeReady()
        #expect(started == [only.operation])
        guard case .cancelTransfer = state.unsubscribe(operation: only.operation, subscriber: only.subscriber) else {
            Issue.record("the transfer must be cancelled")
            return
        }
        // A new caller now starts a new download instead of joining the cancelled one.
        let next = Self.subscribe(&state)
        #expect(next.operation != only.operation)
    }

    @Test func cancellingTheLastOfAQueuedDownloadDropsIt() {
        var state = DownloaderState(configuration: ImageDownloader.Configuration())
        state.queue.isSuspended = true
        let only = Self.subscribe(&state)
        _ = state.unsubscribe(operation: only.operation, subscriber: only.subscriber)
        #expect(state.currentDownloadCount == 0)
        #expect(state.request(for: only.operation) == nil)
    }

    @Test func aCancelledSubscriberIsNeverTakenForDelivery() {
        var state = DownloaderState(configuration: ImageDownloader.Configuration())
        let first = Self.subscribe(&state)
        let second = Self.subscribe(&state)
        _ = state.takeReady()
        _ = state.unsubscribe(operation: first.operation, subscriber: first.subscriber)
        state.endTransfer(first.operation)
        let cancelled = state.takeSubscriber(first.subscriber, of: first.operation)
        let remaining = state.takeSubscriber(second.subscriber, of: second.operation)
        let again = state.takeSubscriber(second.subscriber, of: second.operation)
        #expect(cancelled == nil)
        #expect(remaining?.id == second.subscriber)
        #expect(again == nil)
    }

    @Test func afterTheTransferEndsLaterCallersStartANewDownload() {  // SPEC K-12
        var state = DownloaderState(configuration: ImageDownloader.Configuration())
        let first = Self.subscribe(&state)
        _ = state.takeReady()
        state.endTransfer(first.operation)
        let later = Self.subscribe(&state)
        #expect(later.operation != first.operation)
    }

    @Test func cancelAllDetachesEverySubscriber() {  // SPEC DL-42
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = 1
        var state = DownloaderState(configuration: configuration)
        _ = Self.subscribe(&state)
        _ = Self.subscribe(&state, url: URL(string: "http://example.com/b.png")!)
        _ = state.takeReady()
        let cancelled = state.cancelAll()
        #expect(cancelled.subscribers.count == 2)
        #expect(state.queue.waitingCount == 0)
    }
}
