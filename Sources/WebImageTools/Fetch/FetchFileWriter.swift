import Foundation
import WebImageKit

/// Writes what `webimage fetch --out DIR` loaded: the bytes as delivered when nothing changed them and
/// they are already in the format asked for, else the image encoded anew. Never over an existing file
/// unless ``replacesExisting`` (the same write-then-link as `convert`: ``OutputFile``).
struct FetchFileWriter {
    /// The folder written into.
    var directory: URL
    /// The format to write (`nil`: the format delivered, or PNG when it cannot be written).
    var format: ImageFormat?
    /// Whether an existing file may be replaced.
    var replacesExisting: Bool
    /// Whether the image is the one delivered (no thumbnail, no transform), so its bytes can be kept.
    var unchanged: Bool

    static let existsRemedy = "pass --force to replace it"

    /// Writes `loaded` as `name` plus the format's extension; returns the file written. The error names the file.
    func write(_ loaded: ImageLoadResult, named name: String) throws(ToolError) -> URL {
        let coders = ImageCodersManager.shared
        let delivered = loaded.data.map { ImageFormat(detecting: $0) } ?? .unknown
        let keepsBytes = unchanged && delivered != .unknown && (format == nil || format == delivered)
        let written = keepsBytes ? delivered
            : format ?? (coders.canEncode(to: loaded.image.format) ? loaded.image.format : .png)
        let file = directory.appendingPathComponent("\(name).\(written.fileExtension)")
        do {
            try OutputFile.checkTarget(file, replacing: replacesExisting, ifExists: Self.existsRemedy)
            var bytes = loaded.data ?? Data()
            if !keepsBytes {
                let image = written.holdsAlpha ? loaded.image : loaded.image.flattened(onto: .white)
                bytes = try coders.encode(image, as: written, options: ImageEncodingOptions())
            }
            try OutputFile.write(bytes, to: file, replacing: replacesExisting, ifExists: Self.existsRemedy)
            return file
        } catch {
            let reason = ToolError(nil, describing: error)
            throw ToolError(nil, "not saved as \(file.relativePath): \(reason.problem)", remedy: reason.remedy)
        }
    }
}

/// Unique file names (without extension) for the images of a list of URLs: the URL's last path
/// component without its extension, made safe, with `-2`, `-3`… for repeats.
struct FetchOutputNames: Sendable {
    private let names: [String]

    init(urls: [URL]) {
        var used: [String: Int] = [:]
        names = urls.map { url in
            let stem = url.deletingPathExtension().lastPathComponent
            let safe = String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(80))
            let base = safe.isEmpty || safe == "_" ? "image" : safe
            used[base, default: 0] += 1
            return used[base] == 1 ? base : "\(base)-\(used[base] ?? 0)"
        }
    }

    subscript(index: Int) -> String { names[index] }
}

