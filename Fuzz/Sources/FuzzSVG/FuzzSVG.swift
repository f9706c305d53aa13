import FuzzSupport

/// Fuzzes the SVG rasterizer, at the intrinsic size and at a 32×32 thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(SVGCoder(), bytes, count)
    return 0
}
