package import Foundation

/// The port a server started on port 0 names in its log file, after `marker` (such as
/// "listening on 127.0.0.1:", Hummingbird's and moto's wording), polled for up to a minute.
///
/// Servers a test starts in another process bind port 0 and report what they got: a port picked beforehand
/// and released could be taken by another test's server before the process binds it.
package func listeningPort(in log: URL, after marker: String) async throws -> Int {
    for _ in 0..<3000 {
        let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        if let range = text.range(of: marker) {
            let rest = text[range.upperBound...], digits = rest.prefix { $0.isNumber }
            if rest.dropFirst(digits.count).first?.isNewline == true, let port = Int(digits) { return port }
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw NoListeningPort(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
}

/// The server named no port within a minute; `log` is what it wrote.
package struct NoListeningPort: Error, CustomStringConvertible {
    package let log: String
    package var description: String { "the server named no listening port within a minute; its log: \(log)" }
}
