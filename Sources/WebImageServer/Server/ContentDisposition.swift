import Foundation
import WebImageCore

/// The `Content-Disposition` of a result: `inline` or `attachment` (`return_attachment`, else the configured
/// default), with a file name from
/// the `filename` option or the source path's last segment, its extension replaced by the output format's.
enum ContentDisposition {
    static func value(options: ProcessingOptions, attachment: Bool = false, sourcePath: String, format: ImageFormat) -> String {
        let kind = options.returnAttachment ?? attachment ? "attachment" : "inline"
        var base = options.filename ?? Self.lastSegment(of: sourcePath)
        if options.filename == nil, let dot = base.lastIndex(of: "."), dot != base.startIndex {
            base = String(base[..<dot])
        }
        if base.isEmpty { base = "image" }
        let name = "\(base).\(format.fileExtension)"
        // A quoted ASCII name with quotes, backslashes and controls replaced; the UTF-8 name as RFC 8187 says.
        let ascii = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" && scalar.value != 0x7F ? Character(scalar) : "_"
        })
        let encoded = name.utf8.map { byte -> String in
            let isPlain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_")].contains(byte)
            return isPlain ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
        return "\(kind); filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }

    /// The last non-empty path segment, percent-decoded when it decodes.
    private static func lastSegment(of path: String) -> String {
        let segment = path.split(separator: "/").last.map(String.init) ?? ""
        return segment.removingPercentEncoding ?? segment
    }
}
