import AsyncHTTPClient
import Foundation
import NIOHTTP1
import NIOSSL

extension ImageDownloader {
    /// The request for `url`: configured headers, credentials, validators and per-request TLS options (SPEC DL-54, DL-56).
    func makeRequest(url: URL, options: DownloadOptions, validators: Validators?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        for (name, value) in configuration.headers where !value.isEmpty {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let credentials = configuration.credentials, !request.headers.contains(name: "Authorization") {
            request.headers.replaceOrAdd(name: "Authorization", value: credentials.authorizationHeader)
        }
        for header in validators?.requestHeaders ?? [] {
            request.headers.replaceOrAdd(name: header.name, value: header.value)
        }
        if options.contains(.allowInvalidSSLCertificates) {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            request.tlsConfiguration = tls
        }
        return request
    }

}
