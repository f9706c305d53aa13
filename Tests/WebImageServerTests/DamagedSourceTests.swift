import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
@testable import WebImageServer

/// A damaged source is served as a browser shows it, with what was wrong in `X-Image-Issues`; `--strict-sources`
/// refuses it with 422.
@Suite struct DamagedSourceTests {
    @Test func aTruncatedJPEGIsServedAtItsFullSizeWithItsIssueInAHeader() async throws {
        try await ServerTestHarness.run { client, base, _ in
            for _ in 0..<2 { // processed, then from the result cache: the header stays
                try await client.execute(uri: "/_/w:50/f:png/plain/\(base)/truncated.jpg", method: .get) { response in
                    #expect(response.status == .ok)
                    let image = try ImageProcessingServerTests.decoded(response.body)
                    #expect(image.pixelSize == PixelSize(width: 50, height: 38))
                    #expect(response.headers[ImageRequestPipeline.imageIssues]?.hasPrefix("truncated") == true)
                }
            }
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.headers[ImageRequestPipeline.imageIssues] == nil)
            }
        }
    }

    @Test func strictSourcesRefuseADamagedSourceWith422() async throws {
        #expect(try ServerSettings(commandLine: ["strict-sources": "true"]).configuration().strictSources)
        try await ServerTestHarness.run(configure: { $0.strictSources = true }) { client, base, _ in
            try await client.execute(uri: "/_/w:50/plain/\(base)/truncated.jpg", method: .get) { #expect($0.status == .unprocessableContent) }
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func theIssuesHeaderIsPrintableAndBounded() {
        let value = ImageRequestPipeline.headerValue(["truncated at row 3: ends\u{1}é", String(repeating: "x", count: 1000)])
        #expect(value.hasPrefix("truncated at row 3: ends??; x") && value.count == 512)
    }
}
