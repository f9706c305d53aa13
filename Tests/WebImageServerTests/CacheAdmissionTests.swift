import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// `cache-min-uses`: a source or a result is written to its disk cache on the request that asks for it the
/// configured number of times (2 by default), not before.
@Suite struct CacheAdmissionTests {
    @Test func byDefaultASourceAndAResultAreWrittenOnTheirSecondRequest() async throws {
        #expect(ImageServerConfiguration().cacheMinimumUses == 2)
        let directory = try TemporaryDirectory("admission")
        defer { directory.remove() }
        try await ServerTestHarness.run(configure: { configuration in
            configuration.cacheDirectory = directory.url
            configuration.cacheMinimumUses = ImageServerConfiguration().cacheMinimumUses
        }) { client, base, origin in
            func ask(_ width: Int) async throws {
                try await client.execute(uri: "/_/w:\(width)/plain/\(base)/photo.jpg", method: .get) { #expect($0.status == .ok) }
            }
            // Asked once: fetched, processed, nothing written.
            try await ask(30)
            #expect(await origin.requests.count("/photo.jpg") == 1)
            #expect(Self.files(in: directory.url) == 0)
            // The source's second request fetches it again and stores it; its result, asked once, is not stored.
            try await ask(31)
            #expect(await origin.requests.count("/photo.jpg") == 2)
            try await eventually(timeout: .seconds(30)) { Self.files(in: directory.url.appendingPathComponent("sources")) == 1 }
            #expect(Self.files(in: directory.url.appendingPathComponent("results")) == 0)
            // From now on the source comes from the disk; w:30's second request stores its result.
            try await ask(30)
            #expect(await origin.requests.count("/photo.jpg") == 2)
            #expect(Self.files(in: directory.url.appendingPathComponent("results")) == 1)
        }
    }

    @Test func aKeyIsAdmittedOnItsNthUseAndTheOldestKeysAreForgottenFirst() {
        let always = CacheAdmission(minimumUses: 1)
        #expect(always.admits("a") && always.admits("a"))
        let third = CacheAdmission(minimumUses: 3)
        #expect(!third.admits("a") && !third.admits("a") && third.admits("a") && third.admits("a"))
        let small = CacheAdmission(minimumUses: 2, capacity: 2)
        #expect(!small.admits("a") && !small.admits("b") && !small.admits("c"))
        // "a" was forgotten when "c" came: its next use counts as its first.
        #expect(!small.admits("a"))
        #expect(small.admits("c"))
    }

    @Test func theSettingIsReadAndMustBeAtLeastOne() throws {
        #expect(try ServerSettings(environment: ["WEBIMAGE_SERVE_CACHE_MIN_USES": "1"]).configuration().cacheMinimumUses == 1)
        #expect(throws: ServerSettingsError.self) { try ServerSettings(environment: ["WEBIMAGE_SERVE_CACHE_MIN_USES": "0"]).configuration() }
    }

    /// The regular files under `folder`, at any depth, temporary ones aside.
    static func files(in folder: URL) -> Int {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return 0 }
        return walker.compactMap { $0 as? URL }.filter { url in
            (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true && !url.lastPathComponent.hasPrefix(".")
        }.count
    }
}
