import Foundation
import NIOSSL
import Testing
import WebImageKit

/// Certificate verification (issue item 4; SPEC section 16 note on certificates): on by default, off
/// only for a request with ``DownloadOptions/allowInvalidSSLCertificates``.
@Suite struct TLSTests {
    /// A server identity whose certificate is self-signed for 127.0.0.1, valid until 2126 (Fixtures/tls).
    static func selfSignedServer() throws -> TLSConfiguration {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent("tls")
        let certificates = try NIOSSLCertificate.fromPEMFile(folder.appendingPathComponent("cert.pem").path)
        let key = try NIOSSLPrivateKey(file: folder.appendingPathComponent("key.pem").path, format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
    }

    @Test func aSelfSignedServerIsRejectedByDefault() async throws {
        let server = try TestImageServer()
        try await server.run(tls: Self.selfSignedServer()) { base in
            let error = try await ImageDownloaderTests.error(base.appendingPathComponent("image/tls.png"))
            #expect(error?.code == .tlsFailed)
            #expect(error?.isTransient == false)
            #expect(await server.log.count("/image/tls.png") == 0)
        }
    }

    @Test func allowInvalidSSLCertificatesAcceptsItForThatRequestOnly() async throws {
        let server = try TestImageServer()
        try await server.run(tls: Self.selfSignedServer()) { base in
            try await withImageDownloader { downloader in
                let allowed = try await downloader.image(
                    for: base.appendingPathComponent("image/allowed.png"), options: .allowInvalidSSLCertificates)
                #expect(allowed.image.pixelSize == PixelSize(width: 16, height: 8))
                // The next request without the option verifies again, on the same downloader.
                await #expect(throws: ImageDownloadError.self) {
                    _ = try await downloader.image(for: base.appendingPathComponent("image/verified.png"))
                }
            }
            #expect(await server.log.count("/image/allowed.png") == 1)
            #expect(await server.log.count("/image/verified.png") == 0)
        }
    }
}
