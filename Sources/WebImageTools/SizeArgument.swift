package import WebImageKit

extension PixelSize {
    /// Parses the sizes the tool takes: `256x128`, or one number for a square (`256` means `256x256`).
    /// Both sides must be positive and at most ``PixelBuffer/maximumSide``; anything else gives `nil`.
    package init?(argument: String) {
        let fields = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard fields.count == 1 || fields.count == 2 else { return nil }
        let sides = fields.compactMap { Int($0) }
        guard sides.count == fields.count, sides.allSatisfy({ (1...PixelBuffer.maximumSide).contains($0) }) else { return nil }
        self.init(width: sides[0], height: sides.count == 2 ? sides[1] : sides[0])
    }
}
