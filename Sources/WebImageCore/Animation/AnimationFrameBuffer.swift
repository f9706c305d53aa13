/// The decoded frames ``AnimatedImagePlayer`` keeps: at most ``capacity`` of them, all within the
/// window of `capacity` frames that starts at the frame being shown (wrapping around to frame 0).
/// Moving the window drops the frames that fall out of it, so the buffer never holds more than
/// `capacity` frames.
struct AnimationFrameBuffer {
    /// The most frames kept, between 1 and the frame count.
    let capacity: Int
    let frameCount: Int
    /// The first frame of the window: the one being shown.
    private(set) var anchor = 0
    private var frames: [Int: PixelBuffer] = [:]

    init(capacity: Int, frameCount: Int) {
        self.frameCount = max(frameCount, 1)
        self.capacity = min(max(capacity, 1), self.frameCount)
    }

    var count: Int { frames.count }
    var indices: [Int] { frames.keys.sorted() }

    subscript(index: Int) -> PixelBuffer? { frames[index] }

    /// Whether frame `index` lies in the window starting at ``anchor``.
    func isInWindow(_ index: Int) -> Bool {
        (index - anchor + frameCount) % frameCount < capacity
    }

    /// Moves the window to start at `index`, dropping frames now outside it.
    mutating func moveAnchor(to index: Int) {
        guard index != anchor else { return }
        anchor = index
        if frames.count > 0, capacity < frameCount {
            frames = frames.filter { isInWindow($0.key) }
        }
    }

    /// Keeps `pixels` as frame `index` when it lies in the window; returns whether it was kept.
    @discardableResult
    mutating func insert(_ pixels: PixelBuffer, at index: Int) -> Bool {
        guard isInWindow(index) else { return false }
        frames[index] = pixels
        return true
    }

    /// Drops every frame.
    mutating func removeAll() {
        frames.removeAll()
    }
}
