import Foundation

extension GIFCoder: ProgressiveImageDecoding {
    /// A fresh incremental decoder for one download: it returns the frames completely received so
    /// far (see `ProgressiveDecoder`), with the options applied as in a one-shot decode.
    public func makeProgressiveDecoder(options: ImageDecodingOptions) -> any ProgressiveDecoder {
        GIFProgressiveDecoder(options: options)
    }
}

/// Decodes one GIF from a growing prefix of its bytes: the frames completely received so far.
///
/// The result is nil until the first frame is complete; after that each call gives the frames
/// received so far, composited exactly as the final image's frames at the same index (a single frame
/// has a zero duration, as in a one-shot decode). Once the trailer is read (or the options need no
/// more frames) ``isComplete`` is true and the result equals ``GIFCoder/decode(_:options:)``.
///
/// Cost: incremental at record granularity. The walk keeps its canvas, frames and stream position
/// after the last complete record; each call re-opens giflib on the header (a few hundred bytes at
/// most), jumps to that position and continues. Only a frame whose data was cut by the end of the
/// bytes is decoded again from its start in the next call (its partial work is dropped). A call that
/// adds no bytes, or no complete frame, returns the previous image without building a new one.
///
/// The data must grow by appending; a shorter `dataSoFar` than last time starts over from scratch.
final class GIFProgressiveDecoder: ProgressiveDecoder {
    private let options: ImageDecodingOptions
    private var walk: GIFWalk?
    private var lastByteCount = 0
    private var lastFrameCount = 0
    private var lastImage: Image?
    private var failure: (any Error)?

    private(set) var isComplete = false

    init(options: ImageDecodingOptions) {
        self.options = options
    }

    func decode(_ dataSoFar: Data) throws -> Image? {
        if let failure { throw failure }
        if dataSoFar.count == lastByteCount { return lastImage }
        if dataSoFar.count < lastByteCount {
            walk = nil
            lastFrameCount = 0
            lastImage = nil
            isComplete = false
        }
        lastByteCount = dataSoFar.count
        do {
            lastImage = try decodeMore(dataSoFar)
            return lastImage
        } catch {
            failure = error
            walk = nil
            throw error
        }
    }

    private func decodeMore(_ data: Data) throws -> Image? {
        if !isComplete {
            try GIFLib.continueWalk(&walk, over: data, options: options, stopAtEnd: true)
        }
        guard let walk else { return nil }
        isComplete = walk.isFinished
        guard !walk.frames.isEmpty else {
            if isComplete { throw ImageCodingError(.corruptData, format: .gif, "the file holds no image") }
            return nil
        }
        // Nothing new to show: keep the previous image (a completed walk still gets the new data).
        if walk.frames.count == lastFrameCount && !isComplete { return lastImage }
        lastFrameCount = walk.frames.count
        var frames = walk.frames
        if frames.count == 1 { frames[0].duration = .zero }
        return options.makeImage(frames: frames, format: .gif, loopCount: walk.loopCount, data: data)
    }
}
