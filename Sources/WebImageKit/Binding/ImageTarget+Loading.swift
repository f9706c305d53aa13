public import Foundation
public import WebImageCore

extension ImageTarget {
    /// Loads `url` into `slot` of this target (SDWebImage's `sd_setImageWithURL:`).
    ///
    /// In order: the load already running in `slot` is cancelled; `url` is recorded; the
    /// placeholder is set unless ``ImageLoadOptions/delayPlaceholder``; the load runs through
    /// `manager`, reporting progress to the target and to `progress`. Each result is set
    /// unless ``ImageLoadOptions/avoidAutoSetImage``, with `transition` (else the target's
    /// default) for whole images from the network or with ``ImageLoadOptions/forceTransition``.
    /// On failure the delayed placeholder is set. `completed` runs for whole images, failures,
    /// and every result under avoid-auto-set; a load replaced or cancelled first never sets
    /// anything nor calls `completed`.
    ///
    /// ```swift
    /// cell.setImage(with: url, placeholder: grey, options: [.delayPlaceholder], transition: .fade)
    /// button.setImage(with: pressedURL, slot: .image(forState: "highlighted"))
    /// ```
    /// - Returns: The load, or `nil` when `url` is `nil` (then `completed` gets ``ImageLoadError/Code/invalidURL``).
    @discardableResult
    public func setImage(
        with url: URL?,
        placeholder: Image? = nil,
        options: ImageLoadOptions = [],
        context: ImageLoadContext? = nil,
        slot: ImageSlot = .image,
        transition: ImageTransition? = nil,
        manager: ImageManager = .shared,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        completed: (@Sendable (Result<ImageLoadResult, ImageLoadError>) -> Void)? = nil
    ) -> LoadOperation? {
        let state = imageLoadState
        let generation = state.begin(slot, url: url)
        let delaysPlaceholder = options.contains(.delayPlaceholder)
        if !delaysPlaceholder { setImage(placeholder, for: slot, transition: nil, cacheType: .notCached) }
        guard let url else {
            let error = ImageLoadError(.invalidURL, "trying to load a nil URL", url: nil)
            if delaysPlaceholder { setImage(placeholder, for: slot, transition: nil, cacheType: .notCached) }
            imageLoadDidFail(error, for: slot)
            completed?(.failure(error))
            return nil
        }
        let transition = transition ?? state.transition
        let operation = manager.loadImage(
            with: url, options: options, context: context,
            progress: { [weak self] value in
                guard let self, state.isCurrent(generation, in: slot) else { return }
                imageLoadDidProgress(value, for: slot)
                progress?(value)
            }
        ) { [weak self] result in
            guard let self, state.isCurrent(generation, in: slot) else { return }
            switch result {
            case .success(let loaded):
                if !options.contains(.avoidAutoSetImage) {
                    let animates = loaded.isFinished && (loaded.cacheType == .notCached || options.contains(.forceTransition))
                    setImage(loaded.image, for: slot, transition: animates ? transition : nil, cacheType: loaded.cacheType)
                }
                if loaded.isFinished { state.finish(slot, generation: generation) }
                if loaded.isFinished || options.contains(.avoidAutoSetImage) { completed?(result) }
            case .failure(let error):
                state.finish(slot, generation: generation)
                if delaysPlaceholder { setImage(placeholder, for: slot, transition: nil, cacheType: .notCached) }
                imageLoadDidFail(error, for: slot)
                completed?(result)
            }
        }
        if !operation.isFinished { state.add(operation, to: slot, generation: generation) }
        return operation
    }

    /// Cancels the load running in `slot` (SDWebImage's `sd_cancelCurrentImageLoad`).
    public func cancelImageLoad(in slot: ImageSlot = .image) {
        imageLoadState.cancel(slot)
    }

    /// The URL last loaded into `slot` (SDWebImage's `sd_imageURL`, `sd_imageURLForState:`).
    public func imageURL(in slot: ImageSlot = .image) -> URL? {
        imageLoadState.url(for: slot)
    }

