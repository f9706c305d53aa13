import CGIF
import Foundation

// The only file that talks to giflib 5.2.1. giflib reports failures as return codes (it never
// longjmps and never prints), so it is driven from Swift: bytes come from memory through a read
// callback and go to a `Data` through a write callback, both reaching their state via `UserData`.

/// The memory giflib reads from, handed over as `GifFileType.UserData`.
private struct GIFInput {
    var bytes: UnsafeRawBufferPointer
    var offset = 0
    /// Set when giflib asked for bytes past the end: the failure that follows is truncation.
    var reachedEnd = false
}

private func readInput(_ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ length: Int32) -> Int32 {
    guard let gif, let buffer, length > 0,
          let input = gif.pointee.UserData?.assumingMemoryBound(to: GIFInput.self) else { return 0 }
    let count = min(Int(length), input.pointee.bytes.count - input.pointee.offset)
    if count < Int(length) { input.pointee.reachedEnd = true }
    guard count > 0, let base = input.pointee.bytes.baseAddress else { return 0 }
    UnsafeMutableRawPointer(buffer).copyMemory(from: base + input.pointee.offset, byteCount: count)
    input.pointee.offset += count
    return Int32(count)
}

private func writeOutput(_ gif: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafePointer<GifByteType>?, _ length: Int32) -> Int32 {
    guard let gif, let bytes, length > 0,
          let output = gif.pointee.UserData?.assumingMemoryBound(to: Data.self) else { return 0 }
    output.pointee.append(bytes, count: Int(length))
    return length
}

/// A frame ready for giflib's encoder: one palette index per canvas pixel.
struct GIFIndexedFrame {
    /// `width × height` palette indices, rows top to bottom.
    var indices: [UInt8]
    /// The palette as RGB triples, at most 256 colours.
    var colors: [UInt8]
    /// The index written as transparent, if any pixel is.
    var transparentIndex: Int?
    /// The delay in centiseconds (ignored for a still image).
    var delayCentiseconds = 0
    /// The disposal method written in the Graphics Control Extension.
    var disposal = 0
}

/// What the record walk produced.
struct GIFDecodedFrames {
    var frames: [ImageFrame]
    var loopCount: Int
    /// The canvas size, when the frames were resampled to the options' target as they were read.
    var sourceSize: PixelSize?
    /// What a lenient decode let pass: a frame cut short, records dropped after a bad one.
    var issues: [DecodingIssue] = []
}

/// Where a record walk stands: everything needed to continue it after its last complete record.
struct GIFWalk {
    /// What a walk keeps of the frames it reads.
    enum Output {
        /// Every frame, in ``frames``, within the memory limit: a full or progressive decode.
        case allFrames
        /// Only the frame read last, in ``frames``: frame-by-frame decoding (``GIFFrameSource``).
        case latestFrame
        /// No pixels: image data is skipped undecoded and only ``durations`` grows (a scan).
        case durationsOnly
    }

    var output = Output.allFrames
    var canvas: GIFCanvas
    /// The size each frame is resampled to as soon as it is composited (a thumbnail or scale-down of
    /// every frame), or `nil` to keep canvas-sized frames.
    var frameTarget: PixelSize?
    /// The frames kept, as ``output`` says.
    var frames: [ImageFrame] = []
    /// How many frames the walk has read, kept or not.
    var frameCount = 0
    /// Every frame's duration (``Output/durationsOnly`` only).
    var durations: [Duration] = []
    var loopCount = 1
    /// What the extensions read so far say about the next image.
    var info = GIFFrameInfo()
    /// The input offset just after the last complete record.
    var offset: Int
    /// Whether the walk has ended: the trailer was read, or the options need no more frames.
    var isFinished = false
    /// Whether frames are resampled to ``frameTarget`` (set again when the first frame grows the canvas).
    var resizesFrames = false
    /// Whether damage ends the walk with what it has (kept in ``issues``) instead of failing it.
    var lenient = false
    /// What a lenient walk let pass.
    var issues: [DecodingIssue] = []
}

