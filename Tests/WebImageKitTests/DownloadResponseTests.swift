import Foundation
import Testing
@testable import WebImageKit

@Suite struct DownloadResponseTests {
    static func response(contentType: String?) -> DownloadResponse {
        DownloadResponse(url: URL(string: "https://example.com/a")!, statusCode: 200,
                         headers: contentType.map { ["Content-Type": $0] } ?? [:])
    }

    @Test func headerNamesMatchWhateverTheirCaseAndRepeatedOnesAreJoined() {
        let fields = [("Content-Type", "image/png"), ("X-CUSTOM-Name", "1"), ("etag", "\"a\""), ("Vary", "A"), ("vary", "B")]
        let response = DownloadResponse(url: URL(string: "https://example.com/a")!, statusCode: 200,
                                        fields: fields.map { (name: $0.0, value: $0.1) })
        #expect(response.value(forHeader: "content-type") == "image/png")
        #expect(response.value(forHeader: "X-Custom-NAME") == "1")
        #expect(response.value(forHeader: "ETag") == "\"a\"")
        #expect(response.value(forHeader: "VARY") == "A, B")
        #expect(Set(response.headers.keys) == ["content-type", "x-custom-name", "etag", "vary"])
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
