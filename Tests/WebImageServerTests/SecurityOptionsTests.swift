import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// imgproxy's security options in URLs (`max_src_resolution`, `max_src_file_size`, `max_animation_frames`,
/// `max_animation_frame_resolution`, `max_result_dimension`) and the animation limits, on the origin's photo
/// (400×300 JPEG) and animation (three frames of 40×30).
@Suite struct SecurityOptionsTests {
    static func allowing(
        configure: @escaping @Sendable (inout ImageServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol, String) async throws -> Void
    ) async throws {
        try await ServerTestHarness.run(configure: {
            $0.allowsSecurityOptions = true
            configure(&$0)
        }) { client, base, _ in try await body(client, base) }
    }

    /// Expects `path` to be answered with `status`.
    static func expect(
        _ client: any TestClientProtocol, _ path: String, _ status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let actual = try await client.execute(uri: path, method: .get) { $0.status }
        #expect(actual == status, "\(path)", sourceLocation: sourceLocation)
    }

    /// Expects `path` to be answered with an image of `count` frames.
    static func expect(_ client: any TestClientProtocol, _ path: String, frames count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let image = try await frames(client, path)
        #expect(image.frames.count == count, "\(path)", sourceLocation: sourceLocation)
    }

    static func frames(_ client: any TestClientProtocol, _ path: String) async throws -> Image {
        try await client.execute(uri: path, method: .get) { response in
            #expect(response.status == .ok, "\(path)")
            return try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: .init())
        }
    }

    @Test func securityOptionsAreRefusedWith403UnlessAllowed() async throws {
        let options = ["msr:1", "max_src_resolution:1", "msfs:10000000", "max_src_file_size:10000000", "maf:2", "max_animation_frames:2",
                       "mafr:1", "max_animation_frame_resolution:1", "mrd:100", "max_result_dimension:100"]
        try await ServerTestHarness.run { client, base, _ in
            for option in options {
                try await client.execute(uri: "/_/\(option)/plain/\(base)/photo.jpg", method: .get) { response in
                    #expect(response.status == .forbidden, "\(option)")
                    #expect(String(buffer: response.body) == "security processing options are not allowed\n")
                }
            }
        }
        try await Self.allowing { client, base in
            for option in options {
                try await Self.expect(client, "/_/w:50/\(option)/plain/\(base)/photo.jpg", .ok)
            }
            // A bad argument is still a 400 naming the option.
            try await client.execute(uri: "/_/maf:0/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.status == .badRequest && String(buffer: response.body).contains("'maf'"))
            }
        }
    }

    @Test func eachSecurityOptionLowersItsLimitFor422() async throws {
        try await Self.allowing { client, base in
            // 400×300 = 120,000 pixels.
            try await Self.expect(client, "/_/msr:0.1/plain/\(base)/photo.jpg", .unprocessableContent)
            try await Self.expect(client, "/_/msr:0.2/plain/\(base)/photo.jpg", .ok)
            let size = try SourceOrigin().photo.count
            try await Self.expect(client, "/_/msfs:\(size - 1)/w:10/plain/\(base)/photo.jpg", .unprocessableContent)
            try await Self.expect(client, "/_/msfs:\(size)/w:10/plain/\(base)/photo.jpg", .ok)
            try await Self.expect(client, "/_/mrd:399/plain/\(base)/photo.jpg", .unprocessableContent)
            try await Self.expect(client, "/_/mrd:400/w:20/plain/\(base)/photo.jpg", .ok)
        }
    }

    /// A URL can only lower a limit: a higher value keeps the server's.
    @Test func aSecurityOptionCannotRaiseTheServersLimit() async throws {
        try await Self.allowing(configure: { $0.maximumSourcePixelCount = 100_000; $0.maximumResultDimension = 100 }) { client, base in
            try await Self.expect(client, "/_/msr:50/w:10/plain/\(base)/photo.jpg", .unprocessableContent)
            try await Self.expect(client, "/_/mrd:1000/plain/\(base)/photo.jpg", .unprocessableContent)
        }
    }

    @Test func theFramesBeyondTheFrameLimitAreDroppedAndOneFrameIsAStillImage() async throws {
        try await Self.allowing { client, base in
            let two = try await Self.frames(client, "/_/maf:2/w:20/plain/\(base)/animation.gif")
            #expect(two.frames.count == 2 && two.pixelSize == PixelSize(width: 20, height: 15))
            #expect(SyntheticImages.close(two.frames[1].pixels[10, 7], RGBA(red: 0, green: 255, blue: 0)))
            try await Self.expect(client, "/_/maf:1/plain/\(base)/animation.gif", frames: 1)
            try await Self.expect(client, "/_/maf:5/plain/\(base)/animation.gif", frames: 3)
        }
        try await ServerTestHarness.run(configure: { $0.maximumAnimationFrames = 2 }) { client, base, _ in
            try await Self.expect(client, "/_/f:webp/plain/\(base)/animation.gif", frames: 2)
        }
        #expect(try ServerSettings(environment: ["IMGPROXY_MAX_ANIMATION_FRAMES": "4"]).configuration().maximumAnimationFrames == 4)
        #expect(throws: ServerSettingsError.self) { _ = try ServerSettings(environment: ["IMGPROXY_MAX_ANIMATION_FRAMES": "0"]).configuration() }
    }

    /// As imgproxy checks animations: without a frame limit the frames processed together count against the source
    /// limit (3 × 1,200 = 3,600 pixels); with one, each frame counts alone.
    @Test func animationFramesCountTogetherUnlessAFrameResolutionIsSet() async throws {
        try await Self.allowing { client, base in
            try await Self.expect(client, "/_/msr:0.003/plain/\(base)/animation.gif", .unprocessableContent)
            try await Self.expect(client, "/_/msr:0.003/maf:2/plain/\(base)/animation.gif", .ok)
            try await Self.expect(client, "/_/msr:0.003/mafr:0.002/plain/\(base)/animation.gif", .ok)
            try await Self.expect(client, "/_/mafr:0.001/plain/\(base)/animation.gif", .unprocessableContent)
            // A still result decodes one frame only: the frame limit does not apply.
            try await Self.expect(client, "/_/mafr:0.001/f:png/plain/\(base)/animation.gif", .ok)
        }
        try await ServerTestHarness.run(configure: { $0.maximumAnimationFramePixelCount = 1000 }) { client, base, _ in
            try await Self.expect(client, "/_/plain/\(base)/animation.gif", .unprocessableContent)
        }
        let configuration = try ServerSettings(environment: ["IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION": "0.5", "IMGPROXY_ALLOW_SECURITY_OPTIONS": "true"])
            .configuration()
        #expect(configuration.maximumAnimationFramePixelCount == 500_000 && configuration.allowsSecurityOptions)
    }
}
