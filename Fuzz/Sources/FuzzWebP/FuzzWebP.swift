import FuzzSupport

/// Fuzzes the WebP decoder, full size and as a thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(WebPCoder(), bytes, count)
    return 0
}
