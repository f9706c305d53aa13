import Dispatch
import Foundation
import WebImageKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C for a batch: the first one stops the work (a convert batch lets the files under way finish and
/// starts nothing new; fetch cancels its loads), the command then prints its summary and exits 130; a
/// second one exits at once.
/// `@unchecked Sendable`: the signal source is set up in `init` and never touched again; the flag is locked.
final class Interruption: @unchecked Sendable {
    /// The exit status of a run stopped by Ctrl-C (128 + SIGINT), as shells report it.
    static let exitStatus: Int32 = 130

    private let requested = LockedValue(false)
    private let source: any DispatchSourceSignal

    /// Starts listening for SIGINT, instead of the default of exiting at once. The first Ctrl-C prints
    /// `message` (if any: a command that draws progress in place prints its own once it has cleared it) and
    /// calls `stop`.
    init(
        message: String? = "interrupted: finishing the files under way (Ctrl-C again to quit at once)",
        stop: @escaping @Sendable () -> Void = {}
    ) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let requested = self.requested
        source.setEventHandler {
            let again = requested.withLock { wasRequested in
                defer { wasRequested = true }
                return wasRequested
            }
            if again { _exit(Self.exitStatus) }
            if let message { printError(message) }
            stop()
        }
        source.resume()
    }

    /// Whether Ctrl-C was pressed.
    var isRequested: Bool { requested.withLock { $0 } }
}
