/// How urgently a download should start when the downloader's queue is full.
///
/// A queued download runs at the highest priority any of its subscribers asked for.
public enum DownloadPriority: Int, Comparable, Sendable, CaseIterable {
    /// Starts only when no normal or high priority download is waiting.
    case low = 0
    /// The default.
    case normal = 1
    /// Starts before every waiting normal and low priority download.
    case high = 2

    /// The priority that `options` ask for: high wins over low; neither means normal.
    public init(_ options: DownloadOptions) {
        if options.contains(.highPriority) {
            self = .high
        } else if options.contains(.lowPriority) {
            self = .low
        } else {
            self = .normal
        }
    }

    /// Orders priorities low < normal < high.
    public static func < (lhs: DownloadPriority, rhs: DownloadPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// The order in which queued downloads of one priority start.
public enum DownloadExecutionOrder: Sendable, Hashable {
    /// First in, first out: the oldest waiting download starts first (the default).
    case fifo
    /// Last in, first out: the newest waiting download starts first.
    case lifo
}
