package import WebImageKit

extension ConversionSettings {
    /// The decoding options with a leading `resize` folded into the decode as a thumbnail size, so the
    /// decoder shrinks while decoding (JPEG at `M`/8, rows resampled band by band for JPEG and PNG) and the
    /// full-size pixels never exist (issue 15), as `vipsthumbnail` does.
    ///
    /// Only a first transformer that is an `ImageTransformers.Resize` in `fit` or `stretch` mode, with the
    /// default Lanczos-3 filter and without `upscale`, is folded, and only when the pixels are turned upright
    /// while decoding and no `--thumbnail` was given: then the thumbnail bounds are exactly the resize's
    /// bounds on the upright image, and the resize that still runs afterwards finds nothing left to do.
    /// A PNG result is the same pixels as resizing the full decode; a JPEG one comes from libjpeg's scaled
    /// IDCT, within rounding of it.
    package var decodingFoldingLeadingResize: ImageDecodingOptions {
        var options = decoding
        guard options.thumbnailPixelSize == nil, options.applyOrientation, let resize = leadingResize,
              resize.filter == .lanczos3, !resize.upscale, resize.mode != .fill else { return options }
        options.thumbnailPixelSize = resize.size
        options.thumbnailMode = resize.mode == .fit ? .fit : .stretch
        return options
    }

    private var leadingResize: ImageTransformers.Resize? {
        if let resize = transformer as? ImageTransformers.Resize { return resize }
        return (transformer as? ImageTransformers.Pipeline)?.transformers.first as? ImageTransformers.Resize
    }
}