enum GIFLib {
    /// Decodes every frame (or the first) onto a full canvas, walking the records one by one. Unless the options
    /// are strict, damage ends the walk with the frames decoded so far (a frame cut short keeps its whole rows),
    /// as browsers show such files, and the result's issues say so; damage before any row still fails.
    static func decode(_ data: Data, options: ImageDecodingOptions) throws -> GIFDecodedFrames {
        var walk: GIFWalk?
        try continueWalk(&walk, over: data, options: options, stopAtEnd: false, resizesFrames: true, lenient: !options.strict)
        guard let walk, !walk.frames.isEmpty else {
            throw ImageCodingError(.corruptData, format: .gif, "the file holds no image")
        }
        let canvasSize = PixelSize(width: walk.canvas.width, height: walk.canvas.height)
        return GIFDecodedFrames(frames: walk.frames, loopCount: walk.loopCount,
                                sourceSize: walk.frameTarget == nil ? nil : canvasSize,
                                issues: walk.issues.map { $0.scalingRows(from: canvasSize.height, to: walk.frameTarget?.height ?? canvasSize.height) })
    }

    /// Continues `walk` (nil: from the start) over `data`, which must begin with the bytes the walk
    /// has already seen. With `stopAtEnd`, running out of bytes is not an error: the walk stays at
    /// its last complete record (nil while the header is incomplete), to be continued with more data.
    ///
    /// A new walk keeps frames as `output` says; the walk stops after its `frameLimit`-th frame. With
    /// `resizesFrames`, a new walk resamples each frame to the options' target size as soon as it is
    /// composited, so only the canvas is ever full-size (issue 15). A new `lenient` walk (not with `stopAtEnd`)
    /// ends at damage with what it has, recording it in ``GIFWalk/issues``.
    static func continueWalk(
        _ walk: inout GIFWalk?, over data: Data, options: ImageDecodingOptions, stopAtEnd: Bool,
        output: GIFWalk.Output = .allFrames, frameLimit: Int = .max, resizesFrames: Bool = false, lenient: Bool = false
    ) throws {
        try data.withUnsafeBytes { bytes in
            var input = GIFInput(bytes: bytes)
            try withUnsafeMutablePointer(to: &input) { input in
                var status: Int32 = 0
                guard let gif = DGifOpen(input, readInput, &status) else {
                    if stopAtEnd && input.pointee.reachedEnd { return }
                    throw failure(status, input.pointee, "cannot read the header")
                }
                defer { DGifCloseFile(gif, nil) }
                var state: GIFWalk
                if let walk {
                    state = walk
                    // giflib reads records without read-ahead, so it can resume at a record boundary.
                    input.pointee.offset = min(state.offset, bytes.count)
                } else {
                    let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
                    try ImageCodingError.checkDimensions(.gif, width: width, height: height, limit: options.maximumPixelCount)
                    state = GIFWalk(output: output, canvas: GIFCanvas(width: width, height: height), offset: input.pointee.offset)
                    state.resizesFrames = resizesFrames
                    if resizesFrames { state.frameTarget = options.targetSize(for: PixelSize(width: width, height: height)) }
                    state.lenient = lenient && !stopAtEnd
                }
                try walkRecords(gif, input: input, options: options, walk: &state, stopAtEnd: stopAtEnd, frameLimit: frameLimit)
                walk = state
            }
        }
    }

    private static func walkRecords(
        _ gif: UnsafeMutablePointer<GifFileType>, input: UnsafeMutablePointer<GIFInput>, options: ImageDecodingOptions,
        walk: inout GIFWalk, stopAtEnd: Bool, frameLimit: Int
    ) throws {
        var indices = [UInt8]()
        while !walk.isFinished && walk.frameCount < frameLimit {
            walk.offset = input.pointee.offset
            let checkpoint = walk
            do {
                try readRecord(gif, input: input, options: options, walk: &walk, indices: &indices)
            } catch where stopAtEnd && input.pointee.reachedEnd {
                // The data ends inside this record: forget its effects and wait for more bytes.
                walk = checkpoint
                return
            } catch let error as ImageCodingError
                        where walk.lenient && !checkpoint.frames.isEmpty && [.corruptData, .truncatedData].contains(error.code) {
                // A bad record after whole frames: keep them and stop, as browsers do.
                walk = checkpoint
                walk.issues.append(DecodingIssue(
                    .framesDropped, detail: "the records after frame \(walk.frameCount) were dropped: \(error.message)"))
                walk.isFinished = true
                return
            }
        }
        walk.offset = input.pointee.offset
    }

