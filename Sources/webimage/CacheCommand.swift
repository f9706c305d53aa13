import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, clean or clear a WebImageKit disk cache.",
        subcommands: [CacheInfoCommand.self, CacheCleanCommand.self, CacheClearCommand.self]
    )
}

/// The options every `cache` subcommand takes.
struct CacheLocationOptions: ParsableArguments {
    @OptionGroup var cache: CacheRootOptions

    @Flag(help: "Print JSON instead of a line of text.")
    var json = false

    var root: URL? { cache.root }
    var namespace: String { cache.namespace }

    func emit(_ report: CacheReport) throws {
        guard json else {
            print(report.line)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}

struct CacheInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Print the directory, entries and bytes.")
    @OptionGroup var location: CacheLocationOptions

    func run() throws {
        try location.emit(try CacheMaintenance.info(root: location.root, namespace: location.namespace))
    }
}

struct CacheCleanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean", abstract: "Remove expired entries, then trim to half the size limit; print what was removed.")
    @OptionGroup var location: CacheLocationOptions

    @Option(help: "The maximum age in seconds (default: one week).")
    var maxAge: Int?

    @Option(help: "The size limit in bytes (default: 1 GiB; 0 means unlimited).")
    var maxSize: Int?

    func run() throws {
        var configuration = DiskCacheConfiguration()
        if let maxAge { configuration.maxAge = .seconds(maxAge) }
        if let maxSize { configuration.maxSize = maxSize }
        try location.emit(
            try CacheMaintenance.clean(root: location.root, namespace: location.namespace, configuration: configuration))
    }
}

struct CacheClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Delete every entry.")
    @OptionGroup var location: CacheLocationOptions

    func run() throws {
        try location.emit(try CacheMaintenance.clear(root: location.root, namespace: location.namespace))
    }
}
