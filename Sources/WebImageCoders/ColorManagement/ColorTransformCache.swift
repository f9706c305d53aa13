import Foundation
import WebImageCore

/// The transforms built so far, keyed by the profile's bytes and the input layout: a photo library
/// holds a handful of profiles (Display P3, Adobe RGB, a printer's CMYK), so building each once is
/// what makes colour management nearly free. Bounded: the least recently used transform goes first.
final class ColorTransformCache: Sendable {
    /// The cache every decoder shares.
    static let shared = ColorTransformCache(capacity: 32)

    /// The profile as plain bytes: a `Data` held in a global cache hides its storage pointer from
    /// LeakSanitizer (enum spare-bit packing), which then reports every cached profile as leaked.
    private struct Key: Hashable {
        let profile: [UInt8]
        let inputFormat: UInt32
    }

    private struct Entry {
        /// `nil`: lcms2 could not read the profile (it is then ignored, as browsers ignore bad profiles).
        let transform: ColorTransform?
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let capacity: Int
    private let state = LockedValue(State())

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The transform from `profile` to sRGB for pixels laid out as `inputFormat` (an lcms2 format),
    /// `.identity` for an sRGB profile, `nil` for one lcms2 cannot use. Built at most once while cached.
    func transform(for profile: Data, inputFormat: UInt32) -> ColorTransform? {
        let key = Key(profile: [UInt8](profile), inputFormat: inputFormat)
        return state.withLock { state in
            state.clock += 1
            if var entry = state.entries[key] {
                entry.lastUse = state.clock
                state.entries[key] = entry
                return entry.transform
            }
            // Built under the lock: a second thread meeting the same new profile waits instead of building it twice.
            let transform = LittleCMS.makeTransform(profile: profile, inputFormat: inputFormat)
            if state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
            }
            state.entries[key] = Entry(transform: transform, lastUse: state.clock)
            return transform
        }
    }

    /// How many transforms are cached (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
