import WebImageKit

/// thumbor's `brightness(amount)` and `rgb(r, g, b)`: `255 × amount / 100` (integer division) added to each
/// colour channel, clamped to 0…255; alpha kept. Amounts are −100…100.
struct ChannelOffset: Sendable, Hashable {
    /// The red amount, −100…100.
    let red: Int
    /// The green amount.
    let green: Int
    /// The blue amount.
    let blue: Int

    /// The same pixels, each channel shifted.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        guard red != 0 || green != 0 || blue != 0 else { return pixels }
        func table(_ amount: Int) -> [UInt8] {
            let delta = 255 * amount / 100
            return UInt8.table { $0 + delta }
        }
        return pixels.mappingChannels(red: table(red), green: table(green), blue: table(blue))
    }
}
