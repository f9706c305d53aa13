import FuzzSupport

/// Fuzzes the ICO/CUR decoder: the directory, the entry choice, bitmap entries with AND masks, PNG entries.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICO(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(ICOCoder(), bytes, count)
    return 0
}
