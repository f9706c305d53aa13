import Dispatch
import Foundation
import WebImageCore

/// Drives a decoder that produces rows top to bottom (libjpeg scanlines, libpng rows) into a finished
/// pixel buffer without ever holding the decoded image: rows are read a band at a time into a small
/// buffer and fed to a ``StreamingResampler`` that writes the output (issue 15). When the decoded size
/// already is the target, rows go straight into the output.
enum BandedDecode {
    /// The most bytes one band of decoded RGBA rows may take (at least one row is always read).
    static let bandByteBudget = 1 << 20
    /// The most rows read per band.
    static let maximumBandRows = 16
    /// From how many decoded pixels the resampling runs on a thread of its own, beside the decoder
    /// (when there is more than one core): below it, handing bands over costs more than it saves.
    static let pipelinedPixelCount = 2_000_000

    /// How many rows a band of `width`-pixel rows holds: up to ``maximumBandRows``, within ``bandByteBudget``.
    static func bandRows(forWidth width: Int) -> Int {
        max(1, min(maximumBandRows, bandByteBudget / max(1, width * PixelBuffer.bytesPerPixel)))
    }

    /// Reads every row of a `decodedSize` image through `readRows` and returns it resampled to `target`.
    ///
    /// `readRows(buffer, maximumRows)` writes up to `maximumRows` rows of `4 × decodedSize.width` bytes,
    /// without padding, at the start of `buffer` and returns how many it wrote; zero before the last row
    /// is an error. The caller has checked `decodedSize` against its pixel limit, and `target` is no
    /// larger than it on either side.
    ///
    /// `pipelined` runs the resampling on a thread of its own while the next band is read; by default
    /// from ``pipelinedPixelCount`` decoded pixels on a machine with more than one core.
    static func pixels(
        decodedSize: PixelSize, target: PixelSize, hasAlpha: Bool, format: ImageFormat, pipelined: Bool? = nil,
        readRows: (UnsafeMutableBufferPointer<UInt8>, Int) throws(ImageCodingError) -> Int
    ) throws(ImageCodingError) -> PixelBuffer {
        let rowBytes = decodedSize.width * PixelBuffer.bytesPerPixel
        if decodedSize == target {
            return try PixelBuffer(width: target.width, height: target.height, hasAlpha: hasAlpha) {
                (output: UnsafeMutableBufferPointer<UInt8>) throws(ImageCodingError) in
                var row = 0
                while row < decodedSize.height {
                    let rest = UnsafeMutableBufferPointer(rebasing: output[(row * rowBytes)...])
                    row += try readBand(into: rest, maximumRows: decodedSize.height - row, format: format, readRows)
                }
            }
        }
        let resampler = StreamingResampler(from: decodedSize, to: target, hasAlpha: hasAlpha)
        let bandRows = bandRows(forWidth: decodedSize.width)
        let pipelined = pipelined
            ?? (decodedSize.pixelCount >= pipelinedPixelCount && ProcessInfo.processInfo.activeProcessorCount > 1)
        return try PixelBuffer(width: target.width, height: target.height, hasAlpha: hasAlpha, mappingPagesBeside: !pipelined) {
            (output: UnsafeMutableBufferPointer<UInt8>) throws(ImageCodingError) in
            let worker = BandResamplingWorker(
                resampler: resampler, output: output, bandBytes: bandRows * rowBytes, rowBytes: rowBytes,
                bandCount: pipelined ? 3 : 1, concurrent: pipelined
            )
            defer { worker.finish() } // the worker holds `output`: it must be idle before the buffer is returned
            var row = 0
            while row < decodedSize.height {
                let band = worker.nextBand()
                let count = try readBand(into: band, maximumRows: min(bandRows, decodedSize.height - row), format: format, readRows)
                worker.resampleLastBand(rows: count)
                row += count
            }
            worker.finish()
            guard resampler.isComplete else {
                throw ImageCodingError(.corruptData, format: format, "the decoder ended before the last output row")
            }
        }
    }

    private static func readBand(
        into buffer: UnsafeMutableBufferPointer<UInt8>, maximumRows: Int, format: ImageFormat,
        _ readRows: (UnsafeMutableBufferPointer<UInt8>, Int) throws(ImageCodingError) -> Int
    ) throws(ImageCodingError) -> Int {
        let count = try readRows(buffer, maximumRows)
        guard count > 0, count <= maximumRows else {
            throw ImageCodingError(.corruptData, format: format, "the decoder returned \(count) rows where up to \(maximumRows) were due")
        }
        return count
    }
}

/// Hands decoded bands to a ``StreamingResampler``: in the calling thread, or (`concurrent`) on a serial
/// queue of its own, so that the decoder reads the next band while the last one is resampled. Bands are
/// used round-robin; ``nextBand()`` waits until the band it returns has been resampled.
private final class BandResamplingWorker: @unchecked Sendable {
    // Safety: `resampler`, `output` and the bands are touched by one thread at a time: the queue runs
    // one push after another, and a band goes back to the decoder only after its push has signalled
    // `freeBands`; `finish()` waits for the queue before the caller reads the resampler or the output.
    private let resampler: StreamingResampler
    private let output: UnsafeMutableBufferPointer<UInt8>
    private let bands: [UnsafeMutableBufferPointer<UInt8>]
    private let rowBytes: Int
    private let queue: DispatchQueue?
    private let freeBands: DispatchSemaphore
    private var nextIndex = 0
    /// Whether the decoder holds a band from ``nextBand()`` that it has not handed back (it failed).
    private var holdsBand = false

    init(
        resampler: StreamingResampler, output: UnsafeMutableBufferPointer<UInt8>, bandBytes: Int, rowBytes: Int,
        bandCount: Int, concurrent: Bool
    ) {
        self.resampler = resampler
        self.output = output
        self.rowBytes = rowBytes
        bands = (0..<bandCount).map { _ in .allocate(capacity: bandBytes) }
        queue = concurrent ? DispatchQueue(label: "WebImageCoders.BandedDecode") : nil
        freeBands = DispatchSemaphore(value: bandCount)
    }

    deinit {
        for band in bands { band.deallocate() }
    }

    /// The band to decode into next, once its previous rows have been resampled.
    func nextBand() -> UnsafeMutableBufferPointer<UInt8> {
        freeBands.wait()
        holdsBand = true
        defer { nextIndex += 1 }
        return bands[nextIndex % bands.count]
    }

    /// Resamples the first `rows` rows of the band ``nextBand()`` returned last, now or on the queue.
    func resampleLastBand(rows: Int) {
        let index = (nextIndex - 1) % bands.count
        holdsBand = false
        let push: @Sendable () -> Void = { [self] in
            resampler.push(rows: UnsafeRawBufferPointer(bands[index]), count: rows, stride: rowBytes, into: output)
            freeBands.signal()
        }
        if let queue { queue.async(execute: push) } else { push() }
    }

    /// Waits until every band handed over has been resampled, and takes back a band the decoder
    /// failed to fill: libdispatch traps when a semaphore is freed with fewer signals than waits.
    func finish() {
        queue?.sync {}
        if holdsBand {
            holdsBand = false
            freeBands.signal()
        }
    }
}
