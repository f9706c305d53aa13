import Foundation
import WebImageCore

/// The output format an `Accept` header chooses, as imgproxy's `AUTO_*` and `ENFORCE_*` settings say: an automatic
/// format is used when the URL names none, an enforced one even when it names another; JPEG XL comes first, then
/// AVIF, then WebP, as in imgproxy.
/// `image/avif;q=0` refuses a type, as HTTP says; `*/*` is not taken as AVIF or WebP, as imgproxy does.
struct AcceptNegotiation: Sendable {
    /// The formats used for URLs without a format when accepted, in order of preference.
    let automatic: [OutputFormat]
    /// The formats used whatever the URL asks when accepted, in order of preference.
    let enforced: [OutputFormat]

    /// The negotiation of `configuration`.
    init(_ configuration: ImageServerConfiguration) {
        let order: [(OutputFormat, automatic: Bool, enforced: Bool)] = [
            (.jxl, configuration.autoJXL, configuration.enforceJXL), (.avif, configuration.autoAVIF, configuration.enforceAVIF),
            (.webp, configuration.autoWebP, configuration.enforceWebP),
        ]
        enforced = order.filter(\.enforced).map(\.0)
        automatic = order.filter { $0.automatic || $0.enforced }.map(\.0)
    }

    /// Whether the answer to a URL asking for `asked` (nil: no format) depends on `Accept` (`Vary: Accept`).
    func variesByAccept(asked: OutputFormat?) -> Bool {
        !(asked == nil ? automatic : enforced).isEmpty
    }

    /// The format `accept` chooses for a URL asking for `asked`, or nil to keep what the URL says.
    func format(accept: String?, asked: OutputFormat?) -> OutputFormat? {
        guard let accept, variesByAccept(asked: asked) else { return nil }
        let accepted = Self.acceptedTypes(accept)
        return (asked == nil ? automatic : enforced).first { accepted.contains($0.imageFormat.mimeType) }
    }

    /// The media types named with a non-zero quality.
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
