#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert images to JPEG, PNG, GIF, WebP or AVIF, one file or many.",
        usage: """
            webimage convert INPUT OUTPUT [options]
              webimage convert INPUT... --out-dir DIR [--format EXT] [--name TEMPLATE] [options]
            """,
        discussion: """
            The output's extension (or --format) picks the format. Existing files are never replaced unless \
            --force is given. Pixels are turned upright by the EXIF orientation; transparency becomes \
            --background in JPEG; animations are kept by GIF, WebP and AVIF, and JPEG and PNG get one frame.

            Metadata: by default the only metadata written is the EXIF orientation (JPEG and AVIF), and only with \
            --no-auto-orient, since otherwise the pixels are already upright. --keep-metadata keeps EXIF and XMP \
            (JPEG, PNG, WebP, AVIF, HEIC), IPTC (JPEG) and the ICC profile (JPEG, PNG, WebP, AVIF, TIFF), with the \
            orientation tag matching the pixels, and says what the output format cannot hold; --strip drops the \
            orientation too.

            Transforms (--transform, comma-separated, applied in order):
              resize:WxH[:fit|fill|stretch][:upscale]   crop:X:Y:WxH   round:RADIUS[:BORDER[:RRGGBB[AA]]]
              flip:h|v|hv   rotate:DEGREES[:RRGGBB[AA]]   tint:RRGGBB[AA]   blur:RADIUS   orient

            Examples:
              webimage convert photo.jpg photo.webp --quality 80
              webimage convert big.jpg avatar.png --thumbnail 512 --transform resize:128x128:fill,round:64
              webimage convert *.jpg --out-dir thumbs --format webp --thumbnail 256 --name '{name}-256'
              curl -s https://example.com/a.png | webimage convert - - --format jpg > a.jpg
            """
    )

    @Argument(help: "INPUT and OUTPUT (- for standard input or output); with --out-dir, every path is an input.")
    var paths: [String] = []

    @Option(name: .customLong("out-dir"), help: "Convert every input into this folder (created if missing), several at once.")
    var outDirectory: String?

    @Option(help: "The output format: jpg, png, gif, webp, avif, jxl, heic, tiff, bmp or ico (default: the output's extension; with --out-dir, each input's own).")
    var format: String?

    @Option(help: "With --out-dir: output names without extension; {name} is the input's name, {index} its position.")
    var name = ConversionPlan.defaultNameTemplate

    @Flag(help: "Replace output files that already exist.")
    var force = false

    @Option(help: "Quality for lossy formats, 0–100.")
    var quality: Int = 90

    @Flag(help: "Use the lossless mode of WebP or AVIF (PNG is always lossless; JPEG and GIF have none).")
    var lossless = false

    @Option(parsing: .unconditional, help: "Decode a thumbnail that fits in WIDTHxHEIGHT, or SIZE for a square (shrink-on-load for JPEG, PNG and WebP).")
    var thumbnail: String?

    @Flag(inversion: .prefixedNo, help: "Turn the pixels upright by the EXIF orientation; --no-auto-orient keeps the stored pixels and the tag (written by JPEG and AVIF).")
    var autoOrient = true

    @Flag(help: "Write no metadata, not even the orientation tag --no-auto-orient keeps.")
    var strip = false

    @Flag(name: .customLong("keep-metadata"),
          help: "Keep the input's EXIF, XMP, IPTC and ICC profile where the output format holds them, and say what it cannot hold.")
    var keepMetadata = false

    @Option(help: "The colour transparent pixels are flattened onto when the format has no alpha (JPEG), RRGGBB.")
    var background = "ffffff"

    @Option(help: "Write only frame N (from 1) of an animation.")
    var frame: Int?

    @Option(parsing: .unconditional, help: "Transforms to apply, e.g. resize:300x200:fill,round:12,blur:2 (listed above).")
    var transform: String?

    @Flag(help: "Refuse a damaged input (a JPEG cut short, a PNG with a bad checksum) instead of writing what decodes.")
    var strict = false

    @OptionGroup var limit: PixelLimitOption

    func validate() throws {
        if outDirectory == nil {
            guard paths.count == 2 else {
                throw ValidationError(paths.count < 2
                    ? "convert needs an INPUT and an OUTPUT (or --out-dir DIR for several inputs)"
                    : "convert takes one INPUT and one OUTPUT, not \(paths.count) paths; to convert several files, add --out-dir DIR")
            }
        } else {
            guard !paths.isEmpty else { throw ValidationError("convert --out-dir needs at least one INPUT") }
        }
        guard (0...100).contains(quality) else { throw ValidationError("--quality must be between 0 and 100, not \(quality)") }
        if let thumbnail, PixelSize(argument: thumbnail) == nil {
            throw ValidationError("--thumbnail must be a size such as 256x256 or 256, not \(thumbnail)")
        }
        guard RGBA(hex: background) != nil else { throw ValidationError("--background must be a colour such as ffffff, not \(background)") }
        if strip, keepMetadata { throw ValidationError("--strip and --keep-metadata cannot go together: choose one") }
        if let frame, frame < 1 { throw ValidationError("--frame counts from 1, not \(frame)") }
        if let format, ImageFormat(fileExtension: format) == .unknown {
            throw ValidationError("--format must be jpg, png, gif, webp, avif, jxl, heic, tiff, bmp or ico, not \(format)")
        }
        if let transform { _ = try TransformList.parseOption(transform) }
        _ = try plan()
    }

    func run() throws {
        let jobs = try plan()
        if let outDirectory {
            try runBatch(jobs, into: outDirectory)
        } else {
            try runSingle(jobs[0])
        }
    }

    private var settings: ConversionSettings {
        var settings = ConversionSettings()
        settings.encoding = ImageEncodingOptions(quality: Double(quality) / 100, lossless: lossless)
        settings.decoding = ImageDecodingOptions(
            applyOrientation: autoOrient, maximumPixelCount: limit.maxPixels, thumbnailPixelSize: thumbnail.flatMap(PixelSize.init(argument:)))
        settings.decoding.strict = strict
        settings.transformer = transform.flatMap { try? TransformList.parse($0, maximumPixelCount: limit.maxPixels) }
        settings.background = RGBA(hex: background) ?? .white
        settings.frame = frame
        settings.replacesExisting = force
        settings.metadata = strip ? .strip : keepMetadata ? .keepAndReport : .keep
        return settings
    }

    /// The jobs, or the usage error that stops them all before anything is read.
    private func plan() throws -> [ConversionJob] {
        let format = self.format.map { ImageFormat(fileExtension: $0) }
        do {
            if let outDirectory {
                return try ConversionPlan.batch(
                    inputs: paths, directory: URL(fileURLWithPath: outDirectory, isDirectory: true), format: format,
                    nameTemplate: name, settings: settings)
            }
            return [try ConversionPlan.single(input: paths[0], output: paths[1], format: format, settings: settings)]
        } catch {
            throw ValidationError(error.description)
        }
    }

    private func runSingle(_ job: ConversionJob) throws {
        let outcome = BatchConversion.convert(job, settings: settings)
        report(outcome, printsWritten: job.output != "-")
        if case .failure = outcome.result { throw ExitCode.failure }
    }

    private func runBatch(_ jobs: [ConversionJob], into folder: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
            printError(ToolError(folder, "is a file, not a folder", remedy: "choose another --out-dir").description)
            throw ExitCode.failure
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            printError(ToolError(folder, describing: error).description)
            throw ExitCode.failure
        }
        let interruption = Interruption()
        let bar = BatchProgressLine(total: jobs.count, enabled: isatty(STDERR_FILENO) == 1)
        let start = ContinuousClock.now
        let outcomes = BatchConversion.run(jobs, settings: settings, isCancelled: { interruption.isRequested }) { outcome in
            bar.finished { report(outcome, printsWritten: true) }
        }
        bar.clear()
        let elapsed = ContinuousClock.now - start
        let summary = ConversionSummary(
            outcomes, seconds: elapsed.seconds)
        print(summary.line)
        if interruption.isRequested { throw ExitCode(Interruption.exitStatus) }
        if summary.failed > 0 { throw ExitCode.failure }
    }

    /// A line on standard output for a file written, its notes and errors on standard error.
    private func report(_ outcome: ConversionOutcome, printsWritten: Bool) {
        let input = outcome.job.input == "-" ? "standard input" : outcome.job.input
        switch outcome.result {
        case .success(let written):
            for note in written.notes { printError("\(input): \(note)") }
            guard printsWritten else { return }
            let frames = written.frames == 1 ? "" : ", \(written.frames) frames"
            print("\(outcome.job.output): \(written.pixelSize)\(frames), \(ByteCountText.format(written.bytes))")
        case .failure(let error):
            printError(error.description)
        }
    }
}

extension TransformList {
    /// Parses a `--transform` value; a list that does not parse is a usage error.
    static func parseOption(
        _ list: String, maximumPixelCount: Int = ImageDecodingOptions.defaultMaximumPixelCount
    ) throws -> ImageTransformers.Pipeline {
        do {
            return try parse(list, maximumPixelCount: maximumPixelCount)
        } catch {
            throw ValidationError("--transform \(error); see 'webimage convert --help' for the list")
        }
    }
}

/// `--max-pixels`, shared by `info`, `convert` and `fetch`.
struct PixelLimitOption: ParsableArguments {
    @Option(name: .customLong("max-pixels"),
            help: "The most pixels an image (and any transform's result) may have (default 100000000).")
    var maxPixels = ImageDecodingOptions.defaultMaximumPixelCount

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be at least 1, not \(maxPixels)") }
    }
}
