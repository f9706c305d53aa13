import Foundation
public import WebImageCore

extension PNGCoder: ProgressiveImageDecoding {
    /// A decoder that shows a PNG while it downloads, through libpng's progressive (push) reader.
    public func makeProgressiveDecoder(options: ImageDecodingOptions) -> any ProgressiveDecoder {
        PNGProgressiveDecoder(options: options)
    }
}

/// Decodes a PNG from a growing prefix of its bytes with libpng's push reader (`png_process_data`).
///
/// Each call pushes only the bytes that are new since the last call, so every row is decoded once;
/// the cost of a call is those bytes plus one copy of the canvas into the returned image (skipped,
/// returning the previous image, when no new row arrived). Partial images are full size: rows not
/// yet received are transparent. An Adam7 image refines pass by pass, each pass's pixels filling the
/// block they stand for (libpng's "blocky" display), so the first pass already gives a coarse
/// preview of the whole (received part of the) image. `nil` until the first row is decoded.
///
/// At IEND the image equals ``PNGCoder/decode(_:options:)`` of the same bytes.
///
/// An animated PNG first shows its default image (the IDAT image) row by row as above; once its
/// first frame's data is complete (the next `fcTL` has arrived) the partial image holds the frames
/// received so far, composited. Those are decoded afresh each time a frame completes (no work on
/// calls that complete none), a cost that grows with the number of frames; at IEND the image is the
/// one-shot APNG decode of the whole file.
final class PNGProgressiveDecoder: ProgressiveDecoder {
    private let options: ImageDecodingOptions
    private var reader: LibPNG.ProgressiveReader?
    /// How many bytes of the file have been pushed to the reader.
    private var pushedCount = 0
    /// Rows the reader had written when `lastImage` was made.
    private var lastRowsWritten: UInt64 = 0
    private var lastImage: Image?
    /// APNG frames in `lastImage` (0 while it shows libpng's rows of the default image).
    private var animationFrameCount = 0
    private(set) var isComplete = false

    init(options: ImageDecodingOptions) {
        self.options = options
    }

    func decode(_ dataSoFar: Data) throws -> Image? {
        // Nothing new (or, against the contract, a shorter prefix): the previous answer stands.
        guard !isComplete, dataSoFar.count > pushedCount else { return lastImage }
        let reader = try currentReader()
        try reader.push(dataSoFar.dropFirst(pushedCount), maximumPixelCount: options.maximumPixelCount)
        pushedCount = dataSoFar.count

        let progress = reader.progress
        guard let header = progress.header else { return nil }
        if progress.isComplete {
            isComplete = true
            if APNGChunkReader.isAnimated(dataSoFar) {
                lastImage = try PNGCoder().decode(dataSoFar, options: options)
            } else if let pixels = reader.pixels(hasAlpha: header.hasAlpha) {
                lastImage = makeImage(pixels, data: dataSoFar)
            }
            return lastImage
        }
        if APNGChunkReader.isAnimated(dataSoFar) {
            // Frame n's data is complete once fcTL n + 1 has arrived.
            let completeFrames = APNGChunkReader.count(of: PNGChunk.fctl, in: dataSoFar) - 1
            if completeFrames > animationFrameCount,
               let animation = try APNGDecoder.decode(dataSoFar, options: options, framesReceived: true) {
                animationFrameCount = completeFrames
                lastImage = options.makeImage(
                    frames: animation.frames, format: .png, orientation: animation.orientation,
                    loopCount: animation.loopCount, data: dataSoFar
                )
            }
            if animationFrameCount > 0 { return lastImage }
        }
        guard progress.rowsWritten > 0 else { return nil }
        if progress.rowsWritten != lastRowsWritten, let pixels = reader.pixels(hasAlpha: true) {
            lastRowsWritten = progress.rowsWritten
            lastImage = makeImage(pixels, data: dataSoFar)
        }
        return lastImage
    }

    private func currentReader() throws -> LibPNG.ProgressiveReader {
        if let reader { return reader }
        guard let reader = LibPNG.ProgressiveReader(maximumPixelCount: options.maximumPixelCount) else {
            throw ImageCodingError(.corruptData, format: .png, "out of memory creating the libpng progressive reader")
        }
        self.reader = reader
        return reader
    }

    /// The image for `pixels`; the orientation is read from the bytes (libpng's push reader skips `eXIf`).
    private func makeImage(_ pixels: PixelBuffer, data: Data) -> Image {
        let orientation = APNGChunkReader.exifOrientation(data)
        return options.makeImage(frames: [ImageFrame(pixels: pixels)], format: .png, orientation: orientation, data: data)
    }
}
