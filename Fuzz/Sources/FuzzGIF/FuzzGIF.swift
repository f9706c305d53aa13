import FuzzSupport

/// Fuzzes the GIF decoder, full size and as a thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(GIFCoder(), bytes, count)
    return 0
}
