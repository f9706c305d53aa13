import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, cache, inspect and convert images with WebImageKit.",
        subcommands: [
            DemoCommand.self, FetchCommand.self, PrefetchCommand.self, InfoCommand.self, ConvertCommand.self, CacheCommand.self,
            DecodeCommand.self, SamplesCommand.self, BenchCacheCommand.self, BenchDownloadCommand.self, BenchManagerCommand.self, SoakCommand.self,
        ]
    )
}

/// Writes a message to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("webimage: \(message)\n".utf8))
}
