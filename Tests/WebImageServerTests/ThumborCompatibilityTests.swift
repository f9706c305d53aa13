import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// thumbor 7.8's own answers, side by side with this server's: `scripts/thumbor-compat-urls.py` builds URLs with
/// libthumbor (signed and unsafe) across every URL part and the filters mapped onto processing options, asks a
/// thumbor it starts on 127.0.0.1 (from the venv `scripts/install-thumbor.sh` makes, which `make test` runs), and
/// lists thumbor's status, format and pixel size; this server, in the thumbor dialect, must answer each the same.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: ThumborTools.python), "run scripts/install-thumbor.sh for thumbor 7.8 and libthumbor"))
struct ThumborCompatibilityTests {
    struct Case: Decodable {
        let name: String
        let path: String
        let status: Int
        let format: String?
        let width: Int?
        let height: Int?
    }

    static let key = "compat-secret"

    @Test func everyLibthumborURLGetsThumborsStatusFormatAndPixelSize() async throws {
        let origin = try ThumborOrigin()
        let folder = try TemporaryDirectory("thumbor-compat")
        defer { folder.remove() }
        try await origin.run { base in
            let script = MotoTools.root.appendingPathComponent("scripts/thumbor-compat-urls.py").path
            let printed = try await S3MotoTests.output(ThumborTools.python, [script, base, Self.key])
            let cases = try JSONDecoder().decode([Case].self, from: Data(printed.utf8))
            #expect(cases.count > 60)
            #expect(cases.filter { $0.status == 200 }.count > 55, "thumbor answered too few: is it loading from 127.0.0.1?")
            let settings = ServerSettings(commandLine: [
                "dialect": "thumbor", "thumbor-key": Self.key, "allow-unsafe-urls": "true", "allow-loopback-sources": "true",
            ])
            var configuration = try settings.configuration()
            configuration.port = 0
            configuration.cacheDirectory = folder.url
            let app = try buildApplication(configuration: configuration, logger: ServerTestHarness.quietLogger)
            try await app.test(.router) { client in
                for item in cases {
                    try await client.execute(uri: item.path, method: .get) { response in
                        #expect(Int(response.status.code) == item.status, "\(item.name): \(String(buffer: response.body))")
                        guard item.status == 200, response.status == .ok else { return }
                        let body = Data(response.body.readableBytesView)
                        let size: PixelSize, format: String
                        if response.headers[.contentType] == "application/json" {
                            let meta = try JSONDecoder().decode(ThumborMetadataProbe.self, from: body)
                            (size, format) = (PixelSize(width: meta.thumbor.target.width, height: meta.thumbor.target.height), "json")
                        } else {
                            let image = try ImageCodersManager.shared.decode(body, options: .init())
                            (size, format) = (image.pixelSize, image.format.rawValue)
                        }
                        #expect(format == item.format, "\(item.name)")
                        #expect(size == PixelSize(width: item.width ?? 0, height: item.height ?? 0), "\(item.name): \(size)")
                    }
                }
            }
        }
    }
}

/// The target size of a `meta/` answer.
struct ThumborMetadataProbe: Decodable {
    struct Body: Decodable {
        struct Size: Decodable {
            let width: Int
            let height: Int
        }
        let target: Size
    }
    let thumbor: Body
}

/// Where the thumbor venv is.
enum ThumborTools {
    /// The thumbor venv's Python, with thumbor 7.8, libthumbor and Pillow.
    static let python = MotoTools.root.appendingPathComponent("benchmarks/work/thumbor-venv/bin/python").path
}
