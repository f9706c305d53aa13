package import WebImageKit

extension ImageFormat {
    /// Whether files of this format can hold transparency (GIF only as on/off per pixel).
    package var holdsAlpha: Bool { self != .jpeg }

    /// Whether the built-in encoder for this format writes every frame of an animation.
    package var holdsAnimation: Bool { self == .gif || self == .webp || self == .avif || self == .jpegXL }

    /// Whether the format has a lossless mode `--lossless` can ask for (PNG is never lossy; JPEG has none,
    /// GIF keeps at most 256 colours, and HEIC is written lossy only).
    package var acceptsLossless: Bool { self == .png || self == .webp || self == .avif || self == .jpegXL }
}
