import Foundation
package import WebImageKit

/// What `webimage info` reports about one image: format, size, frames, timing, alpha, orientation, bytes.
package struct ImageSummary: Codable, Sendable, Equatable {
    /// Where the image came from (a path or URL), as given.
    package var source: String
    /// The detected format.
    package var format: ImageFormat
    /// The format's MIME type.
    package var mimeType: String
    /// Width in pixels, as stored.
    package var width: Int
    /// Height in pixels, as stored.
    package var height: Int
    /// The number of frames (1 for a still image).
    package var frames: Int
    /// How many times an animation plays; 0 means forever.
    package var loopCount: Int
    /// The sum of all frame durations, in milliseconds.
    package var durationMilliseconds: Int
    /// Whether any pixel may be non-opaque.
    package var hasAlpha: Bool
    /// The EXIF orientation name, such as `up` or `right`.
    package var orientation: String
    /// The size of the encoded data, in bytes.
    package var bytes: Int
    /// Bits per channel, as stored (8 for most files; 16 for deep PNGs, 10 or 12 for some AVIFs).
    package var bitDepth: Int?
    /// The colour profile: the embedded ICC profile's description, `sRGB`, or `none`.
    package var colourProfile: String?
    /// The camera that took the picture (EXIF make and model), when recorded.
    package var camera: String?
    /// When the picture was taken (EXIF, `YYYY:MM:DD HH:MM:SS`), when recorded.
    package var taken: String?
    /// What was wrong with a damaged file that decoded as far as it goes (``DecodingIssue``s, one line);
    /// `nil` for a clean file or when only the headers were read.
    package var damage: String?

    /// A summary of a still, opaque, upright image of unknown size, for readers that fill in what they learn.
    package init(source: String, format: ImageFormat, bytes: Int) {
        self.source = source
        self.format = format
        mimeType = format.mimeType
        width = 0
        height = 0
        frames = 1
        loopCount = 0
        durationMilliseconds = 0
        hasAlpha = false
        orientation = ImageOrientation.up.description
        self.bytes = bytes
    }

    /// The size in pixels, as stored.
    package var size: PixelSize {
        get { PixelSize(width: width, height: height) }
        set { (width, height) = (newValue.width, newValue.height) }
    }

    /// Summarises a decoded image and the size of the data it came from.
    package init(image: Image, byteCount: Int, source: String) {
        self.source = source
        format = image.format
        mimeType = image.format.mimeType
        width = image.pixelSize.width
        height = image.pixelSize.height
        frames = image.frames.count
        loopCount = image.loopCount
        durationMilliseconds = Int(image.totalDuration / .milliseconds(1))
        hasAlpha = image.hasAlpha
        orientation = image.orientation.description
        bytes = byteCount
        damage = image.issues.isEmpty ? nil : image.issues.oneLine
    }

    /// Adds what only the headers say: bit depth, colour profile ("none" when there is none), camera, date.
    mutating func add(_ details: ImageDetails) {
        bitDepth = details.bitDepth
        colourProfile = details.colourProfile ?? "none"
        camera = details.exif?.camera
        taken = details.exif?.taken
    }

    /// One line for people:
    /// `photo.jpg: JPEG 640×426, 1 frame, opaque, orientation up, 8-bit, profile sRGB IEC61966-2.1, camera Canon EOS R5, 34.2 KB`.
    package var line: String {
        var parts = ["\(format.displayName) \(width)×\(height)"]
        if frames > 1 {
            let loops = loopCount == 0 ? "loops forever" : loopCount == 1 ? "plays once" : "plays \(loopCount) times"
            parts.append("\(frames) frames (\(durationMilliseconds) ms, \(loops))")
        } else {
            parts.append("1 frame")
        }
        parts.append(hasAlpha ? "alpha" : "opaque")
        parts.append("orientation \(orientation)")
        if let bitDepth { parts.append("\(bitDepth)-bit") }
        if let colourProfile { parts.append("profile \(colourProfile)") }
        if let camera { parts.append("camera \(camera)") }
        if let taken { parts.append("taken \(taken)") }
        parts.append(ByteCountText.format(bytes))
        if let damage { parts.append("damaged (\(damage))") }
        return "\(source): " + parts.joined(separator: ", ")
    }
}

/// Formats byte counts for people: `512 B`, `34.2 KB`, `1.5 MB` (powers of 1000, as file managers show).
package enum ByteCountText {
    /// The count with a unit.
    package static func format(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}

extension [DecodingIssue] {
    /// The issues in one line, separated by `; `: `truncated at row 120: Premature end of JPEG file`.
    package var oneLine: String { map(\.description).joined(separator: "; ") }
}
