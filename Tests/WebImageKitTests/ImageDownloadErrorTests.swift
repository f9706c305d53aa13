import Foundation
import Testing
@testable import WebImageKit

/// Which failures are worth retrying (the manager's failed-URL list relies on it; SPEC MG-52).
@Suite struct ImageDownloadErrorTests {
    @Test(arguments: [408, 429, 502, 503, 504])
    func serverOverloadStatusesAreTransient(status: Int) {
        #expect(ImageDownloadError(.badStatus(status), "").isTransient)
    }

    @Test(arguments: [400, 401, 403, 404, 410, 500, 501])
    func otherStatusesArePermanent(status: Int) {
        #expect(!ImageDownloadError(.badStatus(status), "").isTransient)
    }

    @Test func timeoutsAndNetworkFailuresAreTransient() {
        #expect(ImageDownloadError(.timeout, "").isTransient)
        #expect(ImageDownloadError(.network, "").isTransient)
    }

    @Test func contentFailuresArePermanent() {
        let codes: [ImageDownloadError.Code] = [.invalidURL, .badContentType, .tooLarge, .cancelled, .tooManyRedirects, .decodeFailed, .emptyBody]
        for code in codes { #expect(!ImageDownloadError(code, "").isTransient, "\(code)") }
    }

    @Test func aDecodeFailureCarriesTheCodingError() {
        let coding = ImageCodingError(.corruptData, format: .png, "bad chunk")
        let error = ImageDownloadError(.decodeFailed, "could not decode", underlying: coding)
        #expect(error.codingError?.code == .corruptData)
    }
}

/// The downloader's configuration defaults (SPEC DL-17, DL-19, DL-21, DL-30, DL-51).
@Suite struct ImageDownloaderConfigurationTests {
    @Test func defaultsAreTheSeeds() {
        let configuration = ImageDownloader.Configuration()
        #expect(configuration.maximumConcurrentDownloads == 6)
        #expect(configuration.timeout == .seconds(15))
        #expect(configuration.executionOrder == .fifo)
        #expect(configuration.acceptableStatusCodes == 200..<400)
        #expect(configuration.headers["Accept"]?.hasSuffix("image/*;q=0.8") == true)
        #expect(configuration.headers["User-Agent"]?.hasPrefix("WebImageKit/") == true)
    }

    @Test func notificationCenterPostingIsOffUnlessAskedFor() {  // issue 13: events() is the one way by default
        #expect(!ImageDownloader.Configuration().postsNotifications)
    }

    @Test func aZeroTimeoutMeansFifteenSeconds() {  // SPEC DL-51
        var configuration = ImageDownloader.Configuration()
        configuration.timeout = .zero
        #expect(configuration.effectiveTimeout == .seconds(15))
    }

    @Test func credentialsBecomeABasicAuthorisationHeader() {
        let origin = URL(string: "https://images.example.com")!
        #expect(ImageDownloader.Configuration.Credentials(user: "user", password: "pass", origin: origin).authorizationHeader == "Basic dXNlcjpwYXNz")
    }

    @Test func highPriorityWinsOverLow() {  // SPEC DL-57
        #expect(DownloadPriority([.lowPriority, .highPriority]) == .high)
        #expect(DownloadPriority(.lowPriority) == .low)
        #expect(DownloadPriority([]) == .normal)
    }
}

/// Errors read well wherever they are printed (issue 13): `localizedDescription` is the description.
@Suite struct ErrorDescriptionTests {
    @Test func localizedDescriptionSaysWhatWentWrong() {
        let download = ImageDownloadError(.badStatus(404), "the server answered 404")
        #expect(download.localizedDescription == download.description)
        #expect(download.localizedDescription.contains("404"))
        let coding = ImageCodingError(.corruptData, format: .png, "bad IHDR")
        #expect((coding as any Error).localizedDescription.contains("bad IHDR"))
        let load = ImageLoadError(.loadFailed, "it failed", url: nil, underlying: download)
        #expect((load as any Error).localizedDescription == load.description)
    }
}
