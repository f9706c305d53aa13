import FuzzSupport

/// Fuzzes the PDF rasterizer, at the page size and at a 32×32 thumbnail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPDF(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzz.decode(PDFCoder(), bytes, count)
    return 0
}
