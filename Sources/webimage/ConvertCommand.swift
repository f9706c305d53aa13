import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an image to the format named by the output file's extension (jpg, png, gif, webp, avif).",
        discussion: "Animations are kept when the output format can hold them (GIF, WebP, AVIF)."
    )

    @Argument(help: "The image to read.")
    var input: String

    @Argument(help: "The file to write; its extension chooses the format.")
    var output: String

    @Option(help: "Quality for lossy formats, 0–100.")
    var quality: Int = 90

    @Flag(help: "Use the lossless mode of WebP or AVIF.")
    var lossless = false

    @Option(help: "Decode a thumbnail that fits in WIDTHxHEIGHT (shrink-on-load for JPEG and WebP).")
    var thumbnail: String?

    @Flag(name: .customLong("auto-orient"), help: "Turn the pixels upright according to the EXIF orientation.")
    var autoOrient = false

    @Option(help: "Transformers to apply, e.g. resize:300x200:fill,round:12,blur:2 (see the README).")
    var transform: String?

    func validate() throws {
        guard (0...100).contains(quality) else { throw ValidationError("--quality must be between 0 and 100") }
        if let thumbnail, Self.size(thumbnail) == nil { throw ValidationError("--thumbnail must look like 256x256") }
        if let transform { _ = try TransformList.parse(transform) }
    }

    static func size(_ text: String) -> PixelSize? {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { return nil }
        return PixelSize(width: parts[0], height: parts[1])
    }

    func run() throws {
        let options = ImageEncodingOptions(quality: Double(quality) / 100, lossless: lossless)
        let decoding = ImageDecodingOptions(applyOrientation: autoOrient, thumbnailPixelSize: thumbnail.flatMap(Self.size))
        do {
            let result = try ImageFiles.convert(
                from: URL(fileURLWithPath: input), to: URL(fileURLWithPath: output), options: options,
                decoding: decoding, transformer: try transform.map(TransformList.parse)
            )
            let frames = result.image.frames.count == 1 ? "" : ", \(result.image.frames.count) frames"
            print("\(output): \(result.image.pixelSize)\(frames), \(ByteCountText.format(result.bytesWritten))")
        } catch {
            printError("\(input): \(error)")
            throw ExitCode.failure
        }
    }
}
