import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print format, size, frames, loop count, alpha, orientation, bit depth, colour profile, camera and bytes of image files.",
        discussion: """
            Examples:
              webimage info photo.jpg animation.gif
              webimage info --json *.png > sizes.json
              curl -s https://example.com/a.webp | webimage info -
            """
    )

    @Argument(help: "Image files to inspect (- for standard input).")
    var files: [String]

    @Flag(help: "Print a JSON array instead of one line per file.")
    var json = false

    @Flag(help: "Decode every pixel too, to check that the whole file decodes (info otherwise reads headers where it can).")
    var decode = false

    @OptionGroup var limit: PixelLimitOption

    func run() throws {
        var summaries: [ImageSummary] = []
        var failures = 0
        let options = ImageDecodingOptions(maximumPixelCount: limit.maxPixels)
        for file in files {
            let name = file == "-" ? "standard input" : file
            do {
                let data = try InputFile.read(file)
                let summary = decode
                    ? try ImageHeaders.decoded(data, source: name, options: options)
                    : try ImageHeaders.summarize(data, source: name, options: options)
                summaries.append(summary)
                if !json { print(summary.line) }
            } catch {
                failures += 1
                printError(ToolError(name, describing: error).description)
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summaries), as: UTF8.self))
        }
        if failures > 0 { throw ExitCode.failure }
    }
}
