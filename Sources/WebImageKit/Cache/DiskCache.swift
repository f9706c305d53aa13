import Dispatch
public import Foundation
import WebImageCore

/// A disk cache whose file I/O runs on the cache's own serial dispatch queue (SDWebImage's `ioQueue`), behind
/// `async` functions, not on Swift's cooperative thread pool; the one exception is the check with which a lookup
/// answers a miss (``entry(forKey:)``): an `access` of each place the entry may be, no bytes read.
///
/// One queue per cache serialises its stores, removals and cleans, so a clean never races a store of the
/// same cache. Stores waiting on the queue are written together as one batch (sharing one flush when entries are
/// flushed, see ``storeQueued(_:)``), without reordering any key's operations. Entries are written atomically (a temporary
/// file, then a rename), under the MD5 of their key, with optional extended data in an extended attribute; ``clean()`` removes expired entries, then the
/// least recently used ones beyond the size limit.
///
/// ```swift
/// let disk = DiskCache(namespace: "default")
/// try await disk.store(data, forKey: key, extendedData: validators)
/// if let entry = await disk.entry(forKey: key) { … }
/// ```
public final class DiskCache: Sendable {
    /// The file operations this cache runs on its queue.
    package let storage: DiskStorage
    let queue: DispatchQueue
    /// The queue as an executor: `async` operations move their task onto it, no continuation involved.
    private let executor: QueueExecutor
    /// The batch of queued stores that later stores may still join (``storeQueued(_:)``).
    let openBatch = LockedValue<StoreBatch?>(nil)
    /// The operations queued and not yet done: a lookup of a key none of them touches may answer a miss itself.
    let pending = LockedValue(PendingOperations())

    /// Creates a cache over `storage`.
    package init(storage: DiskStorage) {
        self.storage = storage
        let queue = DispatchQueue(label: "webimagekit.diskcache.\(storage.directory.lastPathComponent)", qos: .utility)
        self.queue = queue
        self.executor = QueueExecutor(queue: queue)
    }

    /// Creates a cache on `<root>/<namespace>`; `root` defaults to ``defaultRoot(environment:)``.
    public convenience init(
        namespace: String = "default",
        root: URL? = nil,
        configuration: DiskCacheConfiguration = DiskCacheConfiguration()
    ) {
        self.init(storage: DiskStorage(namespace: namespace, root: root, configuration: configuration))
    }

    /// The main directory.
    public var directory: URL { storage.directory }

    /// Where caches live when no root is given: `$XDG_CACHE_HOME/webimagekit`, else `~/.cache/webimagekit`.
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        DiskStorage.defaultRoot(environment: environment)
    }

    /// The file that holds (or would hold) `key`'s entry: the MD5 of the key plus its extension.
    public func fileURL(forKey key: String) -> URL { storage.fileURL(forKey: key) }

    /// Runs `body` on the I/O queue and waits for it, blocking the calling thread.
    ///
    /// Use it only where a synchronous answer was asked for; never call it from inside another `sync` body.
    package func sync<T, E: Error>(_ body: (DiskStorage) throws(E) -> T) throws(E) -> T {
        order(after: nil)
        pending.withLock { $0.begin(nil) }
        defer { pending.withLock { $0.end(nil) } }
        let result: Result<T, E> = queue.sync { Result { () throws(E) -> T in try body(storage) } }
        return try result.get()
    }

    /// Queues `body` on the I/O queue without waiting: for callback-style callers. With `key`, `body` only
    /// touches that key's entry (stores of other keys queued later may be written before it).
    package func enqueue(forKey key: String? = nil, _ body: @escaping @Sendable (DiskStorage) -> Void) {
        pending.withLock { $0.begin(key) }
        openBatch.withLock { open in
            Self.order(after: key, open: &open)
            queue.async { [storage, pending] in
                body(storage)
                pending.withLock { $0.end(key) }
            }
        }
    }

    /// Runs `body` on the I/O queue (the calling task moves there while it runs) and returns its result. With
    /// `key`, `body` only touches that key's entry (stores of other keys queued later may be written before it).
    func run<T: Sendable, E: Error>(
        forKey key: String? = nil, _ body: @escaping @Sendable (DiskStorage) throws(E) -> T
    ) async throws(E) -> T {
        order(after: key)
        pending.withLock { $0.begin(key) }
        defer { pending.withLock { $0.end(key) } }
        let storage = storage
        return try await executor.run { () throws(E) -> T in try body(storage) }
    }

    /// Keeps the stores queued from now on behind an operation about to be queued: behind every operation
    /// when `key` is `nil`, else behind those of `key` (``StoreBatch/fence(_:)``).
    private func order(after key: String?) {
        openBatch.withLock { Self.order(after: key, open: &$0) }
    }

    /// ``order(after:)`` with the lock held.
    private static func order(after key: String?, open: inout StoreBatch?) {
        guard let batch = open else { return }
        if let key, batch.fence(key) { return }
        open = nil
    }
}

