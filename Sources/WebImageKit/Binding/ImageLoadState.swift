public import Foundation

/// A target's loads, by slot: the running operation, the URL and a generation number that tells a
/// current load from a replaced one (SDWebImage's operation map and `sd_imageURL`).
/// Keep one per target; it is thread-safe.
public final class ImageLoadState: Sendable {
    private struct Slot {
        var generation: UInt64 = 0
        var url: URL?
        var operations: [any Cancellable] = []
    }

    private struct State {
        var slots: [ImageSlot: Slot] = [:]
        var transition: ImageTransition?
        var nextGeneration: UInt64 = 0
    }

    private let state: LockedValue<State>

    /// Creates empty bookkeeping; `transition` is the target's default.
    public init(transition: ImageTransition? = nil) {
        state = LockedValue(State(transition: transition))
    }

    /// The transition used when a load does not name one.
    public var transition: ImageTransition? {
        get { state.withLock { $0.transition } }
        set { state.withLock { $0.transition = newValue } }
    }

    /// The URL last asked for in `slot`; `nil` after a load with no URL.
    public func url(for slot: ImageSlot = .image) -> URL? {
        state.withLock { $0.slots[slot]?.url }
    }

    /// Cancels what runs in `slot`: its result will not be set.
    public func cancel(_ slot: ImageSlot = .image) {
        let operations = state.withLock { state -> [any Cancellable] in
            state.nextGeneration += 1
            state.slots[slot]?.generation = state.nextGeneration
            defer { state.slots[slot]?.operations = [] }
            return state.slots[slot]?.operations ?? []
        }
        for operation in operations { operation.cancel() }
    }

    /// Cancels every slot.
    public func cancelAll() {
        let slots = state.withLock { Array($0.slots.keys) }
        for slot in slots { cancel(slot) }
    }

    /// Starts a new load in `slot`: cancels the one before it, records `url`, and returns the
    /// generation the new load's results must carry.
    func begin(_ slot: ImageSlot, url: URL?) -> UInt64 {
        let (generation, previous) = state.withLock { state -> (UInt64, [any Cancellable]) in
            state.nextGeneration += 1
            let previous = state.slots[slot]?.operations ?? []
            state.slots[slot] = Slot(generation: state.nextGeneration, url: url, operations: [])
            return (state.nextGeneration, previous)
        }
        for operation in previous { operation.cancel() }
        return generation
    }

    /// Keeps `operation` under `slot` while `generation` is current; cancels it otherwise.
    func add(_ operation: any Cancellable, to slot: ImageSlot, generation: UInt64) {
        let isCurrent = state.withLock { state in
            guard state.slots[slot]?.generation == generation else { return false }
            state.slots[slot]?.operations.append(operation)
            return true
        }
        if !isCurrent { operation.cancel() }
    }

    /// Whether `generation` is still the current load of `slot` (the #699 guard: a replaced load never sets its image).
    func isCurrent(_ generation: UInt64, in slot: ImageSlot) -> Bool {
        state.withLock { $0.slots[slot]?.generation == generation }
    }

    /// Forgets the operations of `slot` once its load `generation` is over.
    func finish(_ slot: ImageSlot, generation: UInt64) {
        state.withLock { state in
            if state.slots[slot]?.generation == generation { state.slots[slot]?.operations = [] }
        }
    }

    /// Whether a load is running in `slot`.
    public func isLoading(_ slot: ImageSlot = .image) -> Bool {
        state.withLock { !($0.slots[slot]?.operations.isEmpty ?? true) }
    }
}
