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
/// At IEND the image equals ``PNGCoder/decode(_:options:)`` of the same bytes. For an animated PNG
/// the partial images show the default image (the IDAT image) as it arrives, and the complete image
/// is the one-shot APNG decode of the whole file, frames and all.
final class PNGProgressiveDecoder: ProgressiveDecoder {
    private let options: ImageDecodingOptions
    private var reader: LibPNG.ProgressiveReader?
    /// How many bytes of the file have been pushed to the reader.
    private var pushedCount = 0
    /// Rows the reader had written when `lastImage` was made.
    private var lastRowsWritten: UInt64 = 0
    private var lastImage: Image?
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
