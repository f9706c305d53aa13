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

/// `webimage fetch`: load URLs through the manager (memory, disk, network) and report where each came from.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the memory cache, the disk cache and the network; print a summary.",
        discussion: """
            Every URL is requested at once; the downloader keeps --concurrency transfers running. Images are stored \
            in the disk cache (so a second run finds them there). Ctrl-C cancels what is still loading, prints the \
            summary of what finished and exits 130. On a terminal, progress bars are drawn on \
            standard error; piped, a line per image is printed instead; --json prints one JSON object at the end.

            Load options (--options, comma-separated): retryFailed, refreshCached, fromCacheOnly, fromLoaderOnly, \
            progressiveLoad, lowPriority, highPriority, scaleDownLargeImages, decodeFirstFrameOnly, transformAnimatedImage, \
            allowInvalidSSLCertificates, handleCookies, cacheMemoryOnly.

            Examples:
              webimage fetch https://example.com/a.jpg https://example.com/b.gif
              webimage fetch https://example.com/a.jpg --out thumbs --thumbnail 256
              webimage fetch https://example.com/a.png --out images --format webp --force
              webimage fetch https://example.com/private.png -H 'Authorization: Bearer TOKEN' --timeout 30 --retry 3
              webimage fetch file:///tmp/photo.jpg --json
            """
    )

    @Argument(help: "Image URLs (http, https, file or data).")
    var urls: [String]

    @Option(help: "Write each image into this folder (created if missing), named after the URL.")
    var out: String?

    @Option(help: "With --out: the format to write, jpg, png, gif, webp, avif, jxl, heic, tiff, bmp or ico (default: the format downloaded).")
    var format: String?

    @Flag(help: "With --out: replace files that already exist.")
    var force = false

    @OptionGroup var cache: CacheRootOptions

    @Option(parsing: .unconditional, help: "Decode thumbnails no larger than WxH, e.g. 256x256, or SIZE for a square.")
    var thumbnail: String?

    @Option(parsing: .unconditional, help: "Transforms to apply, e.g. resize:300x200:fill,round:12 (see webimage convert --help).")
    var transform: String?

    @Option(help: "Load options, comma-separated: retryFailed, refreshCached, fromCacheOnly, fromLoaderOnly, progressiveLoad, …")
    var options: String?

    @Option(help: "Downloads at once.")
    var concurrency = 6

    @Option(name: .customLong("memory-cache"), help: "MiB of decoded images kept in memory (default: 20% of RAM, at most 256).")
    var memoryCacheMiB: Int?

    @Flag(help: "Print one JSON object (items and totals) instead of text.")
    var json = false

    @Option(name: [.customShort("H"), .customLong("header")], help: "A request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(name: .customLong("user-agent"), help: "The User-Agent header.")
    var userAgent: String?

    @Option(help: "Seconds a request may wait for the server.")
    var timeout: Double?

    @Option(name: .customLong("retry"), help: "Retry a transient failure (timeout, connection, 429, 5xx) up to N times.")
    var retries = 0

    @OptionGroup var limit: PixelLimitOption

    func validate() throws {
        if let thumbnail, PixelSize(argument: thumbnail) == nil {
            throw ValidationError("--thumbnail must be a size such as 256x256 or 256, not \(thumbnail)")
        }
        if let transform { _ = try TransformList.parseOption(transform) }
        if let options {
            do { _ = try ImageLoadOptions(names: options) } catch { throw ValidationError("--options: \(error)") }
        }
        if let format {
            guard out != nil else { throw ValidationError("--format needs --out DIR to write into") }
            let written = ImageFormat(fileExtension: format)
            guard written != .unknown, ImageCodersManager.shared.canEncode(to: written) else {
                throw ValidationError("--format must be jpg, png, gif, webp, avif, jxl, heic, tiff, bmp or ico, not \(format)")
            }
        }
        if force, out == nil { throw ValidationError("--force needs --out DIR") }
        guard concurrency > 0 else { throw ValidationError("--concurrency must be at least 1") }
        _ = try requestHeaders()
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds, not \(timeout)") }
        guard retries >= 0 else { throw ValidationError("--retry must be 0 or more, not \(retries)") }
        if let memoryCacheMiB, memoryCacheMiB < 0 { throw ValidationError("--memory-cache must be 0 or more") }
        for url in urls where URL(string: url)?.scheme == nil {
            throw ValidationError("not a URL: \(url) (file paths need file://)")
        }
    }

    /// `-H` and `--user-agent` as a dictionary; a header without a colon is a usage error.
    private func requestHeaders() throws -> [String: String] {
        var fields: [String: String] = [:]
        for header in headers {
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex else {
                throw ValidationError("-H must look like 'Name: value', not \(header)")
            }
            fields[String(header[..<colon]).trimmingCharacters(in: .whitespaces)] =
                String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        if let userAgent { fields["User-Agent"] = userAgent }
        return fields
    }

    func run() async throws {
        _ = try CacheFolder.prepare(root: cache.root, namespace: cache.namespace)
        var job = FetchJob(
            urls: urls.compactMap { URL(string: $0) }, outputDirectory: out.map { URL(fileURLWithPath: $0, isDirectory: true) },
            cacheRoot: cache.root, namespace: cache.namespace, thumbnail: thumbnail.flatMap(PixelSize.init(argument:)),
            transformer: try transform.map { try TransformList.parseOption($0, maximumPixelCount: limit.maxPixels) },
            options: try options.map { try ImageLoadOptions(names: $0) } ?? [],
            concurrency: concurrency, memoryCacheLimit: memoryCacheMiB.map { $0 << 20 })
        job.headers = try requestHeaders()
        job.timeout = timeout.map { .milliseconds(Int($0 * 1000)) }
        job.retries = retries
        job.maximumPixelCount = limit.maxPixels
        job.outputFormat = format.map { ImageFormat(fileExtension: $0) }
        job.replacesExisting = force
        let work = Task { [job, json] in try await FetchOutput(json: json).run(job) }
        let interruption = Interruption(message: nil) { work.cancel() }
        let report = try await work.value
        if interruption.isRequested {
            let cancelled = report.items.filter(\.wasCancelled).count
            printError("interrupted: cancelled \(cancelled) \(cancelled == 1 ? "load" : "loads") still under way")
            throw ExitCode(Interruption.exitStatus)
        }
        if report.failed > 0 { throw ExitCode.failure }
    }
}

/// The cache location options of `fetch` and `prefetch`.
struct CacheRootOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "The cache root (default: $XDG_CACHE_HOME/webimagekit or ~/.cache/webimagekit).")
    var cacheDirectory: String?

    @Option(help: "The cache namespace: a directory under the root.")
    var namespace = "default"

    var root: URL? { cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } }
}

