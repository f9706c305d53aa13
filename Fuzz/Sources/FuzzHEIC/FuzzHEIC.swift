import FuzzSupport

/// Fuzzes the HEIC/HEIF decoder, full size and as a thumbnail (a stored thumbnail when one covers 32×32).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIC(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(HEICCoder(), bytes, count)
    return 0
}
