import Foundation
import WebImageKit

/// One setting of `webimage serve`: its names on the command line and in the environment, and what it sets.
///
/// The command line wins, then `WEBIMAGE_SERVE_<NAME>`, then imgproxy's `IMGPROXY_<NAME>` (and its aliases).
struct ServerSetting: Sendable {
    /// The option's name (`bind` for `--bind`); its variable is `WEBIMAGE_SERVE_` plus it upper-cased, `-` as `_`.
    let name: String
    /// imgproxy's names for it, without `IMGPROXY_`, the current one first; empty when imgproxy has none.
    let imgproxy: [String]
    /// Sets the value on the draft.
    let apply: @Sendable (SettingValue, inout ServerSettingsDraft) throws(ServerSettingsError) -> Void
    /// The value in force, as `--print-config` shows it.
    let current: @Sendable (ServerSettingsDraft) -> String

    /// `WEBIMAGE_SERVE_*` name.
    var variable: String { "WEBIMAGE_SERVE_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }
}

/// The configuration being read, and what is only combined at the end (keys with salts) or belongs to the
/// command rather than the server (metrics address, log level).
struct ServerSettingsDraft: Sendable {
    var configuration = ImageServerConfiguration()
    var keys: [String] = []
    var salts: [String] = []
    var allowedSources: [String] = []
    var presetDefinitions: [String] = []
    var presetsSeparator = ","
    var keepAliveTimeout: Duration?
    var readRequestTimeout: Duration?
    var metricsBind: String?
    var logLevel = "info"
    var logFormat = ServerLogFormat.pretty
    /// The names of the `--thumbor-conf` file this server does not use.
    var ignoredThumborNames: [String] = []
}
