public import Foundation

/// The metadata blocks of an image file that describe it rather than its pixels: EXIF, XMP and IPTC.
///
/// Decoders fill ``Image/metadata`` with it when ``ImageDecodingOptions/keepsMetadata`` asks; encoders
/// write back the blocks their format can hold (see `docs/LIBRARY.md` for the table). The colour profile
/// is not here: it changes how the pixels read, so it travels in ``Image/iccProfile``.
///
/// ```swift
/// let image = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(keepsMetadata: true))
/// let copy = try ImageCodersManager.shared.encode(image, as: .jpeg, options: ImageEncodingOptions()) // EXIF, XMP, IPTC kept
/// ```
public struct ImageMetadata: Hashable, Sendable {
    /// The EXIF block as a TIFF structure (starting `II*\0` or `MM\0*`, without JPEG's `Exif\0\0` prefix).
    /// Encoders set its orientation tag to the image's ``Image/orientation``, so it always matches the pixels.
    public var exif: Data?
    /// The XMP packet (XML, UTF-8).
    public var xmp: Data?
    /// The IPTC-IIM records (the dataset bytes, as JPEG stores them in Photoshop's resource 0x0404).
    public var iptc: Data?

    /// Creates metadata from its blocks; empty blocks count as absent.
    public init(exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil) {
        self.exif = exif?.isEmpty == false ? exif : nil
        self.xmp = xmp?.isEmpty == false ? xmp : nil
        self.iptc = iptc?.isEmpty == false ? iptc : nil
    }

    /// Whether no block is present.
    package var isEmpty: Bool { exif == nil && xmp == nil && iptc == nil }
}
