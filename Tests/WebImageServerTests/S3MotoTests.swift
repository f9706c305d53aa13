import Foundation
import Glibc
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// `s3://` sources against moto's S3 server with authentication enforced, started here on 127.0.0.1 (the moto
/// virtual environment comes from `scripts/install-test-tools.sh`, which `make test` runs).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: MotoTools.server), "run scripts/install-test-tools.sh for moto"))
struct S3MotoTests {
    static let root = MotoTools.root
    static let motoServer = MotoTools.server

    @Test func aSignedRequestGetsTheObjectAMissingOneIs404AndAWrongSecretIs403() async throws {
        let folder = try TemporaryDirectory("s3-moto")
        defer { folder.remove() }
        // moto binds a port of the system's choosing and names it in its log: a port picked beforehand could be taken
        // by another test's server before moto binds it.
        let log = folder.url.appendingPathComponent("moto.log")
        try Data().write(to: log)
        let moto = Process()
        moto.executableURL = URL(fileURLWithPath: Self.motoServer)
        moto.arguments = ["-H", "127.0.0.1", "-p", "0"]
        moto.environment = ProcessInfo.processInfo.environment.merging(["INITIAL_NO_AUTH_ACTION_COUNT": "3"]) { _, new in new }
        moto.standardOutput = FileHandle.nullDevice
        moto.standardError = try FileHandle(forWritingTo: log)
        try moto.run()
        defer { kill(moto.processIdentifier, SIGKILL) }
        let port = try await listeningPort(in: log, after: "Running on http://127.0.0.1:")

        let photo = folder.url.appendingPathComponent("photo.jpg")
        try SourceOrigin().photo.write(to: photo)
        let printed = try await Self.output(MotoTools.python, [Self.root.appendingPathComponent("scripts/s3-moto-setup.py").path, "\(port)", photo.path])
        let key = printed.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(key.count == 2, "moto setup printed '\(printed)'")

        let environment = [
            "IMGPROXY_USE_S3": "true", "IMGPROXY_S3_ENDPOINT": "http://127.0.0.1:\(port)",
            "AWS_ACCESS_KEY_ID": key[0], "AWS_SECRET_ACCESS_KEY": key[1], "HOME": folder.url.path,
        ]
        try await Self.serve(environment, cache: folder.url.appendingPathComponent("cache")) { client in
            try await client.execute(uri: "/_/w:50/plain/s3://images/photos/photo.jpg", method: .get) { response in
                #expect(response.status == .ok)
                let image = try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: .init())
                #expect(image.pixelSize == PixelSize(width: 50, height: 38))
            }
            try await client.execute(uri: "/_/w:50/plain/s3://images/photos/none.jpg", method: .get) { #expect($0.status == .notFound) }
        }
        var wrong = environment
        wrong["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        try await Self.serve(wrong, cache: folder.url.appendingPathComponent("cache-wrong")) { client in
            try await client.execute(uri: "/_/w:50/plain/s3://images/photos/photo.jpg", method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body) == "S3 refused the request (SignatureDoesNotMatch)\n")
            }
        }
    }

    /// A server configured by `environment` alone, its caches in `cache`.
    static func serve(_ environment: [String: String], cache: URL, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var configuration = try ServerSettings(environment: environment).configuration()
        configuration.port = 0
        configuration.cacheDirectory = cache
        let app = try buildApplication(configuration: configuration, logger: ServerTestHarness.quietLogger)
        try await app.test(.router) { client in try await body(client) }
    }

    /// What `executable` prints, run on a thread of its own (its output read to the end, then waited for); throws
    /// when it fails.
    static func output(_ executable: String, _ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let process = Process(), pipe = Pipe()
                    process.executableURL = URL(fileURLWithPath: executable)
                    process.arguments = arguments
                    process.standardOutput = pipe
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    guard process.terminationStatus == 0 else { throw ToolFailed(status: process.terminationStatus) }
                    return String(decoding: data, as: UTF8.self)
                })
            }
        }
    }

    struct ToolFailed: Error {
        let status: Int32
    }
}

/// Where `scripts/install-test-tools.sh` puts moto and the imgproxy URL builders.
enum MotoTools {
    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// moto's standalone server.
    static let server = root.appendingPathComponent("benchmarks/work/moto-venv/bin/moto_server").path
    /// The environment's Python, with boto3, pyimgproxy and imgproxy.
    static let python = root.appendingPathComponent("benchmarks/work/moto-venv/bin/python").path
}
