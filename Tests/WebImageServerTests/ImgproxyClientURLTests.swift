import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// URLs built by imgproxy's client libraries from PyPI (pyimgproxy, imgproxy), signed, with every open-source option
/// they can express, answered by a server configured through `IMGPROXY_*` variables only
/// (`scripts/imgproxy-client-urls.py` lists them with imgproxy's answers; its environment comes from
/// `scripts/install-test-tools.sh`, which `make test` runs).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: MotoTools.python), "run scripts/install-test-tools.sh for the URL builders"))
struct ImgproxyClientURLTests {
    struct Case: Decodable {
        let name: String
        let path: String
        let status: Int
        let width: Int?
        let height: Int?
        let format: String?
        let tolerance: Int?
        let attachment: Bool?
    }

    static let key = "736563726574", salt = "68656c6c6f"

    @Test func everyURLTheClientLibrariesBuildIsAnsweredWithTheSizeAndFormatAsked() async throws {
        let origin = try SourceOrigin()
        let folder = try TemporaryDirectory("imgproxy-clients")
        defer { folder.remove() }
        try await origin.run { base in
            let script = MotoTools.root.appendingPathComponent("scripts/imgproxy-client-urls.py").path
            let printed = try await S3MotoTests.output(MotoTools.python, [script, base, Self.key, Self.salt])
            let cases = try JSONDecoder().decode([Case].self, from: Data(printed.utf8))
            #expect(cases.count > 60)
            let watermark = try ImageCodersManager.shared.encode(
                Image(pixels: PixelBuffer(width: 16, height: 16, fill: RGBA(red: 255, green: 255, blue: 255, alpha: 200))), as: .png, options: .init())
            let environment = [
                "IMGPROXY_KEY": Self.key, "IMGPROXY_SALT": Self.salt, "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true",
                "IMGPROXY_ALLOW_SECURITY_OPTIONS": "true", "IMGPROXY_PRESETS": "small=w:50",
                "IMGPROXY_WATERMARK_DATA": watermark.base64EncodedString(),
            ]
            try await S3MotoTests.serve(environment, cache: folder.url) { client in
                for item in cases {
                    try await client.execute(uri: item.path, method: .get) { response in
                        #expect(response.status.code == item.status, "\(item.name): \(String(buffer: response.body))")
                        guard item.status == 200, response.status == .ok else { return }
                        let image = try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: .init())
                        #expect(image.format.rawValue == item.format, "\(item.name)")
                        let tolerance = item.tolerance ?? 0
                        #expect(abs(image.pixelSize.width - (item.width ?? 0)) <= tolerance, "\(item.name): \(image.pixelSize)")
                        #expect(abs(image.pixelSize.height - (item.height ?? 0)) <= tolerance, "\(item.name): \(image.pixelSize)")
                        if item.attachment == true {
                            #expect(response.headers[.contentDisposition]?.hasPrefix("attachment") == true, "\(item.name)")
                        }
                    }
                }
            }
        }
    }
}
