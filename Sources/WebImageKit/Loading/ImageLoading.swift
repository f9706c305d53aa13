public import Foundation
public import WebImageCore

/// Something that turns a URL into a decoded image: the HTTP downloader, or a loader for another scheme.
///
/// Threading contract: implementations are `Sendable`; ``load(_:options:decoding:progress:)`` may be
/// called from any task, must not decode on an event loop, and treats task cancellation as the
/// caller leaving (it throws ``ImageDownloadError/Code/cancelled``).
///
/// ```swift
/// let loaders = ImageLoaderRegistry(loaders: [downloader, FileImageLoader(), DataURLImageLoader()])
/// let result = try await loaders.load(URL(string: "data:image/png;base64,iVBORw0…")!)
/// ```
public protocol ImageLoading: Sendable {
    /// Whether this loader handles `url` (usually decided by its scheme); cheap and synchronous.
    func canLoad(_ url: URL) -> Bool

    /// Loads and decodes the image at `url`.
    /// - Parameters:
    ///   - url: A URL for which ``canLoad(_:)`` is true.
    ///   - options: Per-request flags; loaders ignore the ones that mean nothing to them.
    ///   - decoding: How to decode.
    ///   - progress: Called as bytes arrive, if the loader can tell.
    /// - Throws: ``ImageDownloadError``.
    func load(
        _ url: URL,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadResult

    /// Loads like ``load(_:options:decoding:progress:)`` and, with ``DownloadOptions/progressiveLoad``,
    /// hands partial images to `partial` while bytes arrive. The default ignores `partial`.
    func load(
        _ url: URL,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?,
        partial: (@Sendable (Image) -> Void)?
    ) async throws -> DownloadResult

    /// Loads `url` only if it changed since `validators` were stored (a conditional request); the
    /// default, for loaders without validators, always loads and answers ``RevalidationResult/modified(_:)``.
    func revalidate(
        _ url: URL,
        validators: Validators,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> RevalidationResult
}

extension ImageLoading {
    /// Loads with default options and no progress callback.
    public func load(_ url: URL) async throws -> DownloadResult {
        try await load(url, options: [], decoding: .init(), progress: nil)
    }

    public func load(
        _ url: URL,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?,
        partial: (@Sendable (Image) -> Void)?
    ) async throws -> DownloadResult {
        try await load(url, options: options, decoding: decoding, progress: progress)
    }

    public func revalidate(
        _ url: URL,
        validators: Validators,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> RevalidationResult {
        .modified(try await load(url, options: options, decoding: decoding, progress: progress))
    }
}

extension ImageDownloader: ImageLoading {
    /// `http` and `https` URLs with a host.
    public func canLoad(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host else { return false }
        return (scheme == "http" || scheme == "https") && !host.isEmpty
    }

    /// The same as ``image(for:options:decoding:progress:partial:)``.
    public func load(
        _ url: URL,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadResult {
        try await image(for: url, options: options, decoding: decoding, progress: progress)
    }

    /// The same as ``image(for:options:decoding:progress:partial:)``.
    public func load(
        _ url: URL,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?,
        partial: (@Sendable (Image) -> Void)?
    ) async throws -> DownloadResult {
        try await image(for: url, options: options, decoding: decoding, progress: progress, partial: partial)
    }
}

/// A list of loaders that is itself a loader: each URL goes to the last-added loader that can load it,
/// as `ImageCodersManager` does for coders.
public struct ImageLoaderRegistry: ImageLoading {
    /// The loaders, lowest priority first.
    public var loaders: [any ImageLoading]

    /// Creates a registry; later loaders win over earlier ones for the URLs both accept.
    public init(loaders: [any ImageLoading]) {
        self.loaders = loaders
    }

    /// Whether any loader handles `url`.
    public func canLoad(_ url: URL) -> Bool {
        loaders.contains { $0.canLoad(url) }
    }

    /// Loads through the last-added loader that handles `url`; fails with ``ImageDownloadError/Code/invalidURL`` when none does.
    public func load(
        _ url: URL,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadResult {
        try await loader(for: url).load(url, options: options, decoding: decoding, progress: progress)
    }

    /// Loads through the last-added loader that handles `url`, passing partial images on.
    public func load(
        _ url: URL,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?,
        partial: (@Sendable (Image) -> Void)?
    ) async throws -> DownloadResult {
        try await loader(for: url).load(url, options: options, decoding: decoding, progress: progress, partial: partial)
    }

    /// Revalidates through the last-added loader that handles `url`.
    public func revalidate(
        _ url: URL,
        validators: Validators,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> RevalidationResult {
        try await loader(for: url).revalidate(
            url, validators: validators, options: options, decoding: decoding, progress: progress)
    }

    private func loader(for url: URL) throws(ImageDownloadError) -> any ImageLoading {
        guard let loader = loaders.last(where: { $0.canLoad(url) }) else {
            throw ImageDownloadError(.invalidURL, "no loader handles \(url.scheme ?? "scheme-less") URLs")
        }
        return loader
    }
}
