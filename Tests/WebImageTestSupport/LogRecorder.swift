package import Logging

/// A logger whose messages (with their `error` metadata, if any) arrive on a stream, so that a test can
/// wait for something a component logs, such as the end of a manager's pipeline.
package struct LogRecorder: Sendable {
    package let logger: Logger
    package let messages: AsyncStream<String>

    package init(label: String = "LogRecorder") {
        let (messages, sink) = AsyncStream.makeStream(of: String.self)
        self.messages = messages
        logger = Logger(label: label) { _ in StreamLogHandler(sink: sink) }
    }
}

private struct StreamLogHandler: LogHandler {
    let sink: AsyncStream<String>.Continuation
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
        function: String, line: UInt
    ) {
        let error = metadata?["error"].map { " \($0)" } ?? ""
        sink.yield("\(message)\(error)")
    }
}