    /// Reads one record: an image (drawn and appended as a frame), an extension, or the trailer.
    private static func readRecord(
        _ gif: UnsafeMutablePointer<GifFileType>, input: UnsafeMutablePointer<GIFInput>, options: ImageDecodingOptions,
        walk: inout GIFWalk, indices: inout [UInt8]
    ) throws {
        func check(_ result: Int32, _ what: @autoclosure () -> String) throws {
            if result != GIF_OK { throw failure(gif.pointee.Error, input.pointee, what()) }
        }
        let width = walk.canvas.width, height = walk.canvas.height
        var type = UNDEFINED_RECORD_TYPE
        try check(DGifGetRecordType(gif, &type), "cannot read the next record")
        switch type {
        case IMAGE_DESC_RECORD_TYPE:
            if walk.output == .allFrames, !walk.frames.isEmpty {
                let frameBytes = walk.frameTarget.map { $0.pixelCount * PixelBuffer.bytesPerPixel } ?? walk.canvas.frameByteCount
                let (total, overflow) = (walk.frames.count + 1).multipliedReportingOverflow(by: frameBytes)
                if overflow || total > options.maximumAnimationByteCount {
                    if options.firstFrameWhenAnimationTooLarge {
                        walk.frames.removeSubrange(1...)
                        walk.frameCount = 1
                        walk.isFinished = true
                        return
                    }
                    throw ImageCodingError(.animationTooLarge, format: .gif,
                                           "\(walk.frames.count + 1) frames of \(width)×\(height) exceed \(options.maximumAnimationByteCount) bytes")
                }
            }
            try check(DGifGetImageDesc(gif), "cannot read image descriptor \(walk.frameCount + 1)")
            let image = gif.pointee.Image
            var info = walk.info
            info.left = Int(image.Left)
            info.top = Int(image.Top)
            info.width = Int(image.Width)
            info.height = Int(image.Height)
            info.interlaced = image.Interlace
            if walk.frameCount == 0 { growCanvas(&walk, toHold: info, options: options) }
            walk.frameCount += 1
            if walk.output == .durationsOnly {
                try skipImageData(gif, check: check)
                walk.durations.append(info.duration)
                walk.info = GIFFrameInfo()
                return
            }
            walk.canvas.beginFrame(info, palette: palette(image.ColorMap ?? gif.pointee.SColorMap))
            if !walk.canvas.frameIsVisible {
                try skipImageData(gif, check: check)
            } else if let rowCount = lzwRowCount(info, canvas: walk.canvas) {
                let count = try readIndices(
                    input, rowCount: rowCount, width: info.width, frame: walk.frameCount, into: &indices, lenient: walk.lenient
                )
                // A lenient walk keeps the pixels of a frame cut short, down to the last one decoded (the rest shows
                // the canvas as it was), as browsers draw such frames.
                let wholeRows = count / max(info.width, 1)
                if count < rowCount * info.width {
                    guard count > 0 || !walk.frames.isEmpty else {
                        throw ImageCodingError(.truncatedData, format: .gif, "frame \(walk.frameCount) has no pixel")
                    }
                    walk.issues.append(DecodingIssue(
                        input.pointee.reachedEnd ? .truncated : .corruptData,
                        firstDamagedRow: info.interlaced ? nil : info.top + wholeRows,
                        detail: "frame \(walk.frameCount) ends after \(count) of \(rowCount * info.width) pixels"))
                    walk.isFinished = true
                }
                indices.withUnsafeBufferPointer { indices in
                    guard let base = indices.baseAddress.map({ $0 + GIFLZW.outputOffset }) else { return }
                    var decoded = 0
                    for pass in info.rowPasses {
                        for y in stride(from: pass.start, to: info.height, by: pass.step) where decoded * info.width < count {
                            walk.canvas.drawRow(base + decoded * info.width, row: y, pixelCount: count - decoded * info.width)
                            decoded += 1
                        }
                    }
                }
            } else {
                // A frame larger than the canvas: giflib decompresses it a row at a time.
                if indices.count < info.width { indices = [UInt8](repeating: 0, count: info.width) }
                let frameNumber = walk.frameCount
                try indices.withUnsafeMutableBufferPointer { row in
                    guard let line = row.baseAddress else { return }
                    for pass in info.rowPasses {
                        for y in stride(from: pass.start, to: info.height, by: pass.step) {
                            if !info.interlaced && y >= walk.canvas.visibleRowCount {
                                // The rest lies below the canvas: skip its data undecoded.
                                try skipImageData(gif, check: check)
                                return
                            }
                            try check(DGifGetLine(gif, line, Int32(info.width)), "cannot decode frame \(frameNumber)")
                            walk.canvas.drawRow(line, row: y)
                        }
                    }
                }
            }
            let composited = walk.canvas.endFrame()
            let frame = ImageFrame(pixels: walk.frameTarget.map { Resampler.resize(composited, to: $0) } ?? composited,
                                   duration: info.duration)
            if walk.output == .allFrames { walk.frames.append(frame) } else { walk.frames = [frame] }
            walk.info = GIFFrameInfo()
            if options.firstFrameOnly { walk.isFinished = true }
        case EXTENSION_RECORD_TYPE:
            try readExtension(gif, into: &walk.info, loopCount: &walk.loopCount, check: check)
        case TERMINATE_RECORD_TYPE:
            walk.isFinished = true
        default:
            throw ImageCodingError(.corruptData, format: .gif, "unknown record type")
        }
    }

