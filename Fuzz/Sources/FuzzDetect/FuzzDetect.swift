import FuzzSupport

/// Fuzzes format detection and the registry's choice of decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDetect(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Fuzz.data(bytes, count)
    let format = ImageFormat(detecting: data)
    _ = format.mimeType
    _ = ImageCodersManager.shared.decoder(for: data)
    return 0
}
