import WebImageKit

/// thumbor's `noise(amount, seed)`: to the three colour channels of each pixel, in row order, the same value
/// `random() % amount − amount / 2` from glibc's generator seeded with `seed` (``GlibcRandom``), clamped;
/// alpha kept. The same amount and seed give the same pixels, so results can be cached.
struct Noise: Sendable, Hashable {
    /// The amount, 0…100; 0 changes nothing.
    let amount: Int
    /// The seed; 0 is glibc's default seed, 1 (thumbor does not reseed for 0, so its noise then depends on
    /// what the process drew before).
    let seed: UInt32

    /// The same pixels with noise added.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        guard amount > 0 else { return pixels }
        var random = GlibcRandom(seed: seed)
        let half = amount >> 1
        return pixels.mappingColours { red, green, blue in
            let delta = random.next() % amount - half
            return (red + delta, green + delta, blue + delta)
        }
    }
}
