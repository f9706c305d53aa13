import Foundation
import Hummingbird
import HummingbirdTesting
import WebImageKit

/// A Hummingbird origin on 127.0.0.1, port 0, that serves fixed files: `/<name>` for each name given.
struct SyntheticOrigin: Sendable {
    /// A file's bytes and content type.
    struct File: Sendable {
        let data: Data
        let type: String
    }

    let files: [String: File]

    /// Encodes each picture in the format its name's extension says (`.jpg` or `.png`).
    init(_ pictures: [String: PixelBuffer]) throws {
        var files: [String: File] = [:]
        for (name, pixels) in pictures {
            let isJPEG = name.hasSuffix(".jpg")
            let data = try ImageCodersManager.shared.encode(
                Image(pixels: pixels), as: isJPEG ? .jpeg : .png, options: ImageEncodingOptions(quality: 0.95))
            files[name] = File(data: data, type: isJPEG ? "image/jpeg" : "image/png")
        }
        self.files = files
    }

    /// Runs `body` with the origin listening; `body` gets the origin's base URL, such as `http://127.0.0.1:41234`.
    func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        for (name, file) in files {
            router.get(RouterPath(name)) { _, _ in
                Response(status: .ok, headers: [.contentType: file.type], body: .init(byteBuffer: ByteBuffer(bytes: file.data)))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port else { throw SourceOrigin.OriginError.noPort }
            try await body("http://127.0.0.1:\(port)")
        }
    }
}
