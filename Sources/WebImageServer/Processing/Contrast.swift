import WebImageKit

/// thumbor's `contrast(amount)`: each colour channel's distance from 128 multiplied by `(amount + 100)² / 100`
/// percent (both divisions on integers, truncating, as thumbor's C does), clamped to 0…255; alpha kept.
/// The amount is −100…100: −100 makes every channel 128, 0 changes nothing, 100 quadruples the contrast.
struct Contrast: Sendable, Hashable {
    /// The amount, −100…100.
    let amount: Int

    /// The same pixels with the contrast changed.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        let percent = (amount + 100) * (amount + 100) / 100
        guard percent != 100 else { return pixels }
        let table = UInt8.table { percent * ($0 - 128) / 100 + 128 }
        return pixels.mappingChannels(red: table, green: table, blue: table)
    }
}
