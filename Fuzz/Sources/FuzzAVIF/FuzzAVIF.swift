import FuzzSupport

/// Fuzzes the AVIF decoder, full size and as a thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAVIF(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(AVIFCoder(), bytes, count)
    return 0
}
