import Crypto
import Foundation
import WebImageKit

/// One parsed and checked image request: everything the later steps need, the result key made once.
struct ImageJob: Sendable {
    /// The URL's processing options, a negotiated format included.
    let options: ProcessingOptions
    /// The source, checked against the source policy.
    let source: URL
    /// The source URL's path, for the `Content-Disposition` file name.
    let sourcePath: String
    /// The output format asked for (by the URL or by `Accept`); nil keeps the source's when it can be written.
    let format: ImageFormat?
    /// The request headers the answer depends on (`Vary`): `Accept` when a format is negotiated, the client hints
    /// when they are on.
    let vary: [String]
    /// The result's key: a digest of the source, every option that changes the bytes and the format.
    let key: String
    /// The URL's own `Cache-Control` max-age (thumbor's `max_age` filter), over the server's; nil: the server's.
    var maxAge: Int?
    /// thumbor's `meta/`: the answer is JSON about the operations rather than the image, naming the image so;
    /// nil: the image.
    var metadataImageURL: String?

    /// A job; `settings` (``ImageServerConfiguration/resultSettings``: the server settings that change results,
    /// the ETag buster among them) is part of the key, so that a result made under other settings is not served.
    init(options: ProcessingOptions, source: URL, sourcePath: String, vary: [String], settings: String = "") {
        self.options = options
        self.source = source
        self.sourcePath = sourcePath
        self.format = options.format?.imageFormat
        self.vary = vary
        self.key = Self.key(source: source.absoluteString, options: options, settings: settings)
    }

    /// Whether the result may be animated: a format that keeps animation, or the source's own.
    var keepsAnimation: Bool { format.map(ImageJob.animatedFormats.contains) ?? true }

    /// The formats whose results keep a source's animation.
    static let animatedFormats: Set<ImageFormat> = [.gif, .webp, .avif]
    /// The formats whose results keep alpha.
    static let alphaFormats: Set<ImageFormat> = [.png, .gif, .webp, .avif, .heic, .jpegXL, .tiff, .ico]

    /// The key of a result: a digest of the source URL and ``ProcessingOptions/pixelKey`` (the format included).
    static func key(source: String, options: ProcessingOptions, settings: String = "") -> String {
        var hasher = SHA256()
        hasher.update(data: Data(source.utf8))
        hasher.update(data: Data("\n\(options.pixelKey)".utf8))
        if !settings.isEmpty { hasher.update(data: Data("\n\(settings)".utf8)) }
        return Hex.encode(hasher.finalize())
    }
}

extension ProcessingOptions {
    /// Every option that changes the result's bytes, as text: the one serialization of the options, used for the
    /// result key and so the ETag. `filename`, `return_attachment` and the preset names do not change the bytes;
    /// the cache buster does, by definition.
    var pixelKey: String {
        var copy = self
        copy.filename = nil
        copy.returnAttachment = nil
        copy.presets = []
        return KeyText.of(copy)
    }
}
