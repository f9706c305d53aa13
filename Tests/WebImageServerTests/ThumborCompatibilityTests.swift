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
        /// For `meta/`: thumbor's source size, operations and focal points.
        let source: ThumborMetadataProbe.Size?
        let operations: [ThumborMetadataProbe.Operation]?
        let focalPoints: [ThumborMetadataProbe.FocalPoint]?

        enum CodingKeys: String, CodingKey {
            case name, path, status, format, width, height, source, operations
            case focalPoints = "focal_points"
        }
    }

    static let key = "compat-secret"

    @Test func everyLibthumborURLGetsThumborsStatusFormatAndPixelSize() async throws {
        try await compare(conf: [], settings: [:])
    }

    @Test func underMaxWidthAndMaxHeightEveryURLGetsThumborsAnswerToo() async throws {
        // 400×300 shrinks to 150×112 by its width, 202×303 to 167×250 by its height; 100×80 stays.
        try await compare(conf: ["MAX_WIDTH = 150", "MAX_HEIGHT = 250"], settings: ["thumbor-max-width": "150", "thumbor-max-height": "250"])
    }

    /// thumbor started with the extra `conf` lines and this server with the same `settings` answer every URL of
    /// the script alike: status, format, pixel size; for `meta/`, the source size, operations and focal points too.
    func compare(conf: [String], settings extra: [String: String]) async throws {
        let origin = try ThumborOrigin()
        let folder = try TemporaryDirectory("thumbor-compat")
        defer { folder.remove() }
        try await origin.run { base in
            let script = MotoTools.root.appendingPathComponent("scripts/thumbor-compat-urls.py").path
            let printed = try await S3MotoTests.output(ThumborTools.python, [script, base, Self.key] + conf)
            let cases = try JSONDecoder().decode([Case].self, from: Data(printed.utf8))
            #expect(cases.count > 75)
            #expect(cases.filter { $0.status == 200 }.count > 70, "thumbor answered too few: is it loading from 127.0.0.1?")
            let settings = ServerSettings(commandLine: [
                "dialect": "thumbor", "thumbor-key": Self.key, "allow-unsafe-urls": "true", "allow-loopback-sources": "true",
            ].merging(extra) { _, new in new })
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
                            let meta = try JSONDecoder().decode(ThumborMetadataProbe.self, from: body).thumbor
                            (size, format) = (PixelSize(width: meta.target.width, height: meta.target.height), "json")
                            #expect(meta.source == item.source, "\(item.name): source")
                            #expect(meta.operations == item.operations, "\(item.name): operations")
                            #expect(meta.focalPoints == item.focalPoints, "\(item.name): focal points")
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

/// A `meta/` answer as both servers write it; numbers are read as numbers, so thumbor's `100.0` equals our `100`.
struct ThumborMetadataProbe: Decodable {
    struct Size: Decodable, Equatable {
        let width: Int
        let height: Int
    }

    struct Operation: Decodable, Equatable {
        let type: String
        let left: Double?
        let top: Double?
        let right: Double?
        let bottom: Double?
        let width: Double?
        let height: Double?
    }

    struct FocalPoint: Decodable, Equatable {
        let x: Int
        let y: Int
        let z: Double
        let width: Int
        let height: Int
        let origin: String
    }

    struct Body: Decodable {
        let source: Size
        let operations: [Operation]
        let target: Size
        let focalPoints: [FocalPoint]

        enum CodingKeys: String, CodingKey {
            case source, operations, target
            case focalPoints = "focal_points"
        }
    }
    let thumbor: Body
}

/// Where the thumbor venv is.
enum ThumborTools {
    /// The thumbor venv's Python, with thumbor 7.8, libthumbor and Pillow.
    static let python = MotoTools.root.appendingPathComponent("benchmarks/work/thumbor-venv/bin/python").path
}
