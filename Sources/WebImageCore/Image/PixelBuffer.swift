/// A bitmap in the one layout every WebImageKit API uses: 8-bit RGBA, sRGB, rows top to bottom,
/// no padding (`bytesPerRow == 4 × width`), and **straight (non-premultiplied) alpha**.
///
/// Straight alpha keeps lossless formats exact through a decode/encode round trip (premultiplying
/// loses colour where alpha is low). Decoders convert whatever the file holds (grey, palette, CMYK,
/// 16-bit, premultiplied) into this layout; encoders take it as it is. Code that filters pixels
/// (the resampler, blur) premultiplies internally and converts back.
///
/// The storage is a copy-on-write `[UInt8]`, so a buffer is a cheap, `Sendable` value.
public struct PixelBuffer: Hashable, Sendable {
    /// The largest width or height accepted anywhere (the limit of every supported format's header).
    public static let maximumSide = 1 << 24
    /// Bytes per pixel: red, green, blue, alpha.
    public static let bytesPerPixel = 4

    /// The number of columns.
    public let width: Int
    /// The number of rows.
    public let height: Int
    /// Whether any pixel may be non-opaque. `false` promises every alpha byte is 255.
    public let hasAlpha: Bool
    /// The pixels, `4 × width × height` bytes: R, G, B, A per pixel.
    public private(set) var bytes: [UInt8]

    /// Wraps existing RGBA bytes; `bytes.count` must be `4 × width × height`.
    public init(width: Int, height: Int, hasAlpha: Bool, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0 && bytes.count == width * height * Self.bytesPerPixel,
                     "PixelBuffer: \(bytes.count) bytes do not hold \(width)×\(height) RGBA pixels")
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.bytes = bytes
    }

    /// Creates a buffer filled with one colour.
    public init(width: Int, height: Int, fill: RGBA = .transparent) {
        let count = width * height
        var bytes = [UInt8](repeating: 0, count: count * Self.bytesPerPixel)
        if fill != .transparent {
            bytes.withUnsafeMutableBytes { raw in
                let pixels = raw.bindMemory(to: UInt32.self)
                pixels.initialize(repeating: fill.packed)
            }
        }
        self.init(width: width, height: height, hasAlpha: fill.alpha != 255, bytes: bytes)
    }

    /// Creates a buffer by letting `body` write every byte of uninitialised storage (no zero fill).
    ///
    /// `body` receives `4 × width × height` bytes and must initialise all of them or throw.
    public init<E: Error>(
        width: Int, height: Int, hasAlpha: Bool,
        initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws(E) -> Void
    ) throws(E) {
        try self.init(width: width, height: height, hasAlpha: hasAlpha, mappingPagesBeside: true, initializingWith: body)
    }

    /// The same, saying whether a second thread may map the storage's pages while `body` writes them
    /// (large buffers on more than one core, see `LargeAllocation.populatingPages`): not where `body`
    /// already keeps every core busy, as a decoder with a resampling thread of its own does.
    package init<E: Error>(
        width: Int, height: Int, hasAlpha: Bool, mappingPagesBeside: Bool,
        initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws(E) -> Void
    ) throws(E) {
        let count = width * height * Self.bytesPerPixel
        var failure: E?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            LargeAllocation.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            do throws(E) {
                let output = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
                if mappingPagesBeside {
                    try LargeAllocation.populatingPages(of: UnsafeMutableRawBufferPointer(output)) { () throws(E) in try body(output) }
                } else {
                    try body(output)
                }
                initialized = count
            } catch {
                // Leave the bytes uninitialised (UInt8 is trivial) and report the failure.
                initialized = 0
                failure = error
            }
        }
        if let failure { throw failure }
        self.init(width: width, height: height, hasAlpha: hasAlpha, bytes: bytes)
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// Bytes in one row, always `4 × width`.
    public var bytesPerRow: Int { width * Self.bytesPerPixel }
    /// The memory the pixels take, in bytes.
    public var byteCount: Int { bytes.count }

    /// The colour at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            let index = (y * width + x) * Self.bytesPerPixel
            return RGBA(red: bytes[index], green: bytes[index + 1], blue: bytes[index + 2], alpha: bytes[index + 3])
        }
        set {
            let index = (y * width + x) * Self.bytesPerPixel
            bytes[index] = newValue.red
            bytes[index + 1] = newValue.green
            bytes[index + 2] = newValue.blue
            bytes[index + 3] = newValue.alpha
        }
    }

    /// Calls `body` with the bytes, for reading without a copy.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// Whether every alpha byte is 255, found by scanning the pixels.
    public var isOpaque: Bool {
        bytes.withUnsafeBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            let alphaMask = RGBA(red: 0, green: 0, blue: 0, alpha: 255).packed
            return pixels.allSatisfy { $0 & alphaMask == alphaMask }
        }
    }

    /// The same pixels with `hasAlpha` recomputed from their content.
    public func withAlphaFlagFromContent() -> PixelBuffer {
        PixelBuffer(width: width, height: height, hasAlpha: !isOpaque, bytes: bytes)
    }
}

/// One straight-alpha RGBA colour.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    /// The red component, 0–255.
    public var red: UInt8
    /// The green component, 0–255.
    public var green: UInt8
    /// The blue component, 0–255.
    public var blue: UInt8
    /// The opacity, 0 (transparent) to 255 (opaque); colour components are not premultiplied by it.
    public var alpha: UInt8

    /// Creates a colour; alpha defaults to opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Fully transparent black.
    public static let transparent = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBA(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBA(red: 255, green: 255, blue: 255)

    /// The four bytes as one `UInt32` in memory order (R first), for filling buffers.
    public var packed: UInt32 {
        UInt32(littleEndian: UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24)
    }

    public var description: String { "RGBA(\(red), \(green), \(blue), \(alpha))" }
}