/// How a fetch shows itself: progress bars on a terminal, a plain line per image when piped, JSON on request.
struct FetchOutput {
    let json: Bool

    /// Runs `job` (through `manager`, or a manager of its own), showing progress, then prints the summary
    /// table or the JSON report.
    func run(_ job: FetchJob, manager: ImageManager? = nil) async throws -> FetchReport {
        let interactive = !json && isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        let progress = TerminalProgress(total: job.urls.count, enabled: interactive)
        let plainLines = !json && !interactive
        let events: @Sendable (FetchJob.Event) -> Void = { event in
            progress.handle(event)
            if !json, case .finished(_, let item) = event, let error = item.error, !item.wasCancelled {
                progress.clear()
                printError("\(item.url): \(error)")
            } else if plainLines, case .finished(_, let item) = event {
                print(Self.line(item))
            }
        }
        let report: FetchReport
        if let manager {
            report = try await job.run(with: manager, events: events)
        } else {
            report = try await job.run(events: events)
        }
        progress.clear()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(plainLines ? report.totalsLine : report.table)
        }
        return report
    }

    /// `network JPEG 1024×768 1 frame 105.9 KB 12.3 ms http://…` for an image that loaded.
    static func line(_ item: FetchItem) -> String {
        let frames = item.frames == 1 ? "1 frame" : "\(item.frames ?? 0) frames"
        return "\(item.source) \(item.format ?? "-") \(item.width ?? 0)×\(item.height ?? 0) \(frames) "
            + "\(ByteCountText.format(item.bytes)) \(String(format: "%.1f ms", item.milliseconds)) \(item.url)"
    }
}
