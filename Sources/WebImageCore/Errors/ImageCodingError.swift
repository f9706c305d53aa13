public import Foundation
/// The error every built-in coder throws: what went wrong, for which format, and why.
///
/// Decoders never crash and never allocate without bound on bad input; they throw this instead.
/// Match on ``code``; the message is for people.
///
/// ```swift
/// do {
///     _ = try coders.decode(data)
/// } catch let error as ImageCodingError where error.code == .imageTooLarge {
///     // the header claimed more pixels than the limit allows
/// }
/// ```
public struct ImageCodingError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; an extensible set of values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier for the code, such as `"corruptData"`.
        public let rawValue: String

        /// Creates a code; custom coders may define their own.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// No registered coder recognises the data, or the coder does not handle this format.
        public static let unsupportedFormat = Code("unsupportedFormat")
        /// The data is not a valid image of its format.
        public static let corruptData = Code("corruptData")
        /// The data ends before the image is complete.
        public static let truncatedData = Code("truncatedData")
        /// Reading the image's bytes from its file failed part way (an I/O error; the message names it).
        public static let readFailed = Code("readFailed")
        /// The image has more pixels than the configured maximum (checked before any pixel memory is allocated).
        public static let imageTooLarge = Code("imageTooLarge")
        /// An animation's decoded frames together would exceed ``ImageDecodingOptions/maximumAnimationByteCount``.
        public static let animationTooLarge = Code("animationTooLarge")
        /// The image declares a width or height of zero, or one that cannot be represented.
        public static let invalidDimensions = Code("invalidDimensions")
        /// The encoder failed or no coder can write the requested format.
        public static let encodingFailed = Code("encodingFailed")
    }

    /// What kind of failure this is.
    public let code: Code
    /// The format of the data being decoded or encoded (`.unknown` when it could not be detected).
    public let format: ImageFormat
    /// A human-readable explanation, often the C library's own message.
    public let message: String
    /// The error that caused this one, if any.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, format: ImageFormat, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.format = format
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        var text = format == .unknown ? "\(code): \(message)" : "\(format.displayName) \(code): \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

extension ImageCodingError {
    /// The error for an image whose header claims more pixels than `limit`.
    public static func tooLarge(_ format: ImageFormat, width: Int, height: Int, limit: Int) -> ImageCodingError {
        ImageCodingError(.imageTooLarge, format: format, "\(width)×\(height) pixels exceeds the limit of \(limit) pixels")
    }

    /// Throws unless `width × height` is positive and within `limit`; call it before allocating pixels.
    public static func checkDimensions(_ format: ImageFormat, width: Int, height: Int, limit: Int) throws(ImageCodingError) {
        guard width > 0, height > 0 else {
            throw ImageCodingError(.invalidDimensions, format: format, "invalid dimensions \(width)×\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limit, width <= PixelBuffer.maximumSide, height <= PixelBuffer.maximumSide else {
            throw tooLarge(format, width: width, height: height, limit: limit)
        }
    }
}

extension ImageCodingError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
