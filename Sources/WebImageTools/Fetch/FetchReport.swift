import Foundation
import WebImageKit

/// What `webimage fetch` (and the demo) did with one URL.
package struct FetchItem: Codable, Sendable, Equatable {
    /// The URL, as given.
    package var url: String
    /// Where the image came from: `memory`, `disk`, `network` (or `file`, `data`), or `failed` or `cancelled`.
    package var source: String
    /// The image's format (`JPEG`, `PNG`…), when it loaded.
    package var format: String?
    /// Pixel width, when it loaded.
    package var width: Int?
    /// Pixel height, when it loaded.
    package var height: Int?
    /// The number of frames, when it loaded.
    package var frames: Int?
    /// Encoded bytes loaded (downloaded, or read from disk); 0 for a memory hit.
    package var bytes: Int
    /// Milliseconds from asking to having the image.
    package var milliseconds: Double
    /// The file written with `--out`, if any.
    package var output: String?
    /// Why it failed, if it did.
    package var error: String?

    /// Whether the image loaded.
    package var succeeded: Bool { error == nil }

    /// The ``source`` of a load cancelled before it finished (Ctrl-C).
    package static let cancelled = "cancelled"

    /// Whether the load was cancelled before it finished.
    package var wasCancelled: Bool { source == Self.cancelled }

    /// Creates an item.
    package init(
        url: String, source: String, format: String?, width: Int?, height: Int?, frames: Int?, bytes: Int,
        milliseconds: Double, output: String?, error: String?
    ) {
        self.url = url
        self.source = source
        self.format = format
        self.width = width
        self.height = height
        self.frames = frames
        self.bytes = bytes
        self.milliseconds = milliseconds
        self.output = output
        self.error = error
    }
}

/// Everything `webimage fetch` did: one item per URL, in the order given, and totals.
package struct FetchReport: Codable, Sendable, Equatable {
    /// The items, in the order of the URLs.
    package var items: [FetchItem]
    /// Wall-clock seconds for the whole run.
    package var seconds: Double

    /// Items that loaded.
    package var succeeded: Int { items.filter(\.succeeded).count }
    /// Items that failed.
    package var failed: Int { items.count - succeeded }
    /// Bytes loaded in all.
    package var bytes: Int { items.reduce(0) { $0 + $1.bytes } }

    /// How many items came from each source, in a fixed order.
    package var countsBySource: [(source: String, count: Int)] {
        ["memory", "disk", "network", "file", "data", "failed", FetchItem.cancelled].compactMap { source in
            let count = items.filter { $0.source == source }.count
            return count > 0 ? (source, count) : nil
        }
    }

    /// The summary table for people: a row per URL, then the totals.
    package var table: String {
        let header = ["SOURCE", "FORMAT", "SIZE", "FRAMES", "BYTES", "TIME", "URL"]
        let rows = items.map { item -> [String] in
            [
                item.source, item.format ?? "-",
                item.width.map { "\($0)×\(item.height ?? 0)" } ?? "-",
                item.frames.map(String.init) ?? "-",
                ByteCountText.format(item.bytes),
                String(format: "%.1f ms", item.milliseconds),
                item.error.map { "\(item.url)  (\($0))" } ?? item.url,
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        let lines = ([header] + rows).map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return (lines + [totalsLine]).joined(separator: "\n")
    }

    /// `10 images: 4 network, 3 memory, 2 disk, 1 failed; 1.2 MB in 0.34 s`.
    package var totalsLine: String {
        let sources = countsBySource.map { "\($0.count) \($0.source)" }.joined(separator: ", ")
        let noun = items.count == 1 ? "image" : "images"
        return "\(items.count) \(noun): \(sources); \(ByteCountText.format(bytes)) in \(String(format: "%.2f", seconds)) s"
    }

    /// Creates a report.
    package init(items: [FetchItem], seconds: Double) {
        self.items = items
        self.seconds = seconds
    }

    enum CodingKeys: String, CodingKey { case items, seconds, succeeded, failed, bytes, sources }

    /// Reads the items and the time (the totals are computed, not read).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([FetchItem].self, forKey: .items)
        seconds = try container.decode(Double.self, forKey: .seconds)
    }

    /// Encodes the items and the totals (`succeeded`, `failed`, `bytes`, `sources`).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(succeeded, forKey: .succeeded)
        try container.encode(failed, forKey: .failed)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(Dictionary(uniqueKeysWithValues: countsBySource.map { ($0.source, $0.count) }), forKey: .sources)
    }
}