    /// Loads every URL and shows them as one animation in ``ImageSlot/animation`` (SDWebImage's `sd_setAnimationImagesWithURLs:`).
    ///
    /// Each image goes to its own index as it arrives; until every URL has answered, an index still
    /// empty shows the nearest loaded image before it (or after it), so the animation always has as
    /// many frames as URLs. A failed URL keeps that filler. The loads are cancelled together by
    /// ``cancelImageLoad(in:)`` with ``ImageSlot/animation``, or by a new call.
    /// - Parameters:
    ///   - urls: The images of the animation, in order.
    ///   - options: How to load each one.
    ///   - context: Per-request overrides for each load.
    ///   - manager: The manager that loads them.
    ///   - completed: Called once with every result, in the order of `urls`.
    public func setAnimationImages(
        with urls: [URL],
        options: ImageLoadOptions = [],
        context: ImageLoadContext? = nil,
        manager: ImageManager = .shared,
        completed: (@Sendable ([Result<ImageLoadResult, ImageLoadError>]) -> Void)? = nil
    ) {
        let slot = ImageSlot.animation
        let state = imageLoadState
        let generation = state.begin(slot, url: urls.first)
        let collected = LockedValue(AnimationCollection(count: urls.count))
        if urls.isEmpty { completed?([]) }
        for (index, url) in urls.enumerated() {
            let operation = manager.loadImage(with: url, options: options, context: context) { [weak self] result in
                if case .success(let loaded) = result, !loaded.isFinished { return }
                guard let self, state.isCurrent(generation, in: slot) else { return }
                let (frames, results) = collected.withLock { $0.record(result, at: index) }
                if let frames, !options.contains(.avoidAutoSetImage) { setAnimationImages(frames, for: slot) }
                if let results {
                    state.finish(slot, generation: generation)
                    completed?(results)
                }
            }
            if !operation.isFinished { state.add(operation, to: slot, generation: generation) }
        }
    }
}

/// The images of an animation load as they arrive.
struct AnimationCollection: Sendable {
    var results: [Result<ImageLoadResult, ImageLoadError>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    /// Records one result; returns the frames to show (after a success) and, once all are in, the results.
    mutating func record(
        _ result: Result<ImageLoadResult, ImageLoadError>, at index: Int
    ) -> (frames: [Image]?, results: [Result<ImageLoadResult, ImageLoadError>]?) {
        results[index] = result
        let all = results.allSatisfy { $0 != nil } ? results.compactMap { $0 } : nil
        guard case .success = result else { return (nil, all) }
        let images = results.map { try? $0?.get().image }
        // Fill each gap with the nearest image before it, or after it for leading gaps.
        var frames: [Image] = []
        var last: Image? = images.first { $0 != nil } ?? nil
        for image in images {
            if let image { last = image }
            if let last { frames.append(last) }
        }
        return (frames, all)
    }
}

extension ImageManager {
    /// Loads every URL at once and returns their results in the order of `urls`.
    public func loadImages(
        _ urls: [URL], options: ImageLoadOptions = [], context: ImageLoadContext? = nil
    ) async -> [Result<ImageLoadResult, ImageLoadError>] {
        await withTaskGroup(of: (Int, Result<ImageLoadResult, ImageLoadError>).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    // Assigned, then returned: with Swift 6.3, `return (index, .success(try await …))` inside
                    // `do throws(ImageLoadError)` here handed the group a corrupt value (an index out of range).
                    let result: Result<ImageLoadResult, ImageLoadError>
                    do throws(ImageLoadError) {
                        result = .success(try await self.loadImage(from: url, options: options, context: context))
                    } catch {
                        result = .failure(error)
                    }
                    return (index, result)
                }
            }
            var results = [Result<ImageLoadResult, ImageLoadError>?](repeating: nil, count: urls.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0 ?? .failure(.cancelled(nil)) }
        }
    }
}
