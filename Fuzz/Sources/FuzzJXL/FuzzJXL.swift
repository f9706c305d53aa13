import FuzzSupport

/// Fuzzes the JPEG XL decoder, full size and as a thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJXL(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(JXLCoder(), bytes, count)
    return 0
}
