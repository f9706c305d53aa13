package import Foundation
package import WebImageKit
package import WebImageCore

/// Loads a list of URLs through an ``ImageManager`` the way `webimage fetch` does: all at once (the
/// downloader keeps ``concurrency`` transfers running), through the memory and disk caches, optionally
/// writing each image to a folder; reports progress as it goes and a ``FetchReport`` at the end.
package struct FetchJob: Sendable {
    /// The URLs, in order.
    package var urls: [URL]
    /// Where to write the images; `nil` writes nothing.
    package var outputDirectory: URL?
    /// The disk cache root (`nil`: `$XDG_CACHE_HOME/webimagekit` or `~/.cache/webimagekit`).
    package var cacheRoot: URL?
    /// The disk cache namespace.
    package var namespace: String
    /// Decode thumbnails no larger than this.
    package var thumbnail: PixelSize?
    /// A transformer applied to every image.
    package var transformer: (any ImageTransforming)?
    /// Load options; ``ImageLoadOptions/waitStoreCache`` is always added so that the next run finds the images on disk.
    package var options: ImageLoadOptions
    /// Transfers at once.
    package var concurrency: Int
    /// The memory cache's limit in bytes (`nil`: the library's default).
    package var memoryCacheLimit: Int?
    /// Request headers added to (or replacing) the downloader's defaults, such as `User-Agent`.
    package var headers: [String: String] = [:]
    /// How long a request may wait for the server (`nil`: the downloader's default).
    package var timeout: Duration?
    /// How many times a transient failure (timeout, connection failure, 429, 502, 503, 504) is retried.
    package var retries = 0
    /// The most pixels an image, or a transform's result, may have.
    package var maximumPixelCount = ImageDecodingOptions.defaultMaximumPixelCount
    /// The format of the files written to ``outputDirectory`` (`nil`: the format delivered).
    package var outputFormat: ImageFormat?
    /// Whether files already in ``outputDirectory`` may be replaced.
    package var replacesExisting = false

    /// Creates a job with the defaults of `webimage fetch`.
    package init(
        urls: [URL], outputDirectory: URL? = nil, cacheRoot: URL? = nil, namespace: String = "default",
        thumbnail: PixelSize? = nil, transformer: (any ImageTransforming)? = nil, options: ImageLoadOptions = [],
        concurrency: Int = 6, memoryCacheLimit: Int? = nil
    ) {
        self.urls = urls
        self.outputDirectory = outputDirectory
        self.cacheRoot = cacheRoot
        self.namespace = namespace
        self.thumbnail = thumbnail
        self.transformer = transformer
        self.options = options
        self.concurrency = concurrency
        self.memoryCacheLimit = memoryCacheLimit
    }

    /// What happens while the job runs, for progress displays.
    package enum Event: Sendable {
        /// Loading `url` (index `index` of the list) started.
        case started(index: Int, url: URL)
        /// Bytes arrived for the item at `index`.
        case progress(index: Int, received: Int, expected: Int?)
        /// The item at `index` is done.
        case finished(index: Int, item: FetchItem)
    }

    /// Runs the job with a manager of its own (a new downloader, the cache at ``cacheRoot``/``namespace``).
    package func run(events: @escaping @Sendable (Event) -> Void = { _ in }) async throws -> FetchReport {
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = max(1, concurrency)
        configuration.headers.merge(headers) { _, given in given }
        if let timeout { configuration.timeout = timeout }
        if retries > 0 { configuration.retryPolicy = RetryPolicy(maximumAttempts: retries + 1) }
        return try await withImageDownloader(configuration: configuration) { downloader in
            let loaders = ImageLoaderRegistry(loaders: [FileImageLoader(), DataURLImageLoader(), downloader])
            var cacheConfiguration = ImageCache.Configuration()
            if let memoryCacheLimit { cacheConfiguration.memory.totalCostLimit = memoryCacheLimit }
            let cache = ImageCache(namespace: namespace, root: cacheRoot, configuration: cacheConfiguration)
            let manager = ImageManager(cache: cache, loader: loaders)
            return try await run(with: manager, events: events)
        }
    }

    /// Runs the job through `manager`.
    package func run(with manager: ImageManager, events: @escaping @Sendable (Event) -> Void = { _ in }) async throws -> FetchReport {
        if let outputDirectory { try Self.createFolder(outputDirectory, option: "--out") }
        var loadContext = ImageLoadContext()
        loadContext.thumbnailPixelSize = thumbnail
        loadContext.transformer = transformer
        if maximumPixelCount != ImageDecodingOptions.defaultMaximumPixelCount {
            loadContext.decodingOptions = ImageDecodingOptions(maximumPixelCount: maximumPixelCount)
        }
        let context = loadContext
        let options = self.options.union(.waitStoreCache)
        let clock = ContinuousClock()
        let start = clock.now
        let names = FetchOutputNames(urls: urls)
        let items = await withTaskGroup(of: (Int, FetchItem).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    events(.started(index: index, url: url))
                    let item = await load(url, index: index, manager: manager, options: options, context: context,
                                          outputName: names[index], events: events)
                    events(.finished(index: index, item: item))
                    return (index, item)
                }
            }
            var items = [FetchItem?](repeating: nil, count: urls.count)
            for await (index, item) in group { items[index] = item }
            return items.compactMap { $0 }
        }
        return FetchReport(items: items, seconds: (clock.now - start).seconds)
    }

    private func load(
        _ url: URL, index: Int, manager: ImageManager, options: ImageLoadOptions, context: ImageLoadContext,
        outputName: String, events: @escaping @Sendable (Event) -> Void
    ) async -> FetchItem {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let loaded = try await manager.loadImage(from: url, options: options, context: context) { progress in
                events(.progress(index: index, received: progress.receivedBytes, expected: progress.expectedBytes))
            }
            let elapsed = (clock.now - start).seconds * 1000
            var item = FetchItem(
                url: url.absoluteString, source: Self.source(of: loaded), format: loaded.image.format.displayName,
                width: loaded.image.pixelSize.width, height: loaded.image.pixelSize.height,
                frames: loaded.image.frames.count, bytes: loaded.cacheType == .memory ? 0 : loaded.data?.count ?? 0,
                milliseconds: elapsed, output: nil, error: nil)
            if let outputDirectory {
                let writer = FetchFileWriter(
                    directory: outputDirectory, format: outputFormat, replacesExisting: replacesExisting,
                    unchanged: thumbnail == nil && transformer == nil)
                do {
                    item.output = try writer.write(loaded, named: outputName).relativePath
                } catch {
                    item.error = error.description
                }
            }
            return item
        } catch {
            if Task.isCancelled || error.code == .cancelled {
                return FetchItem(
                    url: url.absoluteString, source: FetchItem.cancelled, format: nil, width: nil, height: nil, frames: nil,
                    bytes: 0, milliseconds: (clock.now - start).seconds * 1000, output: nil, error: "cancelled")
            }
            return FetchItem(
                url: url.absoluteString, source: "failed", format: nil, width: nil, height: nil, frames: nil, bytes: 0,
                milliseconds: (clock.now - start).seconds * 1000, output: nil,
                error: ToolError(nil, describing: error).description)
        }
    }

    /// Creates `folder` (and its parents) unless it is there; throws a ``ToolError`` naming it and `option`.
    static func createFolder(_ folder: URL, option: String) throws(ToolError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ToolError(folder.relativePath, "is a file, not a folder", remedy: "choose another \(option)")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            let reason = ToolError(nil, describing: error)
            throw ToolError(folder.relativePath, "cannot create the folder: \(reason.problem)", remedy: "choose another \(option)")
        }
    }

    /// `memory`, `disk`, or how it was loaded: `network`, `file`, `data`.
    static func source(of loaded: ImageLoadResult) -> String {
        switch loaded.cacheType {
        case .memory: "memory"
        case .disk: "disk"
        case .notCached, .all:
            switch loaded.url.scheme?.lowercased() {
            case "file": "file"
            case "data": "data"
            default: "network"
            }
        }
    }
}
