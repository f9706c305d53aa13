import FuzzSupport

/// Fuzzes the PNG decoder, full size and as a thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(PNGCoder(), bytes, count)
    return 0
}
