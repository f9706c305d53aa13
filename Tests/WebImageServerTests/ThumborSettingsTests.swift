import Foundation
import Testing
@testable import WebImageServer

/// `--dialect`, the thumbor options and a `thumbor.conf` read into the one configuration.
struct ThumborSettingsTests {
    @Test func theDialectIsImgproxyByDefaultAndThumborWhenAsked() throws {
        #expect(try ServerSettings().configuration().dialect == .imgproxy)
        let configuration = try ServerSettings(commandLine: ["dialect": "thumbor", "thumbor-key": "k", "allow-unsafe-urls": "true"]).configuration()
        #expect(configuration.dialect == .thumbor && configuration.thumbor.securityKey == "k" && configuration.thumbor.allowsUnsafeURLs)
        #expect(throws: ServerSettingsError.self) { try ServerSettings(commandLine: ["dialect": "nginx"]).configuration() }
    }

    @Test func unsafeURLsAreRefusedByDefaultUnlikeThumbor() throws {
        #expect(try ServerSettings(commandLine: ["dialect": "thumbor"]).configuration().thumbor.allowsUnsafeURLs == false)
    }

    @Test func aThumborConfsSimpleLinesSetTheSettingsThumborNames() throws {
        let conf = try ThumborConf(contents: """
            # thumbor.conf
            SECURITY_KEY = 'MY_SECURE_KEY'   # the key
            ALLOW_UNSAFE_URL = True
            QUALITY = 85
            WEBP_QUALITY = 70
            MAX_AGE = 86400
            AUTO_WEBP = True
            MAX_WIDTH = 1200
            MAX_PIXELS = 75e6
            RESPECT_ORIENTATION = False
            PRESERVE_EXIF_INFO = True
            HTTP_LOADER_REQUEST_TIMEOUT = 20
            ALLOWED_SOURCES = [
                'images.example.com',
                "cdn.example.com",
            ]
            LOADER = 'thumbor.loaders.http_loader'
            DETECTORS = []
            """)
        #expect(conf.values["thumbor-key"] == "MY_SECURE_KEY" && conf.values["allow-unsafe-urls"] == "true")
        #expect(conf.values["quality"] == "85" && conf.values["max-age"] == "86400" && conf.values["thumbor-max-width"] == "1200")
        #expect(conf.values["format-quality"] == "webp=70,avif=65" && conf.values["max-src-resolution"] == "75.0")
        #expect(conf.values["strip-metadata"] == "false" && conf.values["auto-rotate"] == "false")
        #expect(conf.values["allow-source"] == "http://images.example.com/,https://images.example.com/,http://cdn.example.com/,https://cdn.example.com/")
        #expect(conf.ignored == ["DETECTORS", "LOADER"])
    }

    @Test func aLineThatIsNotNameEqualsValueIsRefused() {
        #expect(throws: ServerSettingsError.self) { try ThumborConf(contents: "this is not python") }
    }

    @Test func theConfFileIsReadBelowEveryOtherPlaceAndThumborVariablesOverIt() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("thumbor-\(UUID().uuidString).conf")
        try "SECURITY_KEY = 'from-file'\nQUALITY = 70\nMAX_AGE = 100\nUPLOAD_ENABLED = True\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let settings = ServerSettings(
            commandLine: ["dialect": "thumbor", "thumbor-conf": file.path, "max-age": "5"],
            environment: ["THUMBOR_SECURITY_KEY": "from-environment"])
        let resolved = try settings.resolve()
        #expect(resolved.configuration.thumbor.securityKey == "from-environment")
        #expect(resolved.configuration.defaultQuality == 70)
        #expect(resolved.configuration.maxAge == 5)
        #expect(resolved.ignoredThumborSettings == ["UPLOAD_ENABLED"])
        #expect(try settings.report().contains { $0.hasPrefix("quality = 70") && $0.contains("thumbor.conf") })
    }

    @Test func maxWidthAndHeightLowerTheRequestedSize() {
        #expect(ImageRequestPipeline.limited(.pixels(2000), to: 1200) == .pixels(1200))
        #expect(ImageRequestPipeline.limited(.pixels(800), to: 1200) == .pixels(800))
        #expect(ImageRequestPipeline.limited(.original, to: 1200) == .original)
        #expect(ImageRequestPipeline.limited(.pixels(2000), to: 0) == .pixels(2000))
    }
}
