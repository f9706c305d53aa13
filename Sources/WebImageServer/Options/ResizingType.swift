/// How the image is fitted into the requested width and height (imgproxy's `resizing_type`).
public enum ResizingType: String, Sendable, Hashable, Encodable, CaseIterable {
    /// Keeps the aspect ratio and fits inside the requested size.
    case fit
    /// Keeps the aspect ratio, fills the requested size and crops what projects.
    case fill
    /// Like ``fill``, but when the result would be smaller than asked, crops to the requested aspect ratio.
    case fillDown = "fill-down"
    /// Resizes to the requested size without keeping the aspect ratio.
    case force
    /// ``fill`` when source and result have the same orientation, otherwise ``fit``.
    case auto
}
