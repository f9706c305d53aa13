import Foundation

/// A thumbor `thumbor.conf` read as this server's settings: its simple `NAME = value` lines (Python literals:
/// quoted strings, `True`/`False`, numbers, lists of strings), each name thumbor's, mapped onto a setting.
///
/// The same names are read from the environment with a `THUMBOR_` prefix (`THUMBOR_SECURITY_KEY`), which wins
/// over the file. Names this server has no use for are listed in ``ignored`` (logged once at start).
struct ThumborConf: Sendable {
    /// thumbor's names this server reads, and the setting each sets.
    static let settings: [String: String] = [
        "SECURITY_KEY": "thumbor-key", "ALLOW_UNSAFE_URL": "allow-unsafe-urls", "QUALITY": "quality", "MAX_AGE": "max-age",
        "AUTO_WEBP": "auto-webp", "AUTO_AVIF": "auto-avif", "MAX_WIDTH": "thumbor-max-width", "MAX_HEIGHT": "thumbor-max-height",
        "MAX_PIXELS": "max-src-resolution", "RESPECT_ORIENTATION": "auto-rotate", "ALLOWED_SOURCES": "allow-source",
        "HTTP_LOADER_REQUEST_TIMEOUT": "download-timeout", "HTTP_LOADER_CONNECT_TIMEOUT": "download-timeout",
        "PRESERVE_EXIF_INFO": "strip-metadata", "WEBP_QUALITY": "format-quality", "AVIF_QUALITY": "format-quality",
    ]

    /// The values read, by setting name, as the settings' text (`true`, `80`, `a,b`).
    var values: [String: String] = [:]
    /// The names of the file (or environment) this server does not use, sorted.
    var ignored: [String] = []

    /// Reads `contents` (a file's) and the `THUMBOR_*` variables of `environment`, which win; throws naming a line
    /// that is not `NAME = value`.
    init(contents: String, environment: [String: String] = [:]) throws(ServerSettingsError) {
        var literals: [String: String] = [:]
        var ignored: Set<String> = []
        var pending: (name: String, text: String)?
        for (number, rawLine) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Self.withoutComment(rawLine).trimmingCharacters(in: .whitespaces)
            if var open = pending {
                open.text += " " + line
                if line.hasSuffix("]") || line.hasSuffix(")") { literals[open.name] = open.text; pending = nil } else { pending = open }
                continue
            }
            guard !line.isEmpty else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ServerSettingsError("thumbor.conf line \(number + 1) is not NAME = value")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) else {
                throw ServerSettingsError("thumbor.conf line \(number + 1) is not NAME = value")
            }
            if (value.hasPrefix("[") && !value.hasSuffix("]")) || (value.hasPrefix("(") && !value.hasSuffix(")")) {
                pending = (name, value)
            } else {
                literals[name] = value
            }
        }
        for (name, value) in environment where name.hasPrefix("THUMBOR_") {
            // A variable holds plain text, not a Python literal: quoted so that it reads as the text it is, or as
            // the flag or number it spells.
            let confName = String(name.dropFirst("THUMBOR_".count))
            guard Self.settings[confName] != nil else { continue }
            let isLiteral = ["True", "False"].contains(value) || Double(value) != nil
            literals[confName] = isLiteral ? value : "'" + value + "'"
        }
        for (name, literal) in literals {
            guard let setting = Self.settings[name], let text = Self.text(of: literal, name: name) else {
                ignored.insert(name)
                continue
            }
            if name == "HTTP_LOADER_CONNECT_TIMEOUT", literals["HTTP_LOADER_REQUEST_TIMEOUT"] != nil { continue }
            if setting == "format-quality" {
                values[setting] = [values[setting], text].compactMap { $0 }.joined(separator: ",")
            } else {
                values[setting] = text
            }
        }
        if let qualities = values["format-quality"], !qualities.contains("avif=") {
            values["format-quality"] = qualities + ",avif=65"  // the server's own AVIF default stays
        }
        if let allowed = values["allow-source"] {
            // thumbor lists host names; this server's prefixes name the scheme too (default ports).
            values["allow-source"] = allowed.split(separator: ",").flatMap { ["http://\($0)/", "https://\($0)/"] }.joined(separator: ",")
        }
        self.ignored = ignored.sorted()
    }

    /// Reads the file at `path`.
    static func read(path: String, environment: [String: String]) throws(ServerSettingsError) -> ThumborConf {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20, let text = String(data: data, encoding: .utf8) else {
            throw ServerSettingsError("--thumbor-conf '\(path)' cannot be read as a text file of at most 1 MiB")
        }
        return try ThumborConf(contents: text, environment: environment)
    }

    /// A Python literal as a setting's text, for `name`; nil for one this reader does not take (`None`, a dict,
    /// an expression, a regular-expression source).
    static func text(of literal: String, name: String) -> String? {
        let value = literal.trimmingCharacters(in: .whitespaces)
        switch value {
        case "True": return name == "PRESERVE_EXIF_INFO" ? "false" : "true"
        case "False": return name == "PRESERVE_EXIF_INFO" ? "true" : "false"
        case "None": return nil
        default: break
        }
        if let string = unquoted(value) { return string }
        if value.hasPrefix("[") || value.hasPrefix("(") {
            let inside = value.dropFirst().dropLast()
            let items = inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let strings = items.compactMap(unquoted)
            return strings.count == items.count ? strings.joined(separator: ",") : nil
        }
        guard let number = Double(value.replacingOccurrences(of: "_", with: "")), number.isFinite, number >= 0 else { return nil }
        switch name {
        case "MAX_PIXELS": return String(number / 1_000_000)
        case "WEBP_QUALITY": return "webp=\(Int(number))"
        case "AVIF_QUALITY": return "avif=\(Int(number))"
        case "HTTP_LOADER_REQUEST_TIMEOUT", "HTTP_LOADER_CONNECT_TIMEOUT": return String(number)
        default: return number == number.rounded() ? String(Int(number)) : nil
        }
    }

    /// The text of `'…'` or `"…"`, or nil.
    private static func unquoted(_ value: String) -> String? {
        guard value.count >= 2, let first = value.first, first == "'" || first == "\"", value.last == first else { return nil }
        return String(value.dropFirst().dropLast())
    }

    /// `line` up to a `#` outside quotes.
    private static func withoutComment(_ line: Substring) -> Substring {
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" {
                return line[..<index]
            }
        }
        return line
    }
}
