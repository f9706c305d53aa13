import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Binding loads to targets (SPEC VW-*, TR-*, K-18…K-22).
@Suite struct ImageTargetTests {
    /// Records everything the binding does to it.
    final class RecordingTarget: ImageTarget {
        enum Call: Equatable {
            case set(width: Int?, slot: String, transition: ImageTransition?, cacheType: ImageCacheType)
            case failed(ImageLoadError.Code, slot: String)
            case animation(count: Int)
        }

        let imageLoadState: ImageLoadState
        let calls = LockedValue<[Call]>([])
        let progressCount = LockedValue(0)

        init(transition: ImageTransition? = nil) { imageLoadState = ImageLoadState(transition: transition) }

        func setImage(_ image: Image?, for slot: ImageSlot, transition: ImageTransition?, cacheType: ImageCacheType) {
            calls.withLock { $0.append(.set(width: image?.pixelSize.width, slot: slot.key, transition: transition, cacheType: cacheType)) }
        }

        func imageLoadDidFail(_ error: ImageLoadError, for slot: ImageSlot) {
            calls.withLock { $0.append(.failed(error.code, slot: slot.key)) }
        }

        func imageLoadDidProgress(_ progress: DownloadProgress, for slot: ImageSlot) {
            progressCount.withLock { $0 += 1 }
        }

        func setAnimationImages(_ images: [Image], for slot: ImageSlot) {
            calls.withLock { $0.append(.animation(count: images.count)) }
        }

        var recorded: [Call] { calls.withLock { $0 } }
    }

    static let placeholder = Image(pixels: PixelBuffer(width: 1, height: 1, fill: RGBA(red: 0, green: 0, blue: 0)))

