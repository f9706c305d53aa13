public import Foundation

/// Something that turns a URL into bytes: the HTTP downloader, or a loader for another scheme. Loaders
/// never decode: ``ImageManager`` decodes what they return in one stage (as Nuke's data loaders do).
///
/// Threading contract: implementations are `Sendable`; ``loadData(for:options:validators:progress:)`` may be
/// called from any task and treats task cancellation as the caller leaving (it throws
/// ``ImageDownloadError/Code/cancelled``).
///
/// ```swift
/// struct BundleLoader: ImageLoading {
///     func canLoad(_ url: URL) -> Bool { url.scheme == "bundle" }
///     func loadData(
///         for url: URL, options: DownloadOptions, validators: Validators?,
///         progress: (@Sendable (DownloadProgress) -> Void)?
///     ) async throws -> DownloadedData {
///         let data = try Data(contentsOf: URL(fileURLWithPath: "/opt/app/images" + url.path))
///         return DownloadedData(data: data, response: DownloadResponse(url: url, statusCode: 200))
///     }
/// }
/// ```
public protocol ImageLoading: Sendable {
    /// Whether this loader handles `url` (usually decided by its scheme); cheap and synchronous.
    func canLoad(_ url: URL) -> Bool

    /// Loads the bytes of `url`.
    /// - Parameters:
    ///   - url: A URL for which ``canLoad(_:)`` is true.
    ///   - options: Per-request flags; loaders ignore the ones that mean nothing to them.
    ///   - validators: When not empty, a conditional load: a loader that can tell answers an unchanged
    ///     resource with ``DownloadedData/isNotModified`` (no bytes); others load as usual.
    ///   - progress: Called as bytes arrive, if the loader can tell; with ``DownloadOptions/progressiveLoad``
    ///     each value also carries the bytes so far (``DownloadProgress/data``).
    /// - Throws: ``ImageDownloadError``.
    func loadData(
        for url: URL,
        options: DownloadOptions,
        validators: Validators?,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData
}

extension ImageDownloader: ImageLoading {
    /// `http` and `https` URLs with a host.
    public func canLoad(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host else { return false }
        return (scheme == "http" || scheme == "https") && !host.isEmpty
    }

    /// The same as ``data(for:options:validators:progress:)``.
    public func loadData(
        for url: URL,
        options: DownloadOptions,
        validators: Validators?,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        try await data(for: url, options: options, validators: validators, progress: progress)
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
    public func loadData(
        for url: URL,
        options: DownloadOptions,
        validators: Validators?,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        guard let loader = loaders.last(where: { $0.canLoad(url) }) else {
            throw ImageDownloadError(.invalidURL, "no loader handles \(url.scheme ?? "scheme-less") URLs")
        }
        return try await loader.loadData(for: url, options: options, validators: validators, progress: progress)
    }
}
