import Foundation
import NIOHTTP1

extension ImageDownloader {
    /// The request for `url`: configured headers, credentials (for their origin only), validators, then the headers filter and
    /// the request modifier (issue item 5). Returns the URL to fetch and its headers.
    /// - Throws: ``ImageDownloadError/Code/cancelled`` when the request modifier returns `nil`.
    func makeRequest(
        url: URL, options: DownloadOptions, validators: Validators?, configuration: Configuration
    ) async throws -> (url: URL, headers: HTTPHeaders) {
        var headers = HTTPHeaders()
        for (name, value) in configuration.headers where !value.isEmpty {
            headers.replaceOrAdd(name: name, value: value)
        }
        if let credentials = configuration.credentials, credentials.apply(to: url), !headers.contains(name: "Authorization") {
            headers.replaceOrAdd(name: "Authorization", value: credentials.authorizationHeader)
        }
        for header in validators?.requestHeaders ?? [] {
            headers.replaceOrAdd(name: header.name, value: header.value)
        }
        if options.contains(.handleCookies), let cookie = cookies.header(for: url) {
            headers.replaceOrAdd(name: "Cookie", value: cookie)
        }
        var target = url
        if configuration.headersFilter != nil || configuration.requestModifier != nil {
            var fields = Dictionary(headers.map { ($0.name, $0.value) }) { "\($0), \($1)" }
            if let filter = configuration.headersFilter { fields = filter(url, fields) }
            if let modifier = configuration.requestModifier {
                guard let modified = await modifier(DownloadRequest(url: url, headers: fields)) else {
                    throw ImageDownloadError.cancelled("the request modifier cancelled the request")
                }
                target = modified.url
                fields = modified.headers
            }
            headers = HTTPHeaders(fields.map { ($0.key, $0.value) })
        }
        return (target, headers)
    }
}
