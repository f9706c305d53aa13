public import Foundation

/// A registry of coders that is itself a coder; the coder added last that accepts the data wins.
///
/// Each call walks the coders from the last registered to the first and hands the work to the first
/// one that can handle it, so a coder added later overrides the built-in one for the same format.
/// Adding and removing are thread-safe and may happen while other threads decode.
///
/// ```swift
/// let coders = ImageCodersManager.shared          // every built-in coder (WebImageCoders)
/// coders.add(MyHEICCoder())                       // now wins for the data it accepts
/// let image = try coders.decode(data)
/// ```
public final class ImageCodersManager: ImageDecoding, ImageEncoding {
    private let state: LockedValue<[any ImageCoding]>

    /// Creates a registry holding `coders`, the last with the highest priority.
    public init(coders: [any ImageCoding] = []) {
        state = LockedValue(coders)
    }

    /// The registered coders, highest priority first (the reverse of the order they were added in, as in SDWebImage).
    public var coders: [any ImageCoding] {
        state.withLock { Array($0.reversed()) }
    }

    /// Registers a coder with the highest priority.
    public func add(_ coder: any ImageCoding) {
        state.withLock { $0.append(coder) }
    }

    /// Removes every registered coder of the same type as `coder`.
    public func remove(_ coder: any ImageCoding) {
        let type = ObjectIdentifier(Swift.type(of: coder))
        state.withLock { coders in coders.removeAll { ObjectIdentifier(Swift.type(of: $0)) == type } }
    }

    /// The highest-priority coder that can decode `data`, if any.
    public func decoder(for data: Data) -> (any ImageDecoding)? {
        coders.first { $0.canDecode(data) }
    }

    /// A fresh progressive decoder for one download of `data` (the bytes received so far) from the
    /// highest-priority coder that decodes it incrementally, or `nil` when none does.
    public func makeProgressiveDecoder(for data: Data, options: ImageDecodingOptions) -> (any ProgressiveDecoder)? {
        for coder in coders {
            if let progressive = coder as? any ProgressiveImageDecoding, progressive.canDecodeIncrementally(data) {
                return progressive.makeProgressiveDecoder(options: options)
            }
        }
        return nil
    }

    /// The highest-priority coder that can encode to `format`, if any.
    public func encoder(for format: ImageFormat) -> (any ImageEncoding)? {
        coders.first { $0.canEncode(to: format) }
    }

    public func canDecode(_ data: Data) -> Bool {
        decoder(for: data) != nil
    }

    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard let decoder = decoder(for: data) else {
            let format = ImageFormat(detecting: data)
            let reason = data.isEmpty ? "the data is empty"
                : format == .unknown ? "the data matches no known image format"
                : "no registered coder decodes \(format.displayName) data"
            throw ImageCodingError(.unsupportedFormat, format: format, reason)
        }
        return try decoder.decode(data, options: options)
    }

    /// The format to store `image` in when the caller has no preference (SDWebImage 5's rule):
    /// the image's own format when it can be written and keeps what the image has (alpha, frames), then
    /// GIF for an animation, PNG for an image with alpha, JPEG otherwise. AVIF is not kept: its encoder
    /// takes far longer than the others.
    public func preferredFormat(for image: Image) -> ImageFormat {
        let own = image.format
        let keepsAlpha: Set<ImageFormat> = [.png, .webp, .gif]
        let keepsFrames: Set<ImageFormat> = [.gif, .webp]
        if own != .unknown, own != .avif, canEncode(to: own),
           !image.hasAlpha || keepsAlpha.contains(own), !image.isAnimated || keepsFrames.contains(own) {
            return own
        }
        if image.isAnimated { return .gif }
        return image.hasAlpha ? .png : .jpeg
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        encoder(for: format) != nil
    }

    /// Encodes through the highest-priority coder for `format`. `.unknown` means "pick for me"
    /// (``preferredFormat(for:)``).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        let format = format == .unknown ? preferredFormat(for: image) : format
        guard let encoder = encoder(for: format) else {
            throw ImageCodingError(.unsupportedFormat, format: format, "no registered coder encodes \(format.displayName)")
        }
        return try encoder.encode(image, as: format, options: options)
    }
}

extension ImageCodersManager: Hashable {
    /// Registries are equal only when they are the same object.
    public static func == (lhs: ImageCodersManager, rhs: ImageCodersManager) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
