import ArgumentParser
import Foundation
import WebImageKit

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

    func validate() throws {
        guard (0...100).contains(quality) else { throw ValidationError("--quality must be between 0 and 100") }
    }

    func run() throws {
        let options = ImageEncodingOptions(quality: Double(quality) / 100, lossless: lossless)
        do {
            let result = try ImageFiles.convert(from: URL(fileURLWithPath: input), to: URL(fileURLWithPath: output), options: options)
            let frames = result.image.frames.count == 1 ? "" : ", \(result.image.frames.count) frames"
            print("\(output): \(result.image.pixelSize)\(frames), \(ByteCountText.format(result.bytesWritten))")
        } catch {
            printError("\(input): \(error)")
            throw ExitCode.failure
        }
    }
}
