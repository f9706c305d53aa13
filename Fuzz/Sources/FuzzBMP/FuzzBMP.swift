import FuzzSupport

/// Fuzzes the BMP decoder (every header, depth, mask and RLE path), full size and as a thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBMP(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(BMPCoder(), bytes, count)
    return 0
}
