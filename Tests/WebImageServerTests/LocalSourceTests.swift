import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// `local://` sources under `IMGPROXY_LOCAL_FILESYSTEM_ROOT`: served from the root, never from outside it.
@Suite struct LocalSourceTests {
    /// A server whose local root holds `photo.jpg`, `images/photo.jpg`, a link to the photo inside the root and a
    /// link to a file outside it; `environment` adds settings.
    static func run(
        _ environment: [String: String] = [:], _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let folder = try TemporaryDirectory("local-sources")
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("root"), outside = folder.url.appendingPathComponent("outside.jpg")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("images"), withIntermediateDirectories: true)
        let photo = try SourceOrigin().photo
        try photo.write(to: root.appendingPathComponent("photo.jpg"))
        try photo.write(to: root.appendingPathComponent("images/photo.jpg"))
        try photo.write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("inside-link.jpg").path, withDestinationPath: "images/photo.jpg")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("escape.jpg").path, withDestinationPath: outside.path)
        var settings = environment
        settings["IMGPROXY_LOCAL_FILESYSTEM_ROOT"] = root.path
        var configuration = try ServerSettings(environment: settings).configuration()
        configuration.port = 0
        configuration.cacheDirectory = folder.url.appendingPathComponent("cache")
        let app = try buildApplication(configuration: configuration, logger: ServerTestHarness.quietLogger)
        try await app.test(.router) { client in try await body(client) }
    }

    static func status(_ client: any TestClientProtocol, _ source: String) async throws -> HTTPResponse.Status {
        try await client.execute(uri: "/_/w:50/plain/\(source)", method: .get) { $0.status }
    }

    /// Expects `status` for `source`.
    static func expect(
        _ client: any TestClientProtocol, _ source: String, _ status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let actual = try await Self.status(client, source)
        #expect(actual == status, "\(source)", sourceLocation: sourceLocation)
    }

    @Test func aFileUnderTheRootIsServedAndResized() async throws {
        try await Self.run { client in
            try await client.execute(uri: "/_/w:50/plain/local:///photo.jpg", method: .get) { response in
                #expect(response.status == .ok)
                let image = try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: .init())
                #expect(image.pixelSize.width == 50)
            }
            try await Self.expect(client, "local:///images/photo.jpg", .ok)
            try await Self.expect(client, "local:///inside-link.jpg", .ok)
            try await Self.expect(client, "local:///missing.jpg", .notFound)
        }
    }

    @Test func pathsThatCouldLeaveTheRootAreRefusedBeforeAnyIO() async throws {
        try await Self.run { client in
            for source in ["local:///../outside.jpg", "local:///images/../../outside.jpg", "local:///%2e%2e/outside.jpg",
                           "local:///images/%2E%2E/%2E%2E/outside.jpg", "local://../outside.jpg", "local:///./photo.jpg",
                           "local:///images%5C..%5C..%5Coutside.jpg", "local:///photo.jpg%00.png", "local:///"] {
                let status = try await Self.status(client, source)
                #expect(status == .badRequest, "\(source)")
            }
            // A link inside the root that leads out of it.
            let escape = try await Self.status(client, "local:///escape.jpg")
            #expect(escape == .forbidden)
        }
    }

    @Test func allowedSourcesLimitLocalPathsAndLocalSourcesNeedARoot() async throws {
        try await Self.run(["IMGPROXY_ALLOWED_SOURCES": "local:///images/,https://cdn.example/"]) { client in
            try await Self.expect(client, "local:///images/photo.jpg", .ok)
            try await Self.expect(client, "local:///photo.jpg", .forbidden)
        }
        try await ServerTestHarness.run { client, _, _ in
            try await client.execute(uri: "/_/w:50/plain/local:///photo.jpg", method: .get) { response in
                #expect(response.status == .badRequest && String(buffer: response.body) == "local:// sources are not enabled\n")
            }
        }
    }
}
