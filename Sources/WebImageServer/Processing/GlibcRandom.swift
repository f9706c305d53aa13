/// glibc's `random()` after `srandom(seed)`: the additive feedback generator of degree 31 (`TYPE_3`) that
/// thumbor's `noise` filter draws from, so its results can be reproduced exactly.
///
/// The state is seeded with the Park–Miller generator (multiplier 16807, modulus 2³¹ − 1), then 310 values
/// are discarded; each value is `(state[i] += state[i − 31 + 3]) >> 1`, as glibc's `random_r` computes it.
struct GlibcRandom: Sendable {
    /// The 31 words of state.
    private var state: [UInt32]
    /// The index of the word `random_r` calls `fptr`.
    private var front = 3
    /// The index of the word `random_r` calls `rptr`.
    private var rear = 0

    /// The generator after `srandom(seed)`; glibc takes a seed of 0 as 1.
    init(seed: UInt32) {
        var word = Int(Int32(bitPattern: seed == 0 ? 1 : seed))
        state = [UInt32(truncatingIfNeeded: word)]
        for _ in 1..<31 {
            let high = word / 127_773, low = word % 127_773
            word = 16_807 * low - 2_836 * high
            if word < 0 { word += 2_147_483_647 }
            state.append(UInt32(truncatingIfNeeded: word))
        }
        for _ in 0..<310 { _ = next() }
    }

    /// The next value, 0…2³¹ − 1, as `random()` returns it.
    mutating func next() -> Int {
        state[front] &+= state[rear]
        let value = Int(state[front] >> 1)
        front = front == 30 ? 0 : front + 1
        rear = rear == 30 ? 0 : rear + 1
        return value
    }
}
