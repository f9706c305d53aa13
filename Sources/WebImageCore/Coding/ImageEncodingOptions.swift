/// How an encoder should encode.
public struct ImageEncodingOptions: Hashable, Sendable {
    /// Quality for lossy formats, from 0 (smallest) to 1 (best). Default 0.9.
    public var quality: Double
    /// Use the format's lossless mode where it has one (WebP, AVIF); PNG and GIF are always lossless.
    public var lossless: Bool
    /// Write only the first frame of an animation.
    public var firstFrameOnly: Bool
    /// Write a progressive JPEG (coarse scans first, refined by later ones) instead of a baseline one.
    public var progressive: Bool

    /// Creates options; the defaults encode every frame, lossy at quality 0.9, baseline JPEG.
    public init(quality: Double = 0.9, lossless: Bool = false, firstFrameOnly: Bool = false, progressive: Bool = false) {
        self.quality = min(max(quality, 0), 1)
        self.lossless = lossless
        self.firstFrameOnly = firstFrameOnly
        self.progressive = progressive
    }

    /// ``quality`` on the 0–100 scale the C libraries use, rounded.
    public var qualityPercent: Int { Int((quality * 100).rounded()) }
}
