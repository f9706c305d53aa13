import Foundation
import Hummingbird
import HummingbirdTesting
import WebImageKit

/// A Hummingbird origin on 127.0.0.1, port 0, for the thumbor-dialect tests (thumbor itself fetches from it too):
/// `/landscape.jpg` (400×300, left half red, right half blue), `/portrait.jpg` (202×303, the same halves),
/// `/alpha.png` (64×32, translucent green), `/bordered.png` (100×80: a white border 10 wide around red) and
/// `/broken.jpg` (text sent as `image/jpeg`); anything else is 404.
struct ThumborOrigin: Sendable {
    let files: [String: (data: Data, type: String)]

    init() throws {
        let coders = ImageCodersManager.shared
        var bordered = PixelBuffer(width: 100, height: 80, fill: RGBA(red: 255, green: 255, blue: 255))
        for y in 10..<70 { for x in 10..<90 { bordered[x, y] = RGBA(red: 255, green: 0, blue: 0) } }
        files = [
            "/landscape.jpg": (try coders.encode(Image(pixels: SourceOrigin.halves(width: 400, height: 300)), as: .jpeg, options: .init()), "image/jpeg"),
            "/portrait.jpg": (try coders.encode(Image(pixels: SourceOrigin.halves(width: 202, height: 303)), as: .jpeg, options: .init()), "image/jpeg"),
            "/alpha.png": (try coders.encode(
                Image(pixels: PixelBuffer(width: 64, height: 32, fill: RGBA(red: 0, green: 200, blue: 0, alpha: 128))), as: .png, options: .init()), "image/png"),
            "/bordered.png": (try coders.encode(Image(pixels: bordered), as: .png, options: .init()), "image/png"),
            "/broken.jpg": (Data("not an image".utf8), "image/jpeg"),
        ]
    }

    /// Runs `body` with the origin listening; `body` gets its base URL (`http://127.0.0.1:41234`).
    func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        let files = self.files
        router.get("**") { request, _ in
            guard let file = files[request.uri.path] else { return Response(status: .notFound) }
            return Response(status: .ok, headers: [.contentType: file.type], body: .init(byteBuffer: ByteBuffer(bytes: file.data)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port else { throw SourceOrigin.OriginError.noPort }
            try await body("http://127.0.0.1:\(port)")
        }
    }
}
