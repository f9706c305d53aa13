#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A command run under a real terminal: a detached tmux session (on a socket of its own, without any user
/// configuration) whose pane output is logged from the first byte, so tests can check what was drawn and
/// what the screen shows at the end.
final class TerminalSession: Sendable {
    /// tmux's path, or `nil` when it is not installed (scripts/install-deps.sh installs it for CI).
    static let tmux: String? = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
        .map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    private let folder: URL
    private let socket: String
    private let log: URL

    /// Runs `body` with a session for `arguments`, and ends the session afterwards, whatever happens.
    static func with<T>(
        _ arguments: [String], in folder: URL, _ body: (TerminalSession) async throws -> T
    ) async throws -> T {
        let session = try await TerminalSession(arguments, in: folder)
        do {
            let result = try await body(session)
            await session.close()
            return result
        } catch {
            await session.close()
            throw error
        }
    }

    /// Starts `arguments` in a 120×30 terminal in `folder`. The command waits for a key so that logging is on
    /// before it prints; when it ends, the pane prints `[exit STATUS]` and stays open for ``screen()``.
    private init(_ arguments: [String], in folder: URL) async throws {
        self.folder = folder
        socket = folder.appendingPathComponent("tmux.socket").path
        log = folder.appendingPathComponent("terminal.log")
        let script = folder.appendingPathComponent("run.sh")
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        // The trap keeps the shell alive through Ctrl-C (the command gets the default disposition back).
        try "trap ':' INT\nread _\n\(quoted)\necho \"[exit $?]\"\nsleep 600\n".write(to: script, atomically: true, encoding: .utf8)
        try await tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "30", "-c", folder.path, "sh \(script.path)"])
        try await tmux(["pipe-pane", "-o", "cat >> '\(log.path)'"])
        try await tmux(["send-keys", "Enter"])
    }

    /// Everything the command wrote to the terminal so far, escape codes included.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The screen now, wrapped lines joined.
    func screen() async throws -> String { try await tmux(["capture-pane", "-p", "-J"]) }

    /// Sends keys, such as `C-c`.
    func send(_ keys: String) async throws { try await tmux(["send-keys", keys]) }

    /// Waits until `condition` holds for the output so far; records a failure and throws when `seconds` pass first.
    func wait(
        seconds: Double, for what: String, sourceLocation: SourceLocation = #_sourceLocation, until condition: (String) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition(output) {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out after \(seconds) s waiting for \(what); the screen:\n\(try await screen())", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The command's exit status, once it has ended (waits for `[exit N]`).
    func exitStatus(within seconds: Double) async throws -> Int32? {
        try await wait(seconds: seconds, for: "the command to end") { $0.contains("[exit ") }
        guard let range = output.range(of: "[exit ") else { return nil }
        return Int32(output[range.upperBound...].prefix { $0.isNumber })
    }

    /// Ends the tmux server of this session (and the command, if still running).
    private func close() async {
        _ = try? await tmux(["kill-server"])
    }

    /// Runs a tmux client and returns what it printed.
    ///
    /// Not through `Process`: the tmux server that `new-session` forks would inherit the descriptor
    /// Foundation watches for the client's exit (and any pipe another test has open) and keep it open for
    /// as long as it lives. Here the client gets /dev/null and a file, every other descriptor is closed,
    /// and `waitpid` waits for the client alone.
    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        guard let tmux = Self.tmux else { throw CocoaError(.executableNotLoadable) }
        let argv = [tmux, "-S", socket] + arguments
        let printed = folder.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8)).out")
        defer { try? FileManager.default.removeItem(at: printed) }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try Self.spawnAndWait(argv, stdout: printed.path) }) }
        }
        guard status == 0 else { throw CocoaError(.executableLoad, userInfo: ["status": status, "arguments": arguments]) }
        return (try? String(contentsOf: printed, encoding: .utf8)) ?? ""
    }

    /// Adds "close every descriptor from 3 on" (glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`,
    /// which the Swift overlay does not import; looked up at run time, else one close per descriptor).
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    private static func spawnAndWait(_ argv: [String], stdout: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        Self.closeFrom3(&actions)
        let arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        // The calling thread may block or ignore signals; the tmux server inherits both and would then never
        // see its panes exit, nor its kill-server through. Start it with an empty mask and default handlers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, arguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (status >> 8) & 0xFF   // WEXITSTATUS
    }
}