    @Test func vw04AndVW09ThePlaceholderComesFirstThenTheImageWithTheTransition() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url, width: 8)
        let target = RecordingTarget(transition: .fade)
        let deliveries = Deliveries()
        target.setImage(with: url, placeholder: Self.placeholder, manager: fixture.manager, completed: deliveries.completion)
        _ = await deliveries.next()
        #expect(target.recorded == [
            .set(width: 1, slot: "image", transition: nil, cacheType: .notCached),
            .set(width: 8, slot: "image", transition: .fade, cacheType: .notCached),
        ])
        #expect(target.progressCount.withLock { $0 } > 0)
        #expect(target.imageURL() == url)
    }

    @Test func tr02AndK18ATransitionLastsHalfASecondAndSkipsCacheHitsUnlessForced() async throws {
        #expect(ImageTransition.fade.duration == .milliseconds(500))
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url, width: 8)
        _ = try await fixture.manager.loadImage(from: url)
        let target = RecordingTarget(transition: ImageTransition(.curlUp))
        target.setImage(with: url, manager: fixture.manager)  // a memory hit: set before returning
        target.setImage(with: url, options: [.forceTransition], manager: fixture.manager)
        #expect(target.recorded == [
            .set(width: nil, slot: "image", transition: nil, cacheType: .notCached),
            .set(width: 8, slot: "image", transition: nil, cacheType: .memory),
            .set(width: nil, slot: "image", transition: nil, cacheType: .notCached),
            .set(width: 8, slot: "image", transition: ImageTransition(.curlUp), cacheType: .memory),
        ])
    }

    @Test func vw02ANewLoadInTheSameSlotCancelsThePreviousOne() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let first = MockLoader.url("first.png")
        let second = MockLoader.url("second.png")
        fixture.loader.serve(first, width: 3)
        fixture.loader.serve(second, width: 5)
        fixture.loader.hold()
        let target = RecordingTarget()
        let firstDeliveries = Deliveries()
        let secondDeliveries = Deliveries()
        let firstOperation = target.setImage(with: first, manager: fixture.manager, completed: firstDeliveries.completion)
        target.setImage(with: second, manager: fixture.manager, completed: secondDeliveries.completion)
        #expect(firstOperation?.isCancelled == true)
        fixture.loader.release()
        _ = await secondDeliveries.next()
        #expect(firstDeliveries.count == 0)
        #expect(!target.recorded.contains { $0 == .set(width: 3, slot: "image", transition: nil, cacheType: .notCached) })
        #expect(target.recorded.last == .set(width: 5, slot: "image", transition: nil, cacheType: .notCached))
        #expect(target.imageURL() == second)
    }

    @Test func vw20AndVW21SlotsLoadSideBySide() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let normal = MockLoader.url("normal.png")
        let highlighted = MockLoader.url("highlighted.png")
        fixture.loader.serve(normal, width: 3)
        fixture.loader.serve(highlighted, width: 4)
        let target = RecordingTarget()
        let deliveries = Deliveries()
        target.setImage(with: normal, slot: .image(forState: "normal"), manager: fixture.manager, completed: deliveries.completion)
        target.setImage(with: highlighted, slot: .highlighted, manager: fixture.manager, completed: deliveries.completion)
        _ = await deliveries.next()
        _ = await deliveries.next()
        let sets = Set(target.recorded.compactMap { call -> String? in
            if case .set(let width?, let slot, _, _) = call { return "\(slot)=\(width)" }
            return nil
        })
        #expect(sets == ["image_normal=3", "highlighted=4"])
        #expect(target.imageURL(in: .highlighted) == highlighted)
    }

    @Test func mg10AndK19ADelayedPlaceholderIsSetOnlyWhenTheLoadFails() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("missing.png")
        let target = RecordingTarget()
        let deliveries = Deliveries()
        target.setImage(with: url, placeholder: Self.placeholder, options: [.delayPlaceholder], manager: fixture.manager,
                        completed: deliveries.completion)
        #expect(target.recorded.isEmpty)
        _ = await deliveries.next()
        #expect(target.recorded == [
            .set(width: 1, slot: "image", transition: nil, cacheType: .notCached),
            .failed(.loadFailed, slot: "image"),
        ])
    }

    @Test func vw07ANilURLFailsWithInvalidURL() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let target = RecordingTarget()
        let deliveries = Deliveries()
        let operation = target.setImage(with: nil, manager: fixture.manager, completed: deliveries.completion)
        #expect(operation == nil)
        guard case .failure(let error) = deliveries.all.first else { Issue.record("expected a failure"); return }
        #expect(error.code == .invalidURL)
    }

    @Test func mg12AvoidAutoSetImageHandsTheImageToTheCompletionOnly() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url, width: 8)
        let target = RecordingTarget()
        let deliveries = Deliveries()
        target.setImage(with: url, options: [.avoidAutoSetImage, .delayPlaceholder], manager: fixture.manager,
                        completed: deliveries.completion)
        let result = try #require(await deliveries.next()).get()
        #expect(result.image.pixelSize.width == 8)
        #expect(target.recorded.isEmpty)
    }

    @Test func vw11CancellingTheSlotMeansItsImageIsNeverSet() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url, width: 8)
        fixture.loader.hold()
        let target = RecordingTarget()
        let deliveries = Deliveries()
        target.setImage(with: url, options: [.delayPlaceholder], manager: fixture.manager, completed: deliveries.completion)
        #expect(target.imageLoadState.isLoading())
        target.cancelImageLoad()
        #expect(!target.imageLoadState.isLoading())
        fixture.loader.release()
        try await fixture.waitUntilIdle()
        #expect(target.recorded.isEmpty)
        #expect(deliveries.count == 0)
    }

    @Test func vw17AndK22AListOfURLsBecomesOneAnimationInOrder() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let urls = (1...3).map { MockLoader.url("frame-\($0).png") }
        for (index, url) in urls.enumerated() { fixture.loader.serve(url, width: index + 2) }
        let target = RecordingTarget()
        let finished = LockedValue<[Int?]>([])
        let (done, doneSink) = AsyncStream.makeStream(of: Void.self)
        target.setAnimationImages(with: urls, manager: fixture.manager) { results in
            finished.withLock { $0 = results.map { try? $0.get().image.pixelSize.width } }
            doneSink.yield()
        }
        var iterator = done.makeAsyncIterator()
        _ = await iterator.next()
        #expect(finished.withLock { $0 } == [2, 3, 4])
        #expect(target.recorded.allSatisfy { $0 == .animation(count: 3) })
        #expect(target.recorded.count == 3)
        let ordered = await fixture.manager.loadImages(urls)
        #expect(ordered.map { try? $0.get().image.pixelSize.width } == [2, 3, 4])
    }

    @Test func vw18CancellingTheAnimationSlotCancelsEveryLoadOfTheAnimation() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let urls = (1...3).map { MockLoader.url("held-frame-\($0).png") }
        for url in urls { fixture.loader.serve(url) }
        fixture.loader.hold()
        let target = RecordingTarget()
        let completions = LockedValue(0)
        target.setAnimationImages(with: urls, manager: fixture.manager) { _ in completions.withLock { $0 += 1 } }
        var arrivals = fixture.loader.arrivals.makeAsyncIterator()
        for _ in urls { _ = await arrivals.next() }  // every frame's load is running
        #expect(target.imageLoadState.isLoading(.animation))
        target.cancelImageLoad(in: .animation)
        #expect(!target.imageLoadState.isLoading(.animation))
        #expect(!fixture.manager.isRunning)
        fixture.loader.release()
        // Each of the three loads sees its cancellation at the loader; none delivers.
        try await eventually { fixture.loader.cancellations == urls.count }
        #expect(fixture.loader.cancellations == urls.count)
        #expect(target.recorded.isEmpty)
        #expect(completions.withLock { $0 } == 0)
    }
}