    /// Grows the canvas to hold the first frame when it reaches past the logical screen, as browsers size such
    /// images (the image is the screen and the first frame's rectangle together); within the pixel limit only,
    /// else the frame stays clipped to the screen.
    private static func growCanvas(_ walk: inout GIFWalk, toHold first: GIFFrameInfo, options: ImageDecodingOptions) {
        let width = max(walk.canvas.width, first.left + first.width), height = max(walk.canvas.height, first.top + first.height)
        guard width != walk.canvas.width || height != walk.canvas.height,
              (try? ImageCodingError.checkDimensions(.gif, width: width, height: height, limit: options.maximumPixelCount)) != nil else { return }
        walk.canvas = GIFCanvas(width: width, height: height)
        if walk.resizesFrames { walk.frameTarget = options.targetSize(for: PixelSize(width: width, height: height)) }
    }

    /// How many of the frame's rows ``readIndices`` should decompress (all of an interlaced frame, else
    /// those down to the canvas's bottom edge), or `nil` when the frame's indices would take more bytes
    /// than the canvas has pixels (or 2 GiB): then giflib decodes it a row at a time instead.
    private static func lzwRowCount(_ info: GIFFrameInfo, canvas: GIFCanvas) -> Int? {
        let rowCount = info.interlaced ? info.height : min(info.height, canvas.visibleRowCount)
        let (count, overflow) = rowCount.multipliedReportingOverflow(by: info.width)
        // The decompressor keeps its string offsets in 32 bits.
        return overflow || count > canvas.width * canvas.height || GIFLZW.workspaceSize(for: count) > Int(Int32.max) ? nil : rowCount
    }

