import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
@testable import WebImageServer

/// The server in the thumbor dialect: its health check, authorisation, statuses, `meta/`, caching headers and
/// the pixels its URL parts give.
struct ThumborServerTests {
    static let key = "server-secret"

    /// The harness in the thumbor dialect, unsafe URLs allowed unless `allowsUnsafe` is false.
    func run(allowsUnsafe: Bool = true, configure: @escaping @Sendable (inout ImageServerConfiguration) -> Void = { _ in },
             _ body: @escaping @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        try await ServerTestHarness.run(configure: { configuration in
            configuration.dialect = .thumbor
            configuration.thumbor.securityKey = Self.key
            configuration.thumbor.allowsUnsafeURLs = allowsUnsafe
            configure(&configuration)
        }) { client, base, _ in
            try await body(client, String(base.dropFirst("http://".count)))
        }
    }

    func image(_ response: TestResponse) throws -> Image {
        try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: .init())
    }

    @Test func theHealthCheckAnswersWorking() async throws {
        try await run { client, _ in
            try await client.execute(uri: "/healthcheck", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "WORKING")
            }
        }
    }

    @Test func anUnsafeURLIsRefusedWithBadRequestUnlessAllowed() async throws {
        try await run(allowsUnsafe: false) { client, host in
            try await client.execute(uri: "/unsafe/100x0/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
        try await run { client, host in
            try await client.execute(uri: "/unsafe/100x0/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .ok)
                let decoded = try image(response)
                #expect(decoded.pixelSize == PixelSize(width: 100, height: 75))
            }
        }
    }

    @Test func aSignedURLIsAnsweredAForgedOrTruncatedSignatureIsBadRequest() async throws {
        try await run(allowsUnsafe: false) { client, host in
            let path = "fit-in/200x200/\(host)/photo.jpg"
            let signature = ThumborSignatureVerifier.signature(for: path, key: Self.key)
            try await client.execute(uri: "/\(signature)/\(path)", method: .get) { response in
                #expect(response.status == .ok)
                let decoded = try image(response)
                #expect(decoded.pixelSize == PixelSize(width: 200, height: 150))
            }
            // The first character changed (to "A" unless it is one already: the path holds the origin's port, so the
            // signature differs from run to run), the signature cut short, one made with another key.
            let changed = (signature.first == "A" ? "B" : "A") + signature.dropFirst()
            for forged in [changed, String(signature.prefix(20)), ThumborSignatureVerifier.signature(for: path, key: "guess")] {
                try await client.execute(uri: "/\(forged)/\(path)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(forged)")
                }
            }
        }
    }

    @Test func aMissingSourceIs404AnUndecodableOrRefusedOneIs400() async throws {
        try await run { client, host in
            try await client.execute(uri: "/unsafe/\(host)/status/404", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/unsafe/\(host)/broken.jpg", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
        try await run(configure: { $0.sourcePolicy = SourceURLPolicy() }) { client, host in
            try await client.execute(uri: "/unsafe/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// The JSON of a `meta/` answer.
    func json(_ response: TestResponse) throws -> [String: Any] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
        return try #require(json["thumbor"] as? [String: Any])
    }

    @Test func metaAnswersAsThumborWithTheSizeAfterTheOperationsTheCropsResizeAndFlipsAndTheFocalPoint() async throws {
        try await run { client, host in
            try await client.execute(uri: "/unsafe/meta/-300x200/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body).contains("%3A\(host.split(separator: ":").last ?? "")/photo.jpg"), "slashes as Python writes them")
                let thumbor = try json(response)
                let source = try #require(thumbor["source"] as? [String: Any])
                // thumbor's source: the image part as requested (quoted: `:` is %3A), the size after the operations.
                #expect(source["url"] as? String == host.replacingOccurrences(of: ":", with: "%3A") + "/photo.jpg")
                #expect(source["width"] as? Int == 300 && source["height"] as? Int == 200 && source["frameCount"] as? Int == 1)
                let operations = try #require(thumbor["operations"] as? [[String: Any]])
                #expect(operations.map { $0["type"] as? String } == ["crop", "resize", "flip_horizontally"])
                #expect(["left", "top", "right", "bottom"].map { operations[0][$0] as? Int } == [0, 16, 400, 283])
                #expect(operations[1]["width"] as? Int == 300 && operations[1]["height"] as? Int == 200)
                let target = try #require(thumbor["target"] as? [String: Any])
                #expect(target["width"] as? Int == 300 && target["height"] as? Int == 200)
                let points = try #require(thumbor["focal_points"] as? [[String: Any]])
                #expect(points.count == 1 && points[0]["x"] as? Int == 200 && points[0]["y"] as? Int == 150 && points[0]["origin"] as? String == "alignment")
            }
        }
    }

    @Test func metaListsARotateOnlyInTheSourceSizeAndTheTargetIsTheLastCropOrResize() async throws {
        try await run { client, host in
            try await client.execute(uri: "/unsafe/meta/10x20:210x170/filters:rotate(90)/\(host)/photo.jpg", method: .get) { response in
                let thumbor = try json(response)
                let source = try #require(thumbor["source"] as? [String: Any])
                #expect(source["width"] as? Int == 150 && source["height"] as? Int == 200)
                let operations = try #require(thumbor["operations"] as? [[String: Any]])
                #expect(operations.map { $0["type"] as? String } == ["crop"])
                let target = try #require(thumbor["target"] as? [String: Any])
                #expect(target["width"] as? Int == 200 && target["height"] as? Int == 150)
            }
        }
    }

    @Test func maxWidthAndHeightShrinkTheSourceOnLoadAndMoveTheManualCropIntoIt() async throws {
        try await run(configure: { $0.thumbor.maximumWidth = 150; $0.thumbor.maximumHeight = 250 }) { client, host in
            // 400×300 → 150×112 (112.5 rounds to even); the crop 10x20:210x170 → 3x7:78x63 (floor division).
            try await client.execute(uri: "/unsafe/meta/10x20:210x170/100x0/\(host)/photo.jpg", method: .get) { response in
                let operations = try #require(try json(response)["operations"] as? [[String: Any]])
                let edges = operations.map { operation in ["left", "top", "right", "bottom"].map { operation[$0] as? Int } }
                #expect(edges.first == [3, 7, 78, 63])
                #expect(edges.dropFirst().first == [0, 0, 75, 56])
                #expect(operations.last?["width"] as? Int == 100 && operations.last?["height"] as? Int == 75)
            }
            try await client.execute(uri: "/unsafe/10x20:210x170/100x0/\(host)/photo.jpg", method: .get) { response in
                let decoded = try image(response)
                #expect(decoded.pixelSize == PixelSize(width: 100, height: 75))
                // Source x 8…208 of a red | blue split at 200: red on the left, blue at the right edge.
                let left = decoded.pixels[5, 37], right = decoded.pixels[99, 37]
                #expect(left.red > 200 && left.blue < 60)
                #expect(right.blue > right.red)
            }
            // fit-in on the shrunk source: 150×112 is already inside 500×500 (the request lowered to 150×250).
            try await client.execute(uri: "/unsafe/fit-in/500x500/\(host)/photo.jpg", method: .get) { response in
                let decoded = try image(response)
                #expect(decoded.pixelSize == PixelSize(width: 150, height: 112))
            }
        }
    }

    @Test func maxAgeSetsCacheControlAndAutoWebPVariesByAcceptUnlessFormatIsAsked() async throws {
        try await run(configure: { $0.autoWebP = true }) { client, host in
            try await client.execute(uri: "/unsafe/100x0/filters:max_age(60)/\(host)/photo.jpg", method: .get, headers: [.accept: "image/webp"]) { response in
                #expect(response.headers[.cacheControl]?.contains("max-age=60") == true)
                #expect(response.headers[.vary] == "Accept")
                let decoded = try image(response)
                #expect(decoded.format == .webp)
            }
            try await client.execute(uri: "/unsafe/100x0/filters:format(png)/\(host)/photo.jpg", method: .get, headers: [.accept: "image/webp"]) { response in
                #expect(response.headers[.vary] == nil)
                #expect(response.headers[.cacheControl]?.contains("max-age=3600") == true)
                let decoded = try image(response)
                #expect(decoded.format == .png)
            }
        }
    }

    @Test func aNegativeWidthMirrorsAndRotateTurnsCounterClockwiseAsThumborDoes() async throws {
        try await run { client, host in
            // The photo is red on its left half, blue on its right.
            try await client.execute(uri: "/unsafe/-300x200/filters:format(png)/\(host)/photo.jpg", method: .get) { response in
                let pixels = try image(response).frames[0].pixels
                #expect(pixels[10, 100].blue > 150 && pixels[290, 100].red > 150)
            }
            try await client.execute(uri: "/unsafe/300x200/filters:rotate(90):format(png)/\(host)/photo.jpg", method: .get) { response in
                let pixels = try image(response).frames[0].pixels
                #expect(pixels.size == PixelSize(width: 200, height: 300))
                // A quarter turn counter-clockwise brings the right (blue) half to the top.
                #expect(pixels[100, 10].blue > 150 && pixels[100, 290].red > 150)
            }
        }
    }

    @Test func fillPadsTheFitInResultToTheBoxWithItsColour() async throws {
        try await run { client, host in
            try await client.execute(uri: "/unsafe/fit-in/500x500/filters:fill(00ff00):format(png)/\(host)/photo.jpg", method: .get) { response in
                let pixels = try image(response).frames[0].pixels
                #expect(pixels.size == PixelSize(width: 500, height: 500))
                #expect(pixels[250, 10] == RGBA(red: 0, green: 255, blue: 0))
                #expect(pixels[60, 250].red > 150)
            }
        }
    }
}
