import FuzzSupport

/// Fuzzes the `@2x`/`@3x` key parser (SPEC CP-02, K-29) on arbitrary UTF-8.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyScale(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let key = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let scale = imageScale(forKey: key)
    precondition(scale == 1 || scale == 2 || scale == 3)
    return 0
}
