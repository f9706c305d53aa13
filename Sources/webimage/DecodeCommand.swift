import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode image files fully and discard the pixels (what the benchmarks time).",
        discussion: """
            Prints the size and the time each decode took (reading the file included).

            Examples:
              webimage decode photo.jpg animation.gif --repeat 10
              webimage decode --quiet *.png && echo 'all decode'
              webimage decode --scale-down huge.jpg
            """
    )

    @Argument(help: "Image files to decode (- for standard input).")
    var files: [String]

    @Option(name: .customLong("repeat"), help: "Decode each file this many times.")
    var repetitions: Int = 1

    @Flag(help: "Print nothing; only the exit status tells whether every decode succeeded.")
    var quiet = false

    @Flag(name: .customLong("scale-down"), help: "Scale images over 60 MB of pixels down to that budget while decoding (scaleDownLargeImages).")
    var scaleDown = false

    func validate() throws {
        guard repetitions >= 1 else { throw ValidationError("--repeat must be at least 1, not \(repetitions)") }
    }

    func run() throws {
        var failed = false
        for file in files {
            let name = file == "-" ? "standard input" : file
            do {
                let options = ImageDecodingOptions(scaleDownLimitBytes: scaleDown ? ImageDecodingOptions.defaultScaleDownLimitBytes : nil)
                let decode: () throws -> Image
                if file == "-" {
                    let data = try InputFile.read(file)
                    decode = { try ImageCodersManager.shared.decode(data, options: options) }
                } else {
                    // From the file itself, so a PNG is read as it is decoded and never held whole.
                    try InputFile.checkIsFile(file)
                    decode = { try ImageCodersManager.shared.decode(contentsOf: URL(fileURLWithPath: file), options: options) }
                }
                let clock = ContinuousClock()
                var image: Image?
                let elapsed = try clock.measure {
                    for _ in 0..<repetitions { image = try decode() }
                }
                if !quiet, let image {
                    let perDecode = elapsed / repetitions
                    let milliseconds = perDecode.seconds * 1000
                    let damage = image.issues.isEmpty ? "" : ", damaged (\(image.issues.oneLine))"
                    print("\(name): \(image.pixelSize), \(image.frames.count) frame(s), \(String(format: "%.1f", milliseconds)) ms per decode\(damage)")
                }
            } catch {
                failed = true
                printError(ToolError(name, describing: error).description)
            }
        }
        if failed { throw ExitCode.failure }
    }
}

struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Write generated sample images of every supported kind into a folder."
    )

    @Argument(help: "The folder to write into (created if missing).")
    var directory: String = "samples"

    @Option(help: "Size of the photo-like samples, WIDTHxHEIGHT (the alpha samples are half as large).")
    var size: String = "960x640"

    @Option(help: "Write only these files (comma-separated), e.g. photo.png,alpha.png. photo.png is written only when named.")
    var only: String?

    func run() throws {
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ (1...30_000).contains($0) }) else {
            throw ValidationError("--size must look like 960x640")
        }
        let names = only.map { Set($0.split(separator: ",").map(String.init)) }
        do {
            let urls = try ImageFiles.writeSamples(
                to: URL(fileURLWithPath: directory), photoSize: PixelSize(width: parts[0], height: parts[1]), names: names
            )
            for url in urls { print(url.relativePath) }
        } catch {
            printError(ToolError(directory, describing: error).description)
            throw ExitCode.failure
        }
    }
}
