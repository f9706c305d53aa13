/// The HEIF/AVIF transform properties that express an EXIF orientation: `irot` (rotation by
/// `angle × 90°` anti-clockwise, applied first) and `imir` (`mode` 0 exchanges top and bottom,
/// 1 exchanges left and right), as in ISO/IEC 23008-12 6.5.10/6.5.12 and MIAF 7.3.6.7.
///
/// The table is the one libavif uses for EXIF → irot/imir (`avifImageExtractExifOrientationToIrotImir`),
/// so files we write read back the same in libavif-based viewers and browsers.
extension ImageOrientation {
    /// The orientation that `irot` (angle 0–3, or `nil` when absent) followed by `imir` (mode 0–1, or `nil`) describes.
    init(heifRotation angle: Int?, mirror mode: Int?) {
        let turns = (angle ?? 0) & 3
        switch (turns, mode.map { $0 & 1 }) {
        case (0, nil): self = .up
        case (1, nil): self = .left
        case (2, nil): self = .down
        case (3, nil): self = .right
        case (0, 0?): self = .downMirrored
        case (0, _?): self = .upMirrored
        case (1, 0?): self = .leftMirrored
        case (1, _?): self = .rightMirrored
        case (2, 0?): self = .upMirrored
        case (2, _?): self = .downMirrored
        case (3, 0?): self = .rightMirrored
        default: self = .leftMirrored // (3, 1): turn clockwise, then exchange left and right
        }
    }

    /// The `irot` angle and `imir` mode that write this orientation; `nil` where the property is not needed.
    var heifTransform: (rotation: Int?, mirror: Int?) {
        switch self {
        case .up: (nil, nil)
        case .upMirrored: (nil, 1)
        case .down: (2, nil)
        case .downMirrored: (nil, 0)
        case .leftMirrored: (1, 0)
        case .right: (3, nil)
        case .rightMirrored: (3, 0)
        case .left: (1, nil)
        }
    }
}
