import FuzzSupport

/// Fuzzes the JPEG decoder, full size and as a thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(JPEGCoder(), bytes, count)
    return 0
}