    /// Reads the current image's LZW sub-blocks to their end and decompresses `rowCount` rows of `width`
    /// indices into `indices` (a ``GIFLZW`` workspace: they start at its output offset), in the order the
    /// file stores them. Returns how many indices it decompressed: all `rowCount × width`, or, when `lenient`,
    /// fewer when the data ends or breaks early (the sub-blocks read until then are decompressed).
    private static func readIndices(
        _ input: UnsafeMutablePointer<GIFInput>, rowCount: Int, width: Int, frame: Int, into indices: inout [UInt8], lenient: Bool
    ) throws -> Int {
        // The sub-blocks are read here from the bytes, not through giflib, so that a block cut short by the end of
        // the data still gives its bytes. giflib has read the image descriptor and the LZW code size just before.
        let bytes = input.pointee.bytes
        var offset = input.pointee.offset
        let codeSize = offset > 0 && offset <= bytes.count ? Int(bytes[offset - 1]) : 0
        var compressed = [UInt8]()
        var complete = false
        while offset < bytes.count {
            let length = Int(bytes[offset])
            offset += 1
            if length == 0 {
                complete = true
                break
            }
            let available = min(length, bytes.count - offset)
            compressed.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + available]))
            offset += available
        }
        input.pointee.offset = offset
        if !complete {
            input.pointee.reachedEnd = true
            // A lenient decode decompresses what arrived.
            guard lenient && !compressed.isEmpty else {
                throw ImageCodingError(.truncatedData, format: .gif, "cannot read frame \(frame): the data ends early")
            }
        }
        guard (1...8).contains(codeSize) else {
            throw ImageCodingError(.corruptData, format: .gif, "frame \(frame) has an LZW code size of \(codeSize)")
        }
        let count = rowCount * width
        let workspaceSize = GIFLZW.workspaceSize(for: count)
        if indices.count < workspaceSize { indices = [UInt8](repeating: 0, count: workspaceSize) }
        let outcome = compressed.withUnsafeBytes { input in
            indices.withUnsafeMutableBufferPointer { workspace in
                GIFLZW.decode(input, minimumCodeSize: codeSize, count: count, workspace: workspace)
            }
        }
        switch outcome {
        case .filled:
            return count
        case .endedEarly(let decoded) where lenient, .ranOut(let decoded) where lenient, .invalidCode(let decoded) where lenient:
            return decoded
        case .endedEarly(let decoded):
            // As giflib: an end code before the last pixel is "the data ends early"…
            throw ImageCodingError(.truncatedData, format: .gif,
                                   "cannot decode frame \(frame): the data ends early (\(decoded) of \(count) pixels)")
        case .ranOut(let decoded):
            // …while complete sub-blocks that hold too few pixels are a defect: more bytes would not help.
            throw ImageCodingError(.corruptData, format: .gif,
                                   "cannot decode frame \(frame): its image data holds \(decoded) of \(count) pixels")
        case .invalidCode:
            throw ImageCodingError(.corruptData, format: .gif, "cannot decode frame \(frame): an invalid LZW code")
        }
    }

    /// Reads one extension: a Graphics Control Extension fills `info`, NETSCAPE2.0/ANIMEXTS1.0 the loop count.
    private static func readExtension(
        _ gif: UnsafeMutablePointer<GifFileType>, into info: inout GIFFrameInfo, loopCount: inout Int,
        check: (Int32, @autoclosure () -> String) throws -> Void
    ) throws {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetExtension(gif, &code, &block), "cannot read an extension")
        var isLoopExtension = false
        var isFirst = true
        while let data = block {
            // giflib's blocks are Pascal strings: data[0] is the length.
            let length = Int(data[0])
            if code == GRAPHICS_EXT_FUNC_CODE, isFirst, length >= 4 {
                let packed = Int(data[1])
                info.delayCentiseconds = Int(data[2]) | Int(data[3]) << 8
                info.transparentIndex = packed & 1 != 0 ? Int(data[4]) : -1
                // As in browsers, disposal 4 (a common misreading of the spec) means "previous".
                switch (packed >> 2) & 7 {
                case 2: info.disposal = 2
                case 3, 4: info.disposal = 3
                default: info.disposal = 0
                }
            } else if code == APPLICATION_EXT_FUNC_CODE, isFirst, length == 11 {
                let name = String(decoding: UnsafeBufferPointer(start: data + 1, count: 11), as: UTF8.self)
                isLoopExtension = name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
            } else if isLoopExtension, length >= 3, data[1] == 1 {
                loopCount = Int(data[2]) | Int(data[3]) << 8
            }
            isFirst = false
            try check(DGifGetExtensionNext(gif, &block), "cannot read an extension block")
        }
    }

    /// Consumes the rest of the current image's LZW sub-blocks without decoding them.
    private static func skipImageData(
        _ gif: UnsafeMutablePointer<GifFileType>, check: (Int32, @autoclosure () -> String) throws -> Void
    ) throws {
        var block: UnsafeMutablePointer<GifByteType>?
        repeat {
            try check(DGifGetCodeNext(gif, &block), "cannot skip image data")
        } while block != nil
    }

    /// The 256 packed RGBA colours of a colour table; entries past its end are opaque black.
    private static func palette(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [UInt32] {
        guard let map, let colors = map.pointee.Colors else { return GIFCanvas.defaultPalette }
        var palette = [UInt32](repeating: RGBA.black.packed, count: 256)
        for index in 0..<min(Int(map.pointee.ColorCount), 256) {
            let color = colors[index]
            palette[index] = RGBA(red: color.Red, green: color.Green, blue: color.Blue).packed
        }
        return palette
    }

    /// Writes a GIF89a of `frameCount` full-canvas frames, each with its own local colour table;
    /// `loopCount` (when not nil) goes into a NETSCAPE2.0 extension.
    static func encode(
        width: Int, height: Int, loopCount: Int?, frameCount: Int, frame: (Int) throws -> GIFIndexedFrame
    ) throws -> Data {
        var output = Data()
        try withUnsafeMutablePointer(to: &output) { output in
            var status: Int32 = 0
            guard let gif = EGifOpen(output, writeOutput, &status) else { throw encodingFailure(status, "cannot start") }
            var isOpen = true
            defer { if isOpen { EGifCloseFile(gif, nil) } }
            func check(_ result: Int32, _ what: @autoclosure () -> String) throws {
                if result != GIF_OK { throw encodingFailure(gif.pointee.Error, what()) }
            }
            EGifSetGifVersion(gif, true)
            try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil), "cannot write the screen descriptor")
            if let loopCount {
                let count = min(max(loopCount, 0), 0xFFFF)
                let loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
                try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "cannot write NETSCAPE2.0")
                try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)), "cannot write NETSCAPE2.0")
                try check(EGifPutExtensionBlock(gif, 3, loop), "cannot write NETSCAPE2.0")
                try check(EGifPutExtensionTrailer(gif), "cannot write NETSCAPE2.0")
            }
            for index in 0..<frameCount {
                var frame = try frame(index)
                if frameCount > 1 || frame.transparentIndex != nil {
                    var control = GraphicsControlBlock(
                        DisposalMode: Int32(frame.disposal), UserInputFlag: false, DelayTime: Int32(frame.delayCentiseconds),
                        TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
                    var extensionBytes = [UInt8](repeating: 0, count: 4)
                    let length = EGifGCBToExtension(&control, &extensionBytes)
                    try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), "cannot write a control extension")
                }
                // GifMakeMapObject wants a power of two from 2 to 256 entries.
                let colorCount = frame.colors.count / 3
                var tableSize = 2
                while tableSize < colorCount { tableSize *= 2 }
                var table = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: tableSize)
                for i in 0..<colorCount {
                    table[i] = GifColorType(Red: frame.colors[3 * i], Green: frame.colors[3 * i + 1], Blue: frame.colors[3 * i + 2])
                }
                guard let map = GifMakeMapObject(Int32(tableSize), table) else {
                    throw ImageCodingError(.encodingFailed, format: .gif, "cannot allocate a colour table")
                }
                defer { GifFreeMapObject(map) }
                try check(EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, map), "cannot write frame \(index + 1)")
                // EGifPutLine masks the indices in place, so it gets our own mutable copy.
                try frame.indices.withUnsafeMutableBufferPointer { indices in
                    guard let base = indices.baseAddress else { return }
                    for y in 0..<height {
                        try check(EGifPutLine(gif, base + y * width, Int32(width)), "cannot compress frame \(index + 1)")
                    }
                }
            }
            isOpen = false
            guard EGifCloseFile(gif, &status) == GIF_OK else { throw encodingFailure(status, "cannot finish") }
        }
        return output
    }

    /// giflib's quantiser keeps its sort axis in a static variable, so calls must not overlap. The lock
    /// counts the calls (a real value: ThreadSanitizer mistakes accesses to a zero-size one for races).
    private static let quantizerLock = LockedValue(0)

    /// Median-cut quantisation of planar RGB to at most `colorCount` colours (giflib's `GifQuantizeBuffer`):
    /// fills `indices` (one per pixel) and returns the palette as RGB triples.
    static func quantize(
        red: inout [UInt8], green: inout [UInt8], blue: inout [UInt8], indices: inout [UInt8], colorCount: Int
    ) throws -> [UInt8] {
        let pixelCount = indices.count
        guard pixelCount > 0, pixelCount <= Int(Int32.max), red.count == pixelCount, green.count == pixelCount, blue.count == pixelCount else {
            throw ImageCodingError(.encodingFailed, format: .gif, "cannot quantise \(pixelCount) pixels")
        }
        var table = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
        var size = Int32(min(max(colorCount, 2), 256))
        let result = quantizerLock.withLock { calls in
            calls &+= 1
            return GifQuantizeBuffer(UInt32(pixelCount), 1, &size, &red, &green, &blue, &indices, &table)
        }
        guard result == GIF_OK, size > 0 else {
            throw ImageCodingError(.encodingFailed, format: .gif, "colour quantisation failed")
        }
        return table.prefix(Int(size)).flatMap { [$0.Red, $0.Green, $0.Blue] }
    }

    private static func encodingFailure(_ status: Int32, _ what: String) -> ImageCodingError {
        let reason = GifErrorString(status).map { String(cString: $0) } ?? "giflib error \(status)"
        return ImageCodingError(.encodingFailed, format: .gif, "\(what): \(reason)")
    }

    /// Maps a giflib error to truncation (the reader ran out of bytes) or corruption.
    private static func failure(_ status: Int32, _ input: GIFInput, _ what: String) -> ImageCodingError {
        let reason = GifErrorString(status).map { String(cString: $0) } ?? "giflib error \(status)"
        if input.reachedEnd || status == D_GIF_ERR_EOF_TOO_SOON {
            return ImageCodingError(.truncatedData, format: .gif, "\(what): the data ends early (\(reason))")
        }
        return ImageCodingError(.corruptData, format: .gif, "\(what): \(reason)")
    }
}
