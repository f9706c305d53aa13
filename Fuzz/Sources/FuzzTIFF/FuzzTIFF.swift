import FuzzSupport

/// Fuzzes the TIFF decoder (libtiff from memory), full size and as a thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFF(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(TIFFCoder(), bytes, count)
    return 0
}
