public import Foundation
/// The error a transformer throws when its parameters make no sense for the image it is given, or when
/// its result would exceed the pixel limit.
public struct ImageProcessingError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; an extensible set of values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier for the code, such as `"outputTooLarge"`.
        public let rawValue: String

        /// Creates a code; custom transformers may define their own.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// The transformer's parameters do not fit the image (a crop outside it, a negative radius…).
        public static let invalidParameters = Code("invalidParameters")
        /// The result would have more pixels than the transformer's `maximumPixelCount` (checked before
        /// any pixel memory is allocated).
        public static let outputTooLarge = Code("outputTooLarge")
    }

    /// What kind of failure this is.
    public let code: Code
    /// The transformer's key, such as `crop(0,0,10x10)`.
    public let transformerKey: String
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(_ code: Code = .invalidParameters, transformerKey: String, _ message: String) {
        self.code = code
        self.transformerKey = transformerKey
        self.message = message
    }

    public var description: String { "\(transformerKey): \(message)" }
}

extension ImageProcessingError {
    /// Throws ``Code/outputTooLarge`` unless a `width × height` result is within `limit` pixels and
    /// ``PixelBuffer/maximumSide``; transformers call it before allocating a result that may be larger
    /// than their input. Takes `Double`s so that sizes too large for `Int` are refused, not trapped on.
    public static func checkOutputSize(
        width: Double, height: Double, limit: Int, transformerKey: String
    ) throws(ImageProcessingError) {
        let side = Double(PixelBuffer.maximumSide)
        guard width * height > Double(limit) || width > side || height > side else { return }
        let size = width * height < 1e15 ? "\(Int(width))×\(Int(height)) pixels" : "the result"
        throw ImageProcessingError(
            .outputTooLarge, transformerKey: transformerKey, "\(size) would exceed the limit of \(limit) pixels")
    }
}

extension ImageProcessingError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
