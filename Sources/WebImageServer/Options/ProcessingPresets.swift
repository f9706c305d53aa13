/// Named sets of options given at start (`--preset NAME=OPTIONS`), used by URLs through `preset:NAME`.
///
/// A preset named `default` applies to every URL before its own options, as in imgproxy.
public struct ProcessingPresets: Sendable, Hashable {
    private var presets: [String: [RawOption]] = [:]

    /// No presets.
    public init() {}

    /// Parses `NAME=OPTIONS` definitions (`thumb=rs:fill:200:200/q:70`), as imgproxy's `IMGPROXY_PRESETS` are
    /// written: blank entries and `#` comments are skipped; every option is checked now, so a bad preset stops
    /// the server at start instead of failing its URLs. `argumentsSeparator` is the URLs' (`:` by default).
    public init(parsing definitions: [String], argumentsSeparator: Character = ":") throws(ImgproxyURLError) {
        for definition in definitions {
            let trimmed = definition.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let halves = trimmed.split(separator: "=", omittingEmptySubsequences: false)
            guard halves.count == 2 else { throw Self.invalid(trimmed, "expected NAME=OPTIONS") }
            let name = String(halves[0]).trimmingSpaces
            let value = String(halves[1]).trimmingSpaces
            guard !name.isEmpty else { throw Self.invalid(trimmed, "the name is empty") }
            guard !value.isEmpty else { throw Self.invalid(trimmed, "the options are empty") }
            var options: [RawOption] = []
            for segment in value.split(separator: "/", omittingEmptySubsequences: false) {
                let parts = segment.split(separator: argumentsSeparator, omittingEmptySubsequences: false).map(String.init)
                guard parts.count > 1 else { throw Self.invalid(trimmed, "'\(ImgproxyURLError.quoted(segment))' is not an option") }
                options.append(RawOption(name: parts[0], arguments: Array(parts.dropFirst())))
            }
            presets[name] = options
        }
        for name in presets.keys.sorted() {
            var scratch = ProcessingOptions()
            do {
                try scratch.applyPreset(name, presets: self, chain: [], option: "preset")
            } catch {
                throw ImgproxyURLError(error.code, option: error.option, message: "in preset '\(name)': \(error.message)")
            }
        }
    }

    /// The names of the presets.
    public var names: [String] { presets.keys.sorted() }

    /// The options of a preset, or nil.
    func options(named name: String) -> [RawOption]? { presets[name] }

    private static func invalid(_ definition: String, _ reason: String) -> ImgproxyURLError {
        ImgproxyURLError(.invalidArgument, option: "preset", message: "invalid preset '\(ImgproxyURLError.quoted(definition))': \(reason)")
    }
}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
