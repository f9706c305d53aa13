import Foundation

extension ServerSettings {
    /// The settings of the thumbor dialect; thumbor's own names for them (and for the shared settings) are read
    /// from a `thumbor.conf` and `THUMBOR_*` variables (``ThumborConf``).
    static let thumborTable: [ServerSetting] = [
        ServerSetting(name: "dialect", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            guard let dialect = URLDialect(rawValue: value.text.trimmingSpaces.lowercased()) else { throw value.invalid("is not imgproxy or thumbor") }
            draft.configuration.dialect = dialect
        }, current: { $0.configuration.dialect.rawValue }),
        ServerSetting(name: "thumbor-conf", imgproxy: [], apply: { _, _ in },
                      current: { _ in "(read into the settings thumbor names)" }),
        ServerSetting(name: "thumbor-key", imgproxy: [], apply: { value, draft in
            draft.configuration.thumbor.securityKey = value.text.isEmpty ? nil : value.text
        }, current: { $0.configuration.thumbor.securityKey == nil ? "(none: only unsafe URLs)" : "(set)" }),
        ServerSetting(name: "allow-unsafe-urls", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.thumbor.allowsUnsafeURLs = try value.flag()
        }, current: { "\($0.configuration.thumbor.allowsUnsafeURLs)" }),
        ServerSetting(name: "thumbor-max-width", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.thumbor.maximumWidth = try value.integer(atLeast: 0)
        }, current: { "\($0.configuration.thumbor.maximumWidth)" }),
        ServerSetting(name: "thumbor-max-height", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.thumbor.maximumHeight = try value.integer(atLeast: 0)
        }, current: { "\($0.configuration.thumbor.maximumHeight)" }),
    ]

    /// The `--thumbor-conf` file (`WEBIMAGE_SERVE_THUMBOR_CONF`) with the `THUMBOR_*` variables over it; without
    /// a file, the variables alone; nil when there are neither.
    func thumborConf() throws(ServerSettingsError) -> ThumborConf? {
        let path = commandLine["thumbor-conf"] ?? environment["WEBIMAGE_SERVE_THUMBOR_CONF"].flatMap { $0.isEmpty ? nil : $0 }
        if let path { return try ThumborConf.read(path: path, environment: environment) }
        guard environment.keys.contains(where: { $0.hasPrefix("THUMBOR_") }) else { return nil }
        return try ThumborConf(contents: "", environment: environment)
    }
}
