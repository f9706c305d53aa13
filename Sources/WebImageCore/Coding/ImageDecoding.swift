public import Foundation

/// Decodes encoded bytes into an ``Image``.
///
/// Threading contract: a decoder is `Sendable` and stateless, so one instance may decode on many
/// threads at once. Decoding is CPU-bound and synchronous; callers run it off any event loop.
/// Bad input never crashes: implementations check dimensions against
/// ``ImageDecodingOptions/maximumPixelCount`` before allocating, and throw ``ImageCodingError``.
public protocol ImageDecoding: Sendable {
    /// Whether this decoder recognises the data (usually by its leading bytes); cheap, reads no more than a header.
    func canDecode(_ data: Data) -> Bool
    /// Decodes the data; throws ``ImageCodingError`` when it is corrupt, truncated, too large or unsupported.
    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image
}

/// Encodes an ``Image`` into bytes of a given format.
///
/// Threading contract: the same as ``ImageDecoding``.
public protocol ImageEncoding: Sendable {
    /// Whether this encoder can write `format`.
    func canEncode(to format: ImageFormat) -> Bool
    /// Encodes the image; throws ``ImageCodingError`` with code `.encodingFailed` when it cannot.
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data
}

/// A coder that both decodes and encodes, the unit ``ImageCodersManager`` holds.
/// A decode-only coder returns `false` from ``ImageEncoding/canEncode(to:)``.
public typealias ImageCoding = ImageDecoding & ImageEncoding

extension ImageDecoding {
    /// Decodes with the default options.
    public func decode(_ data: Data) throws -> Image {
        try decode(data, options: ImageDecodingOptions())
    }
}

extension ImageEncoding {
    /// Encodes with the default options.
    public func encode(_ image: Image, as format: ImageFormat) throws -> Data {
        try encode(image, as: format, options: ImageEncodingOptions())
    }
}
