/// How the stored pixels must be turned to be shown upright: the EXIF/TIFF `Orientation` tag (values 1–8).
///
/// Decoders report the orientation the file declares and leave the pixels as stored, unless
/// ``ImageDecodingOptions/applyOrientation`` asks them to turn the pixels upright (the result then says `.up`).
/// The names follow UIKit's `UIImage.Orientation` (1 Up, 2 UpMirrored, 3 Down,
/// 4 DownMirrored, 5 LeftMirrored, 6 Right, 7 RightMirrored, 8 Left).
public enum ImageOrientation: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// EXIF 1: stored upright.
    case up = 1
    /// EXIF 2: mirrored left to right.
    case upMirrored = 2
    /// EXIF 3: rotated 180°.
    case down = 3
    /// EXIF 4: mirrored top to bottom.
    case downMirrored = 4
    /// EXIF 5: mirrored along the top-left/bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// EXIF 6: must be rotated 90° clockwise to be upright.
    case right = 6
    /// EXIF 7: mirrored along the top-right/bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// EXIF 8: must be rotated 90° counter-clockwise to be upright.
    case left = 8

    /// The orientation for an EXIF value; anything outside 1–8 is `.up`, as viewers treat it.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }

    /// The EXIF/TIFF tag value, 1–8.
    public var exifValue: Int { rawValue }

    /// Whether showing the image upright swaps its width and height.
    public var swapsDimensions: Bool {
        switch self {
        case .leftMirrored, .right, .rightMirrored, .left: true
        case .up, .upMirrored, .down, .downMirrored: false
        }
    }

    public var description: String {
        switch self {
        case .up: "up"
        case .upMirrored: "up-mirrored"
        case .down: "down"
        case .downMirrored: "down-mirrored"
        case .leftMirrored: "left-mirrored"
        case .right: "right"
        case .rightMirrored: "right-mirrored"
        case .left: "left"
        }
    }
}
