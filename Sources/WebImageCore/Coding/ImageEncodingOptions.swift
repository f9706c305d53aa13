/// How an encoder should encode.
public struct ImageEncodingOptions: Hashable, Sendable {
    /// Quality for lossy formats, from 0 (smallest) to 1 (best). Default 0.9.
    public var quality: Double
    /// Use the format's lossless mode where it has one (WebP, AVIF); PNG and GIF are always lossless.
    public var lossless: Bool
    /// Write only the first frame of an animation.
    public var firstFrameOnly: Bool
    /// Write the format's progressive layout, coarse first and refined later: a progressive JPEG instead of a
    /// baseline one, an interlaced (Adam7) PNG instead of a sequential one. Other formats ignore it.
    public var progressive: Bool
    /// How hard the encoder works for a smaller file, from 0 (fastest) to 1 (smallest); `nil` keeps each
    /// encoder's own default. Mapped to WebP's method 0–6, AVIF's speed 10–0, HEIC's and JPEG XL's effort.
    public var effort: Double?
    /// Write PNG as an 8-bit palette image of at most this many colours (2–256), quantized as GIF is; pixels
    /// with alpha below 128 become one transparent entry. `nil` (the default) writes full colour.
    public var paletteColors: Int?

    /// Creates options; the defaults encode every frame, lossy at quality 0.9, baseline JPEG, full-colour PNG.
    public init(
        quality: Double = 0.9, lossless: Bool = false, firstFrameOnly: Bool = false, progressive: Bool = false,
        effort: Double? = nil, paletteColors: Int? = nil
    ) {
        self.quality = min(max(quality, 0), 1)
        self.lossless = lossless
        self.firstFrameOnly = firstFrameOnly
        self.progressive = progressive
        self.effort = effort.map { min(max($0, 0), 1) }
        self.paletteColors = paletteColors.map { min(max($0, 2), 256) }
    }

    /// ``quality`` on the 0–100 scale the C libraries use, rounded.
    public var qualityPercent: Int { Int((quality * 100).rounded()) }

    /// ``effort`` on an encoder's integer scale `range` (low is fast), or `nil` when it is not set.
    package func effort(in range: ClosedRange<Int>) -> Int? {
        effort.map { range.lowerBound + Int((Double(range.upperBound - range.lowerBound) * $0).rounded()) }
    }
}
