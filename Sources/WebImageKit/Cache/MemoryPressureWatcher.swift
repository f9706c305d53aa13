import Foundation
import WebImageCore
public import Logging
import Glibc

/// Trims caches when Linux reports memory pressure (SDWebImage clears its memory cache on a memory warning):
/// an opt-in watcher of the kernel's pressure stall information (PSI).
///
/// It writes a trigger to `/proc/pressure/memory` ("some 150000 2000000": tasks stalled on memory for 150 ms
/// within 2 s) and waits on its own thread for the kernel's notification, then calls
/// ``ImageCache/trimMemory()`` on each cache. The kernel notifies at most once per window. Watching lasts
/// as long as the watcher: keep it, and release it to stop.
///
/// ```swift
/// // nil where PSI is not available; the log says why. Keep it as long as you want the caches trimmed.
/// let watcher = MemoryPressureWatcher(caches: [ImageCache.shared])
/// ```
///
/// PSI needs Linux 4.20 or later with it enabled. Before Linux 6.5 a trigger needs `CAP_SYS_RESOURCE`;
/// since then any process may set one whose window is a multiple of 2 s (hence the default). A window must
/// lie between 500 ms and 10 s, and the stall must not exceed it.
public final class MemoryPressureWatcher: Sendable {
    private let poller: PressurePoller

    /// Starts watching, or returns `nil` (logging why at notice level) when memory pressure notifications
    /// are not available: no `/proc/pressure/memory`, no permission, or a trigger the kernel refuses.
    /// - Parameters:
    ///   - caches: Trimmed on each notification; default ``ImageCache/shared``.
    ///   - stall: How long tasks must have stalled on memory within `window` to notify.
    ///   - window: The span the stall is measured over.
    ///   - logger: Receives why watching is not possible, and each notification (debug).
    public convenience init?(
        caches: [ImageCache] = [ImageCache.shared],
        stall: Duration = .milliseconds(150),
        window: Duration = .seconds(2),
        logger: Logger = Logger(label: "WebImageKit.MemoryPressureWatcher")
    ) {
        let trigger = Self.trigger(stall: stall, window: window)
        self.init(path: "/proc/pressure/memory", trigger: trigger, logger: logger) {
            logger.debug("memory pressure: trimming the memory caches")
            for cache in caches { cache.trimMemory() }
        }
    }

    /// Watches the PSI file at `path` with `trigger`; `nil` when it cannot be opened or refuses the trigger.
    init?(path: String, trigger: String, logger: Logger, onPressure: @escaping @Sendable () -> Void) {
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            logger.notice("memory pressure notifications are not available", metadata: [
                "path": "\(path)", "error": "\(String(cString: strerror(errno)))"])
            return nil
        }
        let bytes = Array(trigger.utf8) + [0]
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            logger.notice("memory pressure notifications are not available: the trigger was refused", metadata: [
                "path": "\(path)", "trigger": "\(trigger)", "error": "\(String(cString: strerror(errno)))"])
            close(descriptor)
            return nil
        }
        guard let poller = PressurePoller(descriptor: descriptor, logger: logger, onPressure: onPressure) else {
            close(descriptor)
            return nil
        }
        self.poller = poller
    }

    deinit { poller.stop() }

    /// Stops watching now rather than when the watcher is released; the kernel drops the trigger when the
    /// thread closes the file. Calling it again does nothing.
    func stop() { poller.stop() }

    /// The PSI trigger for `stall` within `window`, in microseconds: `"some <stall> <window>"`.
    static func trigger(stall: Duration, window: Duration) -> String {
        "some \(stall.microseconds) \(window.microseconds)"
    }
}
