import Foundation
public import Logging
import WebImageKit

/// The server's settings from the command line, then `WEBIMAGE_SERVE_*`, then imgproxy's `IMGPROXY_*`
/// variables, so that an imgproxy `.env` starts `webimage serve` unchanged.
///
/// ```swift
/// let settings = ServerSettings(environment: ProcessInfo.processInfo.environment)
/// let configuration = try settings.configuration()
/// for line in try settings.report() { print(line) }   // each setting, its value and where it came from
/// ```
///
/// Where imgproxy's default is less safe than this server's (it binds every interface, allows private source
/// addresses, has no source size limit and an unbounded queue), an `IMGPROXY_*` variable still sets the value,
/// but a default is this server's: ``differences`` names them, and `webimage serve` logs them once at start.
public struct ServerSettings: Sendable {
    /// Options given on the command line, by name (`bind`); several values of a repeatable option joined by commas.
    public var commandLine: [String: String]
    /// The environment.
    public var environment: [String: String]

    /// Reads `commandLine` and `environment`.
    public init(commandLine: [String: String] = [:], environment: [String: String] = [:]) {
        self.commandLine = commandLine
        self.environment = environment
    }

    /// Everything the settings give, read once (a watermark or fallback image URL is fetched once); throws naming
    /// the first setting that cannot be used.
    public func resolve() throws(ServerSettingsError) -> Resolved {
        let draft = try draft()
        let level: Logger.Level = switch draft.logLevel {
        case "error": .error
        case "warn", "warning": .warning
        case "debug": .debug
        default: .info
        }
        return Resolved(
            configuration: draft.configuration, metricsBind: draft.metricsBind, logLevel: level, logFormat: draft.logFormat,
            ignoredThumborSettings: draft.ignoredThumborNames)
    }

    /// The server's configuration (``resolve()``'s).
    public func configuration() throws(ServerSettingsError) -> ImageServerConfiguration {
        try resolve().configuration
    }

    /// What ``resolve()`` reads: the server's configuration, and what belongs to the command around it.
    public struct Resolved: Sendable {
        /// The server's configuration.
        public let configuration: ImageServerConfiguration
        /// The address of the Prometheus endpoint (`--metrics-bind`, `IMGPROXY_PROMETHEUS_BIND`), if any.
        public let metricsBind: String?
        /// The log level (`--log-level`, `IMGPROXY_LOG_LEVEL`); `info` by default.
        public let logLevel: Logger.Level
        /// The log format (`--log-format`, `IMGPROXY_LOG_FORMAT`); ``ServerLogFormat/pretty`` by default.
        public let logFormat: ServerLogFormat
        /// The names in the `--thumbor-conf` file this server does not use, to log once at start.
        public var ignoredThumborSettings: [String] = []
    }

    /// One line per setting: its name, the value in force and where it came from (`--print-config`).
    public func report() throws(ServerSettingsError) -> [String] {
        let draft = try draft()
        let thumbor = try thumborConf()
        return Self.table.map { setting in
            let origin = value(of: setting, thumbor: thumbor)?.origin ?? .defaultValue
            let names = ([setting.variable] + setting.imgproxy.map { "IMGPROXY_" + $0 }).joined(separator: ", ")
            return "\(setting.name) = \(setting.current(draft))    (\(origin.rawValue); \(names))"
        }
    }

    /// The defaults of this server that differ from imgproxy's because imgproxy's are less safe, for the settings
    /// that no variable or option set: one line each, to log at start.
    public var differences: [String] {
        Self.saferDefaults.compactMap { name, line in
            let thumbor = try? thumborConf()
            guard let setting = Self.table.first(where: { $0.name == name }), value(of: setting, thumbor: thumbor) == nil else { return nil }
            return line
        }
    }

    /// The value of `setting` from the first place that has one: the command line, `WEBIMAGE_SERVE_*`,
    /// `IMGPROXY_*`, then `thumbor` (`THUMBOR_*` variables and the `--thumbor-conf` file).
    func value(of setting: ServerSetting, thumbor: ThumborConf? = nil) -> SettingValue? {
        if let text = commandLine[setting.name] {
            return SettingValue(text: text, origin: .commandLine, source: "--" + setting.name)
        }
        if let text = environment[setting.variable], !text.isEmpty {
            return SettingValue(text: text, origin: .webimageEnvironment, source: setting.variable)
        }
        for name in setting.imgproxy {
            if let text = environment["IMGPROXY_" + name], !text.isEmpty {
                return SettingValue(text: text, origin: .imgproxyEnvironment, source: "IMGPROXY_" + name)
            }
        }
        if let text = thumbor?.values[setting.name] {
            return SettingValue(text: text, origin: .thumborConf, source: "thumbor.conf (\(setting.name))")
        }
        return nil
    }

    /// Every setting applied, then the parts that combine several.
    func draft() throws(ServerSettingsError) -> ServerSettingsDraft {
        var draft = ServerSettingsDraft()
        draft.configuration.s3Environment = environment
        let thumbor = try thumborConf()
        draft.ignoredThumborNames = thumbor?.ignored ?? []
        for setting in Self.table {
            if let value = value(of: setting, thumbor: thumbor) { try setting.apply(value, &draft) }
        }
        try draft.finish()
        return draft
    }
}
