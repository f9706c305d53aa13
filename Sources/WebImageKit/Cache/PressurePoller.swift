import Foundation
import Glibc
import Logging

/// Waits on its own thread for `POLLPRI` on a descriptor (a PSI trigger's file) and calls `onPressure` for
/// each; ``stop()`` wakes it through a pipe. The thread closes both descriptors when it ends.
final class PressurePoller: Sendable {
    /// The pipe's write end while running; closing it wakes the thread.
    private let wakeUp: LockedValue<Int32?>

    /// Starts polling `descriptor`, which it then owns; `nil` (logged) when no pipe could be made.
    init?(descriptor: Int32, logger: Logger, onPressure: @escaping @Sendable () -> Void) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            logger.notice("memory pressure watcher: no pipe", metadata: ["error": "\(String(cString: strerror(errno)))"])
            return nil
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeUp = LockedValue(pipeEnds[1])
        let stopReader = pipeEnds[0]
        let thread = Thread {
            Self.run(descriptor: descriptor, stopReader: stopReader, logger: logger, onPressure: onPressure)
            close(descriptor)
            close(stopReader)
        }
        thread.name = "WebImageKit.MemoryPressure"
        thread.start()
    }

    /// Ends the thread; calling it again does nothing.
    func stop() {
        wakeUp.withLock { writer in
            if let descriptor = writer { close(descriptor) }
            writer = nil
        }
    }

    private static func run(descriptor: Int32, stopReader: Int32, logger: Logger, onPressure: @Sendable () -> Void) {
        var fds = [
            pollfd(fd: descriptor, events: Int16(POLLPRI), revents: 0),
            pollfd(fd: stopReader, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.notice("memory pressure watcher stopped: poll failed", metadata: ["error": "\(String(cString: strerror(errno)))"])
                return
            }
            if fds[1].revents != 0 { return }  // stop()
            if fds[0].revents & Int16(POLLERR | POLLNVAL) != 0 {
                logger.notice("memory pressure watcher stopped: the trigger went away")
                return
            }
            if fds[0].revents & Int16(POLLPRI) != 0 { onPressure() }
        }
    }
}
