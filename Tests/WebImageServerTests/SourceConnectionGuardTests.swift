import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// The server's own HTTP client checks the address it connects to, for the first URL and every redirect.
@Suite struct SourceConnectionGuardTests {
    @Test func aHostNameThatResolvesToLoopbackIsRefusedAtConnectTime() async throws {
        try await ServerTestHarness.run(configure: { $0.sourcePolicy = SourceURLPolicy() }) { client, base, origin in
            let port = base.split(separator: ":").last.map(String.init) ?? ""
            try await client.execute(uri: "/_/w:50/plain/http://localhost:\(port)/photo.jpg", method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body) == "sources at loopback addresses are not allowed\n")
            }
            #expect(await origin.requests.count("/photo.jpg") == 0)
        }
    }

    @Test func aHostNameThatResolvesToAnAllowedClassIsFetched() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let port = base.split(separator: ":").last.map(String.init) ?? ""
            try await client.execute(uri: "/_/w:50/plain/http://localhost:\(port)/photo.jpg", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func aRedirectToARefusedAddressIsNotFollowed() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let target = "http://10.0.0.1/photo.jpg".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await client.execute(uri: "/_/w:50/plain/\(base)/redirect%3Fto=\(target)", method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body) == "sources at private network addresses are not allowed\n")
            }
        }
    }

    @Test func aRedirectOutsideTheAllowedPrefixesIsNotFollowed() async throws {
        try await ServerTestHarness.run { client, base, origin in
            // The prefix allows /redirect only; the redirect leads to /photo.jpg on the same origin.
            let policy = SourceURLPolicy(allowedPrefixes: [try SourcePrefix("\(base)/redirect")], addressPolicy: .loopback)
            let directory = try TemporaryDirectory("guard")
            defer { directory.remove() }
            let app = try buildApplication(
                configuration: ImageServerConfiguration(port: 0, sourcePolicy: policy, cacheDirectory: directory.url), logger: ServerTestHarness.quietLogger)
            let target = "\(base)/photo.jpg".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await app.test(.live) { guarded in
                try await guarded.execute(uri: "/_/w:50/cb:\(UUID().uuidString)/plain/\(base)/redirect%3Fto=\(target)", method: .get) { response in
                    #expect(response.status == .forbidden)
                }
            }
            #expect(await origin.requests.count("/photo.jpg") == 0)
            _ = client
        }
    }

    @Test func aRedirectWithinThePolicyIsFollowed() async throws {
        try await ServerTestHarness.run { client, base, origin in
            let target = "\(base)/photo.jpg".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await client.execute(uri: "/_/w:50/plain/\(base)/redirect%3Fto=\(target)", method: .get) { response in
                #expect(response.status == .ok)
            }
            #expect(await origin.requests.count("/photo.jpg") == 1)
        }
    }
}
