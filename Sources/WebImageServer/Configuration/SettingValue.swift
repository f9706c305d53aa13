/// Where a setting's value came from, in order of precedence.
public enum SettingOrigin: String, Sendable, Hashable {
    /// A `webimage serve` option.
    case commandLine = "command line"
    /// A `WEBIMAGE_SERVE_*` variable.
    case webimageEnvironment = "WEBIMAGE_SERVE_*"
    /// An `IMGPROXY_*` variable.
    case imgproxyEnvironment = "IMGPROXY_*"
    /// A `THUMBOR_*` variable (a thumbor.conf name).
    case thumborEnvironment = "THUMBOR_*"
    /// The `--thumbor-conf` file.
    case thumborConf = "thumbor.conf"
    /// Nothing set it.
    case defaultValue = "default"
}

/// A setting's text as given, with where it came from and the name it was given under (for error messages).
struct SettingValue: Sendable {
    let text: String
    let origin: SettingOrigin
    /// `--workers`, `WEBIMAGE_SERVE_WORKERS` or `IMGPROXY_WORKERS`.
    let source: String

    /// A whole number.
    func integer() throws(ServerSettingsError) -> Int {
        guard let number = Int(text.trimmingSpaces) else { throw invalid("is not a whole number") }
        return number
    }

    /// A whole number of at least `minimum`.
    func integer(atLeast minimum: Int) throws(ServerSettingsError) -> Int {
        let number = try integer()
        guard number >= minimum else { throw invalid("must be at least \(minimum)") }
        return number
    }

    /// A number (imgproxy's megapixels and seconds may have decimals), finite and not negative.
    func number() throws(ServerSettingsError) -> Double {
        guard let number = Double(text.trimmingSpaces), number.isFinite, number >= 0 else {
            throw invalid("is not a number of 0 or more")
        }
        return number
    }

    /// A duration in seconds, greater than 0.
    func seconds() throws(ServerSettingsError) -> Duration {
        let number = try number()
        guard number > 0 else { throw invalid("must be more than 0 seconds") }
        return .milliseconds(Int64(min(number, 86_400 * 365) * 1000))
    }

    /// A flag: 1, t, true, yes, on or 0, f, false, no, off (any case), as Go's `ParseBool` and more.
    func flag() throws(ServerSettingsError) -> Bool {
        switch text.trimmingSpaces.lowercased() {
        case "1", "t", "true", "yes", "on": return true
        case "0", "f", "false", "no", "off", "": return false
        default: throw invalid("is not true or false")
        }
    }

    /// A comma-separated list, blank entries dropped.
    func list(separator: Character = ",") -> [String] {
        text.split(separator: separator).map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// An error naming the setting and its value.
    func invalid(_ reason: String) -> ServerSettingsError {
        ServerSettingsError("\(source) '\(text)' \(reason)")
    }
}

/// A setting that cannot be used: one line naming it, its value and why.
public struct ServerSettingsError: Error, Sendable, CustomStringConvertible {
    /// The line.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

