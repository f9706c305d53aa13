extension ImageDecodingOptions {
    /// The size the frames of an image stored at `size` come out at under the thumbnail, scale-down and
    /// orientation options: what ``makeImage(frames:format:orientation:loopCount:data:sourceSize:)`` gives.
    package func finishedFrameSize(for size: PixelSize, orientation: ImageOrientation) -> PixelSize {
        let target = targetSize(for: size, orientation: orientation) ?? size
        return applyOrientation && orientation.swapsDimensions ? PixelSize(width: target.height, height: target.width) : target
    }

    /// One frame as ``makeImage(frames:format:orientation:loopCount:data:sourceSize:)`` would put it in
    /// the image: resampled to the thumbnail or scale-down size, turned upright with ``applyOrientation``.
    /// For frame-by-frame sources, so that their frames equal a full decode's.
    package func finishFrame(_ pixels: PixelBuffer, orientation: ImageOrientation) -> PixelBuffer {
        var pixels = pixels
        if let target = targetSize(for: pixels.size, orientation: orientation), target != pixels.size {
            pixels = Resampler.resize(pixels, to: target)
        }
        return applyOrientation ? pixels.applyingOrientation(orientation) : pixels
    }
}