extension DiskCache {
    /// The bytes and extended data stored for `key`, or `nil` on a miss.
    ///
    /// When no operation queued touches `key`, a miss is answered on the calling thread (an `access` of each place
    /// the entry may be, no bytes read), without a trip to the I/O queue behind the stores waiting there.
    public func entry(forKey key: String) async -> DiskCacheEntry? {
        if answersMissHere(forKey: key) { return nil }
        return await run(forKey: key) { $0.entry(forKey: key) }
    }

    /// Whether a lookup of `key` is a miss that needs no trip to the I/O queue: nothing queued touches the key, and
    /// no file (nor link) is where its entry would be.
    func answersMissHere(forKey key: String) -> Bool {
        pending.withLock { $0.isIdle(key) } && !storage.mayHaveEntry(forKey: key)
    }

    /// The extended data and storage date of `key`'s entry, without reading its bytes; `nil` on a miss.
    package func metadata(forKey key: String) async -> (extendedData: Data?, modificationDate: Date)? {
        await run(forKey: key) { $0.metadata(forKey: key) }
    }

    /// Marks `key`'s entry as stored now (a revalidation found it current); false without an entry.
    @discardableResult
    package func markFresh(forKey key: String) async -> Bool {
        await run(forKey: key) { $0.markFresh(forKey: key) }
    }

    /// Whether an entry for `key` exists in the main or a read-only directory.
    public func contains(_ key: String) async -> Bool {
        await run(forKey: key) { $0.contains(key) }
    }

    /// Stores `data` (and optional extended data) for `key` atomically; stores queued at the same time are written
    /// as one batch.
    public func store(_ data: Data, forKey key: String, extendedData: Data? = nil) async throws(DiskCacheError) {
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            storeQueued(QueuedStore(key: key, extendedData: extendedData, bytes: { data }) { continuation.resume(returning: $0) })
        }
        // The bytes closure cannot throw, so a failure is the disk's.
        if let failure = failure as? DiskCacheError { throw failure }
    }

    /// Replaces or removes the extended data of `key`'s entry.
    public func setExtendedData(_ extendedData: Data?, forKey key: String) async throws(DiskCacheError) {
        try await run(forKey: key) { (storage: DiskStorage) throws(DiskCacheError) in
            try storage.setExtendedData(extendedData, forKey: key)
        }
    }

    /// Removes `key`'s entry from the main directory.
    public func remove(forKey key: String) async throws(DiskCacheError) {
        try await run(forKey: key) { (storage: DiskStorage) throws(DiskCacheError) in try storage.remove(forKey: key) }
    }

    /// Removes expired entries, then trims by size.
    @discardableResult
    public func clean() async throws(DiskCacheError) -> DiskCleanResult {
        try await run { (storage: DiskStorage) throws(DiskCacheError) in try storage.clean() }
    }

    /// Deletes every entry and recreates the directory.
    public func clear() async throws(DiskCacheError) {
        try await run { (storage: DiskStorage) throws(DiskCacheError) in try storage.clear() }
    }

    /// The bytes allocated on disk for all entries.
    public func totalSize() async throws(DiskCacheError) -> Int {
        try await run { (storage: DiskStorage) throws(DiskCacheError) in try storage.totalSize() }
    }

    /// The number of entries in the main directory.
    public func count() async throws(DiskCacheError) -> Int {
        try await run { (storage: DiskStorage) throws(DiskCacheError) in try storage.count() }
    }
}

/// The operations a ``DiskCache`` has queued and not yet finished, counted by key; those on no one key (a clean,
/// a clear) count for every key.
struct PendingOperations {
    private var byKey: [String: Int] = [:]
    private var withoutKey = 0

    /// An operation on `key` (on every key when `nil`) was queued.
    mutating func begin(_ key: String?) {
        if let key { byKey[key, default: 0] += 1 } else { withoutKey += 1 }
    }

    /// An operation ``begin(_:)`` counted is done.
    mutating func end(_ key: String?) {
        guard let key else {
            withoutKey -= 1
            return
        }
        if byKey[key] == 1 { byKey[key] = nil } else { byKey[key, default: 0] -= 1 }
    }

    /// Whether nothing queued may still change `key`'s entry.
    func isIdle(_ key: String) -> Bool {
        withoutKey == 0 && byKey[key] == nil
    }
}
