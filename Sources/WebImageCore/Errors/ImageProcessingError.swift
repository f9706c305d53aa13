public import Foundation
/// The error a transformer throws when its parameters make no sense for the image it is given.
public struct ImageProcessingError: Error, Sendable, CustomStringConvertible {
    /// The transformer's key, such as `crop(0,0,10x10)`.
    public let transformerKey: String
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(transformerKey: String, _ message: String) {
        self.transformerKey = transformerKey
        self.message = message
    }

    public var description: String { "\(transformerKey): \(message)" }
}

extension ImageProcessingError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
