import ArgumentParser
import Foundation
import WebImageKit

@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Inspect, convert and decode images with WebImageKit.",
        subcommands: [InfoCommand.self, ConvertCommand.self, DecodeCommand.self, SamplesCommand.self, CacheCommand.self, BenchCacheCommand.self, BenchDownloadCommand.self, BenchManagerCommand.self]
    )
}

/// Writes a message to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("webimage: \(message)\n".utf8))
}
