import Foundation
import Testing
@testable import WebImageKit

@Suite struct DownloadResponseTests {
    static func response(contentType: String?) -> DownloadResponse {
        DownloadResponse(url: URL(string: "https://example.com/a")!, statusCode: 200,
                         headers: contentType.map { ["Content-Type": $0] } ?? [:])
    }

    @Test func theMIMETypeIsTheContentTypeWithoutParametersOrBlanksLowerCased() {
        #expect(Self.response(contentType: "image/png").mimeType == "image/png")
        #expect(Self.response(contentType: " Image/WebP ; charset=binary").mimeType == "image/webp")
        #expect(Self.response(contentType: "\timage/jpeg\t;q=1").mimeType == "image/jpeg")
        #expect(Self.response(contentType: "image/gif;").mimeType == "image/gif")
    }

    @Test func aMissingOrBlankContentTypeHasNoMIMEType() {
        #expect(Self.response(contentType: nil).mimeType == nil)
        #expect(Self.response(contentType: "").mimeType == nil)
        #expect(Self.response(contentType: "  ; charset=x").mimeType == nil)
    }
}
