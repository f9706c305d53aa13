import Foundation

/// The output format an `Accept` header allows when the URL names none and `--auto-avif`/`--auto-webp` are on:
/// AVIF first, then WebP; nil keeps the source's format. `image/avif;q=0` refuses a type, as HTTP says.
struct AcceptNegotiation: Sendable {
    let autoAVIF: Bool
    let autoWebP: Bool

    /// Whether responses to requests without an explicit format depend on `Accept` (and so need `Vary: Accept`).
    var isEnabled: Bool { autoAVIF || autoWebP }

    /// The negotiated format for `accept`, or nil.
    func format(accept: String?) -> OutputFormat? {
        guard let accept, isEnabled else { return nil }
        let accepted = Self.acceptedTypes(accept)
        if autoAVIF, accepted.contains("image/avif") { return .avif }
        if autoWebP, accepted.contains("image/webp") { return .webp }
        return nil
    }

    /// The media types named with a non-zero quality (wildcards are not taken as AVIF or WebP, as imgproxy does).
    static func acceptedTypes(_ accept: String) -> Set<String> {
        var types: Set<String> = []
        for element in accept.split(separator: ",") {
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            let refused = parts.dropFirst().contains { parameter in
                guard parameter.hasPrefix("q=") else { return false }
                return (Double(parameter.dropFirst(2)) ?? 1) <= 0
            }
            if !refused { types.insert(type) }
        }
        return types
    }
}
