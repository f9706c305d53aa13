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

/// Ctrl-C for a batch: the first one lets the work under way finish and starts nothing new (the command
/// then prints its summary and exits 130); a second one exits at once.
/// `@unchecked Sendable`: the signal source is set up in `init` and never touched again; the flag is locked.
final class Interruption: @unchecked Sendable {
    /// The exit status of a run stopped by Ctrl-C (128 + SIGINT), as shells report it.
    static let exitStatus: Int32 = 130

    private let requested = LockedValue(false)
    private let source: any DispatchSourceSignal

    /// Starts listening for SIGINT, instead of the default of exiting at once.
    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let requested = self.requested
        source.setEventHandler {
            let again = requested.withLock { wasRequested in
                defer { wasRequested = true }
                return wasRequested
            }
            if again { _exit(Self.exitStatus) }
            printError("interrupted: finishing the files under way (Ctrl-C again to quit at once)")
        }
        source.resume()
    }

    /// Whether Ctrl-C was pressed.
    var isRequested: Bool { requested.withLock { $0 } }
}
