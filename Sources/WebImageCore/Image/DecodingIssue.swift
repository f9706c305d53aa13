/// Something wrong with an image file that a lenient decode let pass, as a browser does: the decoded
/// ``Image`` shows what could be decoded and lists these in ``Image/issues`` (empty for a clean file).
///
/// With ``ImageDecodingOptions/strict`` the decoder throws instead, as it did before issue 31.
public struct DecodingIssue: Hashable, Sendable, CustomStringConvertible {
    /// What kind of damage was found.
    public enum Kind: String, Hashable, Sendable {
        /// The data ends before the image does (a cut file): the rows or frames after the cut are filled in.
        case truncated
        /// The compressed data is broken: the decoder skipped or filled in what it could not read.
        case corruptData
        /// A chunk's checksum does not match its bytes; the chunk was used anyway.
        case checksumMismatch
        /// Frames of an animation after a broken record were dropped.
        case framesDropped
    }

    /// What kind of damage was found.
    public let kind: Kind
    /// The first row (of the decoded frame, counted from the top) not taken from the file, when the decoder
    /// knows it; the rows above it are exactly what a clean decode gives.
    public let firstDamagedRow: Int?
    /// The decoder's own words (libjpeg's warning, libpng's error, …).
    public let detail: String

    /// Creates an issue (decoders do; callers only read them).
    package init(_ kind: Kind, firstDamagedRow: Int? = nil, detail: String) {
        self.kind = kind
        self.firstDamagedRow = firstDamagedRow
        self.detail = detail
    }

    /// One line, e.g. `truncated at row 120: Premature end of JPEG file`.
    public var description: String {
        let row = firstDamagedRow.map { " at row \($0)" } ?? ""
        return "\(kind.rawValue)\(row): \(detail)"
    }
}

extension DecodingIssue {
    /// The same issue with its row counted in an image scaled from `height` rows to `newHeight`.
    package func scalingRows(from height: Int, to newHeight: Int) -> DecodingIssue {
        guard let row = firstDamagedRow, height > 0, height != newHeight else { return self }
        return DecodingIssue(kind, firstDamagedRow: row * newHeight / height, detail: detail)
    }
}
