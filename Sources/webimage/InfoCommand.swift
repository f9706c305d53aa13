import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print format, size, frames, loop count, alpha, orientation and bytes of image files.",
        discussion: """
            Examples:
              webimage info photo.jpg animation.gif
              webimage info --json *.png > sizes.json
              curl -s https://example.com/a.webp | webimage info -
            """
    )

    @Argument(help: "Image files to inspect.")
    var files: [String]

    @Flag(help: "Print a JSON array instead of one line per file.")
    var json = false

    func run() throws {
        var summaries: [ImageSummary] = []
        var failures = 0
        for file in files {
            do {
                let summary = try ImageFiles.summarize(fileAt: URL(fileURLWithPath: file))
                summaries.append(summary)
                if !json { print(summary.line) }
            } catch {
                failures += 1
                printError("\(file): \(error)")
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
