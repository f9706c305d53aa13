import WebImageKit

extension ServerSettingsDraft {
    /// Combines what several settings give: key/salt pairs, the allowed sources, the presets.
    mutating func finish() throws(ServerSettingsError) {
        guard keys.count == salts.count else {
            throw ServerSettingsError("give one salt for every key (\(keys.count) keys, \(salts.count) salts)")
        }
        configuration.signature.keys = try zip(keys, salts).enumerated().map { index, pair throws(ServerSettingsError) in
            do throws(SignatureKey.InvalidHex) {
                return try SignatureKey(keyHex: pair.0, saltHex: pair.1)
            } catch {
                throw ServerSettingsError("key \(index + 1): \(error.description)")
            }
        }
        if keepAliveTimeout != nil || readRequestTimeout != nil {
            configuration.idleTimeout = min(keepAliveTimeout ?? .seconds(10), readRequestTimeout ?? .seconds(10))
        }
        let local = allowedSources.filter { $0.hasPrefix("local://") }
        configuration.allowedLocalPrefixes = local.map { prefix in
            let path = String(prefix.dropFirst("local://".count))
            return path.isEmpty ? "/" : path
        }
        configuration.allowedS3Prefixes = allowedSources.filter { $0.hasPrefix("s3://") }
        configuration.sourcePolicy.allowedPrefixes = try allowedSources.filter { !$0.hasPrefix("local://") && !$0.hasPrefix("s3://") }.map { prefix throws(ServerSettingsError) in
            do throws(SourceURLError) {
                return try SourcePrefix(prefix)
            } catch {
                throw ServerSettingsError("allowed source '\(prefix)': \(error.message)")
            }
        }
        do {
            configuration.presets = try ProcessingPresets(parsing: presetDefinitions, argumentsSeparator: configuration.argumentsSeparator)
        } catch {
            throw ServerSettingsError("preset: \(error.message)")
        }
    }
}

/// `HOST:PORT` (`[::1]:8080` for IPv6; imgproxy's `:8080` is every interface).
struct ServerAddress {
    let host: String
    let port: Int

    init(_ value: SettingValue) throws(ServerSettingsError) {
        let text = value.text.trimmingSpaces
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw value.invalid("is not HOST:PORT")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host.isEmpty ? "0.0.0.0" : host
        self.port = port
    }
}

/// imgproxy's `PATH_PREFIX`: `/abc/def`, without a trailing slash.
enum PathPrefix {
    static func normalized(_ value: SettingValue) throws(ServerSettingsError) -> String {
        var prefix = value.text.trimmingSpaces
        while prefix.hasSuffix("/") { prefix.removeLast() }
        guard prefix.isEmpty || prefix.hasPrefix("/") else { throw value.invalid("must start with '/'") }
        guard !prefix.contains("?"), !prefix.contains("#") else { throw value.invalid("must be a plain path") }
        return prefix
    }
}
