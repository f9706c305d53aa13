/// How a target should animate an image in when a load sets it (SDWebImage's `SDWebImageTransition`).
/// A description only: the target runs the animation with its own toolkit.
///
/// It is used only for whole images that came from the network, or from any source with
/// ``ImageLoadOptions/forceTransition``; placeholders and cache hits are set without it.
public struct ImageTransition: Sendable, Hashable {
    /// The kind of animation (the seeds' presets, plus a name for anything else).
    public enum Kind: Sendable, Hashable {
        /// A cross-fade from the old image to the new one.
        case fade
        /// A flip around the vertical axis, from the left.
        case flipFromLeft
        /// A flip around the vertical axis, from the right.
        case flipFromRight
        /// A flip around the horizontal axis, from the top.
        case flipFromTop
        /// A flip around the horizontal axis, from the bottom.
        case flipFromBottom
        /// A page curling up.
        case curlUp
        /// A page curling down.
        case curlDown
        /// A target-defined animation.
        case custom(String)
    }

    /// The timing curve.
    public enum Curve: Sendable, Hashable {
        /// Constant speed.
        case linear
        /// Slow at the start.
        case easeIn
        /// Slow at the end.
        case easeOut
        /// Slow at both ends.
        case easeInOut
    }

    /// The animation.
    public var kind: Kind
    /// How long it lasts (default 0.5 s).
    public var duration: Duration
    /// Its timing curve (default ease-in-out).
    public var curve: Curve

    /// Creates a transition.
    public init(_ kind: Kind, duration: Duration = .milliseconds(500), curve: Curve = .easeInOut) {
        self.kind = kind
        self.duration = duration
        self.curve = curve
    }

    /// A cross-fade of 0.5 s; other kinds are made with ``init(_:duration:curve:)``.
    public static let fade = ImageTransition(.fade)
}
