import Foundation
import WebImageCore

/// One store waiting on a ``DiskCache``'s I/O queue to be written in a batch.
struct QueuedStore: Sendable {
    /// The cache key.
    var key: String
    /// Stored beside the bytes.
    var extendedData: Data?
    /// Makes the bytes on the I/O queue just before the batch is written (so that encoding stays off the
    /// caller); `nil` writes nothing. What it throws is handed to `completion` as it is.
    var bytes: @Sendable () throws -> Data?
    /// Hears the outcome on the I/O queue: `nil` when stored (or nothing to store), else what `bytes` threw or a
    /// ``DiskCacheError``.
    var completion: @Sendable ((any Error)?) -> Void
}

/// Stores queued on a ``DiskCache``'s I/O queue that one job there writes together (with one flush, when flushed).
///
/// A batch is open from its first store until its job starts or an operation that must run after it is
/// queued. While open, later stores join it, so they are written before operations queued ahead of them;
/// that never reorders one key's operations, because an operation on a key fences that key out of the
/// batch (a later store of it starts a new batch) and any other operation closes the batch.
final class StoreBatch: Sendable {
    /// The most stores in one batch: bounds the descriptors a group commit holds open (two per store at most).
    static let maximumCount = 64
    /// The most keys fenced out of one open batch before it is closed instead: bounds the set.
    static let maximumFencedKeys = 256

    private struct State {
        var stores: [QueuedStore] = []
        var fencedKeys: Set<String> = []
    }

    private let state: LockedValue<State>

    /// A batch holding `store`.
    init(_ store: QueuedStore) {
        state = LockedValue(State(stores: [store]))
    }

    /// Adds `store` unless the batch is full or its key is fenced; returns whether it was added.
    func add(_ store: QueuedStore) -> Bool {
        state.withLock { state in
            guard state.stores.count < Self.maximumCount, !state.fencedKeys.contains(store.key) else { return false }
            state.stores.append(store)
            return true
        }
    }

    /// Keeps later stores of `key` out of this batch: an operation on `key` was queued after its job. Returns
    /// false when the batch has fenced too many keys and must be closed instead.
    func fence(_ key: String) -> Bool {
        state.withLock { state in
            guard state.fencedKeys.count < Self.maximumFencedKeys else { return false }
            state.fencedKeys.insert(key)
            return true
        }
    }

    /// The stores, handed over once to the job that writes them.
    func take() -> [QueuedStore] {
        state.withLock { state in
            defer { state.stores = [] }
            return state.stores
        }
    }
}

extension DiskCache {
    /// Queues `store`: it joins the open batch, or starts one whose job is queued now. The job makes each
    /// store's bytes, writes them all as one group (``DiskStorage/store(_:)``) and calls each completion.
    func storeQueued(_ store: QueuedStore) {
        var store = store
        let (key, completion) = (store.key, store.completion)
        pending.withLock { $0.begin(key) }
        store.completion = { [pending] failure in
            pending.withLock { $0.end(key) }
            completion(failure)
        }
        openBatch.withLock { open in
            if let batch = open, batch.add(store) { return }
            let batch = StoreBatch(store)
            open = batch
            queue.async { self.commit(batch) }
        }
    }

    /// Writes `batch` on the I/O queue, closing it first so that no store joins it any more.
    private func commit(_ batch: StoreBatch) {
        openBatch.withLock { if $0 === batch { $0 = nil } }
        var writes: [DiskStorage.Write] = []
        var writing: [QueuedStore] = []
        for store in batch.take() {
            do {
                guard let data = try store.bytes() else {
                    store.completion(nil)
                    continue
                }
                writes.append(DiskStorage.Write(data: data, key: store.key, extendedData: store.extendedData))
                writing.append(store)
            } catch {
                store.completion(error)
            }
        }
        guard !writes.isEmpty else { return }
        for (store, failure) in zip(writing, storage.store(writes)) { store.completion(failure) }
    }
}
