import Foundation
import Logging
import Synchronization
import Testing
@testable import WebImageServer

/// `IMGPROXY_LOG_FORMAT`: the same event as a person, a logfmt parser and a JSON parser read it.
@Suite struct ServerLogFormatTests {
    static let fields: Logger.Metadata = ["status": "200", "path": "/_/w:20/plain/a b.jpg", "request_id": "abc"]

    @Test func prettyIsTimeLevelMessageThenSortedFields() {
        let line = ServerLogHandler.line(format: .pretty, time: "T", level: .info, message: "request", fields: Self.fields)
        #expect(line == "T INFO request path=/_/w:20/plain/a b.jpg request_id=abc status=200")
    }

    @Test func structuredIsLogfmtWithValuesQuotedWhenTheyNeedIt() {
        let line = ServerLogHandler.line(format: .structured, time: "T", level: .warning, message: "slow source", fields: Self.fields)
        #expect(line == #"time=T level=warn msg="slow source" path="/_/w:20/plain/a b.jpg" request_id=abc status=200"#)
    }

    @Test func jsonIsOneObjectAJSONParserReads() throws {
        let fields: Logger.Metadata = ["error": "line\n\"quoted\"\u{1}"]
        let line = ServerLogHandler.line(format: .json, time: "T", level: .error, message: "failed", fields: fields)
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object == ["time": "T", "level": "error", "msg": "failed", "error": "line\n\"quoted\"\u{1}"])
    }

    @Test func gcpUsesSeverityAndMessage() throws {
        let line = ServerLogHandler.line(format: .gcp, time: "T", level: .info, message: "request", fields: [:])
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object == ["time": "T", "severity": "INFO", "message": "request"])
    }

    @Test func theHandlerWritesOneLinePerEventWithTheLoggersMetadata() {
        let lines = LockedLines()
        var logger = Logger(label: "test") { _ in ServerLogHandler(format: .structured) { lines.append($0) } }
        logger[metadataKey: "instance"] = "a"
        logger.info("started", metadata: ["port": "8080"])
        logger.debug("not written at the info level")
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.hasSuffix(" level=info msg=started instance=a port=8080\n") == true)
    }

    @Test func theFormatIsReadFromImgproxysVariableAndChecked() throws {
        #expect(try ServerSettings(environment: ["IMGPROXY_LOG_FORMAT": "json"]).resolve().logFormat == .json)
        #expect(try ServerSettings(environment: [:]).resolve().logFormat == .pretty)
        #expect(throws: ServerSettingsError.self) { try ServerSettings(environment: ["IMGPROXY_LOG_FORMAT": "xml"]).resolve() }
    }
}

/// Lines written by a handler, read by the test.
final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
