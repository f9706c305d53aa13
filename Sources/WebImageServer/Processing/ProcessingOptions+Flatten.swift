import WebImageKit

extension ProcessingOptions {
    /// imgproxy's background when none is given: what a format without alpha shows under transparency.
    static let defaultBackground = RGBA.white

    /// The colour imgproxy flattens onto for an image encoded as `format`: the `background` option when
    /// set (whatever the format: imgproxy flattens whenever it is given), white when `format` cannot
    /// store alpha (JPEG), nil when the transparency is kept.
    func flattenColor(outputFormat format: ImageFormat) -> RGBA? {
        if let background { return RGBA(red: background.red, green: background.green, blue: background.blue) }
        return format == .jpeg ? Self.defaultBackground : nil
    }
}
