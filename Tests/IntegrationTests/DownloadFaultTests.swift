import Foundation
import Testing
import WebImageKit

/// Connections that break mid-body end with a transient ``ImageDownloadError/Code/network`` error that
/// says how far the body got (issue 5, tests list).
@Suite struct DownloadFaultTests {
    @Test func aBodyShorterThanItsContentLengthFails() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let error = try await ImageDownloaderTests.error(base.appendingPathComponent("short"))
            #expect(error?.code == .network, "\(String(describing: error))")
            #expect(error?.isTransient == true)
            #expect(error?.message.hasSuffix("\(server.png.count) of \(server.png.count + 1000) bytes") == true, "\(String(describing: error))")
        }
    }

    @Test func aConnectionClosedMidBodyFails() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let error = try await ImageDownloaderTests.error(base.appendingPathComponent("reset"))
            #expect(error?.code == .network, "\(String(describing: error))")
            #expect(error?.isTransient == true)
            #expect(error?.message.hasPrefix("the connection broke after") == true, "\(String(describing: error))")
        }
    }
}
