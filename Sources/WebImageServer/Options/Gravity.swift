/// Where imgproxy's crops and fills anchor (the `gravity` option and the gravity argument of `crop`).
public struct Gravity: Sendable, Hashable, Encodable {
    /// The anchor: an edge, a corner, the centre, smart (by entropy) or a focus point.
    public enum Anchor: String, Sendable, Hashable, Encodable, CaseIterable {
        /// The centre (`ce`).
        case center = "ce"
        /// The top edge (`no`).
        case north = "no"
        /// The bottom edge (`so`).
        case south = "so"
        /// The right edge (`ea`).
        case east = "ea"
        /// The left edge (`we`).
        case west = "we"
        /// The top-right corner (`noea`).
        case northEast = "noea"
        /// The top-left corner (`nowe`).
        case northWest = "nowe"
        /// The bottom-right corner (`soea`).
        case southEast = "soea"
        /// The bottom-left corner (`sowe`).
        case southWest = "sowe"
        /// The most interesting region, found by entropy (`sm`); takes no offsets.
        case smart = "sm"
        /// A focus point given as two fractions of the width and height (`fp:x:y`).
        case focusPoint = "fp"
    }

    /// The anchor.
    public var anchor: Anchor
    /// The horizontal offset: absolute pixels when ≥ 1, a fraction of the width below 1 (for ``Anchor/focusPoint``, 0…1).
    public var xOffset: Double
    /// The vertical offset: absolute pixels when ≥ 1, a fraction of the height below 1 (for ``Anchor/focusPoint``, 0…1).
    public var yOffset: Double

    /// Creates a gravity; imgproxy's default is the centre without offsets.
    public init(_ anchor: Anchor = .center, xOffset: Double = 0, yOffset: Double = 0) {
        self.anchor = anchor
        self.xOffset = xOffset
        self.yOffset = yOffset
    }
}
