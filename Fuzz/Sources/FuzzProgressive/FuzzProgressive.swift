import FuzzSupport

/// Feeds the input to every progressive decoder in chunks whose sizes come from the input's first bytes,
/// asking for a partial image after each chunk, as a download would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProgressive(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 2 else { return 0 }
    let data = Fuzz.data(bytes, count)
    let step = max(1, Int(data[data.startIndex]) * 16 + Int(data[data.startIndex + 1]) % 16)
    let payload = data.dropFirst(2)
    let coders: [any ProgressiveImageDecoding] = [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder()]
    for coder in coders where coder.canDecodeIncrementally(Data(payload)) {
        let decoder = coder.makeProgressiveDecoder(options: Fuzz.options)
        var end = payload.startIndex
        while end < payload.endIndex {
            end = min(payload.endIndex, end + step)
            guard (try? decoder.decode(Data(payload[payload.startIndex..<end]))) != nil else { break }
        }
    }
    return 0
}
