public import Foundation
/// The error ``ImageCache`` stores throw: the image could not be turned into bytes, or the disk write failed.
public struct ImageCacheError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; an extensible set of values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier, such as `"diskFailed"`.
        public let rawValue: String
        /// Creates a code.
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// Encoding the image for the disk failed (no coder, or the coder threw).
        public static let encodingFailed = Code("encodingFailed")
        /// The disk cache failed; ``ImageCacheError/underlying`` is the ``DiskCacheError``.
        public static let diskFailed = Code("diskFailed")
    }

    /// What kind of failure this is.
    public let code: Code
    /// The key being stored.
    public let key: String
    /// The cause: a ``DiskCacheError`` or an `ImageCodingError`.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    init(_ code: Code, key: String, underlying: (any Error & Sendable)?) {
        self.code = code
        self.key = key
        self.underlying = underlying
    }

    /// The code, the key and the cause.
    public var description: String {
        "\(code) storing \(key)" + (underlying.map { ": \($0)" } ?? "")
    }

}

extension ImageCacheError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
