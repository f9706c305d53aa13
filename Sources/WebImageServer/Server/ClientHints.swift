import HTTPTypes

/// The client hints imgproxy reads when `IMGPROXY_ENABLE_CLIENT_HINTS` is on: `Sec-CH-DPR` (or `DPR`) sets the
/// result's DPR, from above 0 to 8, and `Sec-CH-Width` (or `Width`), the layout width in physical pixels, sets
/// its width: that width divided by the DPR, rounded, since the DPR multiplies it again. URL options override both.
enum ClientHints {
    /// The headers the answer then varies by.
    static let headerNames = ["Sec-CH-DPR", "DPR", "Sec-CH-Width", "Width"]

    /// The default options `headers` give.
    static func options(_ headers: HTTPFields) -> ProcessingOptions {
        var options = ProcessingOptions()
        if let text = value("Sec-CH-DPR", or: "DPR", in: headers), let dpr = Double(text), dpr > 0, dpr <= 8 {
            options.dpr = dpr
        }
        if let text = value("Sec-CH-Width", or: "Width", in: headers), let width = Int(text), width > 0, width <= 100_000 {
            options.width = max(1, Int((Double(width) / options.dpr).rounded()))
        }
        return options
    }

    private static func value(_ name: String, or fallback: String, in headers: HTTPFields) -> String? {
        for candidate in [name, fallback] {
            if let field = HTTPField.Name(candidate), let value = headers[field]?.trimmingSpaces, !value.isEmpty { return value }
        }
        return nil
    }
}
