import FuzzSupport

/// Fuzzes the on-demand animation frame sources (GIF, APNG, WebP): every frame, in order and backwards.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameSources(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Fuzz.data(bytes, count)
    guard let source = try? ImageCodersManager.shared.animatedFrameSource(for: data, options: Fuzz.options) else { return 0 }
    let frames = min(source.frameCount, 64)
    for index in Array(0..<frames) + Array((0..<frames).reversed()) {
        _ = try? source.frame(at: index)
    }
    return 0
}
