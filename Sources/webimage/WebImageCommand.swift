import ArgumentParser
import NIOCore
import NIOPosix
import CWebImageShims
import Foundation
import WebImageKit
import WebImageTools

@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, cache, inspect and convert images with WebImageKit.",
        version: "webimage 0.1.0 (WebImageKit)",
        subcommands: [
            DemoCommand.self, FetchCommand.self, PrefetchCommand.self, InfoCommand.self, ConvertCommand.self, CacheCommand.self,
            DecodeCommand.self, ServeCommand.self, SamplesCommand.self, BenchCacheCommand.self, BenchDownloadCommand.self, BenchManagerCommand.self, SoakCommand.self,
        ]
    )

    static func main() async {
        mapLargeInputFiles()
        do {
            var command = try parseAsRoot()
            // The server keeps Swift's own threads and glibc's own malloc thresholds. Each cost it throughput with
            // a new source on every request: on the event loops, where its connections and source fetches live,
            // 0.82–0.85 of libjpeg-turbo's ceiling against 0.88–0.93; with the fixed thresholds, 0.76–0.80
            // against 0.91 (every decoded buffer mapped and its pages faulted in afresh).
            if !(command is ServeCommand) {
                returnLargeBlocksToTheSystem()
                runTasksOnEventLoops()
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitReporting(error)
        }
    }

    /// Exits for `error`: a ``ToolError`` (a path or URL that failed) as its one line, status 1; a usage error as one line on standard error naming the help to read, status 64
    /// (sysexits' EX_USAGE); everything else (help, `--version`, failures already reported) as the argument
    /// parser does.
    private static func exitReporting(_ error: any Error) -> Never {
        if let error = error as? ToolError {
            printError(error.description)
            Foundation.exit(ExitCode.failure.rawValue)
        }
        let code = exitCode(for: error)
        guard code == .validationFailure else { exit(withError: error) }
        let message = message(for: error).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        printError("\(message) (see '\(helpCommand) --help')")
        Foundation.exit(code.rawValue)
    }

    /// `webimage convert` when the arguments name a subcommand, else `webimage`.
    private static var helpCommand: String {
        let names = configuration.subcommands.map { $0._commandName }
        guard let first = CommandLine.arguments.dropFirst().first, names.contains(first) else { return "webimage" }
        return "webimage \(first)"
    }
}

/// Makes glibc hand every block of 128 KiB or more straight to `mmap`, so that freeing it returns the memory,
/// and keep 1 MiB free at the top of each heap.
///
/// Decoded images are megabytes each. By default glibc raises its mmap threshold to the size of the largest
/// block freed so far (up to 32 MiB), after which pixel buffers come from the heap and, once freed, mostly
/// stay in the process: 200 loads of 2048×1365 images peaked at 363–491 MB, against 334–343 with a fixed one
/// (`scripts/bench-load-memory.sh`; with a 1 MiB memory cache, 128–132 against 90–101). A fixed threshold turns
/// that adaptation off, and with it the raising of the trim threshold, which then stays at 128 KiB: a heap
/// whose top held a freed 100 KB download body gave its pages back, and the next body faulted them in again
/// (300 downloads of 106 KB: 5,100 page faults and 36 ms in process, 2,000 and 27 ms with 1 MiB). Programs
/// embedding the library can do the same (`mallopt`, or
/// `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=1048576` in the environment).
private func returnLargeBlocksToTheSystem() {
    _ = wik_set_malloc_thresholds(128 * 1024, 1 << 20)
}

/// Maps large input files instead of reading them (``MappedInput``), once SIGBUS, raised when another program
/// cuts a mapped file short, ends the tool with a message instead of a crash.
private func mapLargeInputFiles() {
    if wik_exit_on_bus_error() == 1 { MappedInput.enable() }
}

/// Writes a message to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("webimage: \(message)\n".utf8))
}

/// Makes Swift's global executor NIO's event loops (those of `MultiThreadedEventLoopGroup.singleton`, where the
/// downloader's connections live), as NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`
/// does (its `dlsym` cannot see the hook in a binary that exports no symbols). Called before any task starts. A
/// task resumed by a response then runs on the thread that read it instead of waking one of Swift's own: 1,000
/// downloads take a third less CPU (benchmarks/RESULTS.md). Decoding and encoding still run on WebImageKit's own
/// threads. So nothing these commands run as a task may wait for an `EventLoopFuture` (NIO stops the process).
private func runTasksOnEventLoops() {
    _ = wik_route_global_executor { job in
        guard let job else { return }
        // `any()` stays on the loop it is called from, so a task keeps its thread.
        MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(unsafeBitCast(job, to: UnownedJob.self))
    }
}
