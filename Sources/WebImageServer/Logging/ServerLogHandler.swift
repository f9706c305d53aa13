import Foundation
public import Logging

/// How `webimage serve` writes its log lines (imgproxy's `IMGPROXY_LOG_FORMAT`).
public enum ServerLogFormat: String, Sendable, CaseIterable {
    /// For people: `2026-11-27T10:00:00Z INFO request request_id=… status=200`.
    case pretty
    /// logfmt, for log shippers: `time=… level=info msg=request request_id=… status=200`.
    case structured
    /// One JSON object per line: `{"time":"…","level":"info","msg":"request",…}`.
    case json
    /// JSON with Google Cloud Logging's field names: `severity` and `message`.
    case gcp
}

/// A swift-log handler that writes one line per message, in a ``ServerLogFormat``, to standard error (or to the
/// given sink). Metadata keys are sorted, so lines are stable.
///
/// ```swift
/// LoggingSystem.bootstrap { label in ServerLogHandler(label: label, format: .json) }
/// ```
public struct ServerLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let format: ServerLogFormat
    private let write: @Sendable (String) -> Void

    /// A handler writing `format` lines to standard error.
    public init(label: String, format: ServerLogFormat) {
        self.init(format: format) { line in FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// A handler writing `format` lines (each ending in a newline) to `write`.
    init(format: ServerLogFormat, write: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        let time = Date().formatted(.iso8601)
        write(Self.line(format: format, time: time, level: event.level, message: "\(event.message)", fields: fields) + "\n")
    }

    /// One log line without its newline.
    static func line(format: ServerLogFormat, time: String, level: Logger.Level, message: String, fields: Logger.Metadata) -> String {
        let sorted = fields.sorted { $0.key < $1.key }.map { ($0.key, "\($0.value)") }
        switch format {
        case .pretty:
            let level = Self.name(level).uppercased()
            return ([time, level, message] + sorted.map { "\($0)=\($1)" }).joined(separator: " ")
        case .structured:
            let pairs = [("time", time), ("level", Self.name(level)), ("msg", message)] + sorted
            return pairs.map { "\($0)=\(Self.logfmt($1))" }.joined(separator: " ")
        case .json, .gcp:
            let head = format == .json
                ? [("time", time), ("level", Self.name(level)), ("msg", message)]
                : [("time", time), ("severity", Self.name(level).uppercased()), ("message", message)]
            return "{" + (head + sorted).map { "\(Self.jsonString($0)):\(Self.jsonString($1))" }.joined(separator: ",") + "}"
        }
    }

    /// imgproxy's level names (logrus's): `warning` is `warn`, `critical` is `fatal`.
    static func name(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "debug"
        case .info, .notice: "info"
        case .warning: "warn"
        case .error: "error"
        case .critical: "fatal"
        }
    }

    /// A logfmt value: bare when it has no space, quote, `=` or control character, else quoted with escapes.
    static func logfmt(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0 != "\\" && $0.value != 0x7F }
        return plain ? value : jsonString(value)
    }

    /// `value` as a JSON string literal.
    static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
