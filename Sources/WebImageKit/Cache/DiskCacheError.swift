public import Foundation
/// The error every ``DiskCache`` operation throws: what failed, on which path, and why.
///
/// Match on ``code``; ``posixErrorCode`` carries the `errno` when a system call failed, and
/// ``underlying`` the Foundation error when a `FileManager` call did.
///
/// ```swift
/// do {
///     try await cache.store(data, forKey: key)
/// } catch let error where error.code == .writeFailed {
///     // full or read-only disk: keep the image in memory only
/// }
/// ```
public struct DiskCacheError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; an extensible set of values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier for the code, such as `"writeFailed"`.
        public let rawValue: String

        /// Creates a code.
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The identifier.
        public var description: String { rawValue }

        /// The cache directory could not be created.
        public static let createDirectoryFailed = Code("createDirectoryFailed")
        /// Writing, flushing or renaming an entry's file failed; no partial entry was left behind.
        public static let writeFailed = Code("writeFailed")
        /// A file exists but could not be read.
        public static let readFailed = Code("readFailed")
        /// An entry or the directory could not be removed.
        public static let removeFailed = Code("removeFailed")
        /// The operation needs an entry that does not exist.
        public static let notFound = Code("notFound")
        /// The cache directory could not be listed.
        public static let enumerationFailed = Code("enumerationFailed")
        /// The extended data could not be stored, neither as an extended attribute nor as a sidecar file.
        public static let extendedDataFailed = Code("extendedDataFailed")
    }

    /// What kind of failure this is.
    public let code: Code
    /// The file or directory the operation was working on.
    public let path: String
    /// The `errno` value of the failing system call, if one failed.
    public let posixErrorCode: Int32?
    /// A human-readable explanation.
    public let message: String
    /// The error that caused this one (for example a `CocoaError` from `FileManager`), if any.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    init(
        _ code: Code, path: String, _ message: String,
        posixErrorCode: Int32? = nil, underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.path = path
        self.message = message
        self.posixErrorCode = posixErrorCode
        self.underlying = underlying
    }

    /// The code, the message, the path and the cause.
    public var description: String {
        var text = "\(code): \(message) (\(path))"
        if let posixErrorCode { text += " [errno \(posixErrorCode): \(POSIXFile.describe(posixErrorCode))]" }
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

extension DiskCacheError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
