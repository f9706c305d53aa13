import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
@testable import WebImageServer
import WebImageTestSupport

/// The settings that change how URLs are read: URL replacements, presets-only mode, the separators, the
/// canonical header.
@Suite struct ImgproxyURLSettingsTests {
    @Test func aReplacementRewritesTheStartOfASourceWithItsWildcards() {
        let replacement = URLReplacement(pattern: "mys3://*/", replacement: "s3://bucket-${1}/images/")
        #expect(replacement.apply(to: "mys3://eu/a/b.jpg") == "s3://bucket-eu/images/a/b.jpg")
        #expect(replacement.apply(to: "https://example.com/a.jpg") == "https://example.com/a.jpg")
        let plain = URLReplacement(pattern: "img://", replacement: "https://cdn.example/")
        #expect(plain.apply(to: "img://a.jpg") == "https://cdn.example/a.jpg")
        let two = URLReplacement(pattern: "x://*/*/", replacement: "https://${2}.example/${1}/")
        #expect(two.apply(to: "x://photos/eu/1.jpg") == "https://eu.example/photos/1.jpg")
    }

    @Test func replacementsAreReadFromImgproxysVariableInOrder() throws {
        let configuration = try ServerSettings(environment: [
            "IMGPROXY_URL_REPLACEMENTS": "a://=b://;b://=https://cdn.example/",
        ]).configuration()
        #expect(configuration.urlReplacements.reduce("a://x.jpg") { $1.apply(to: $0) } == "https://cdn.example/x.jpg")
        #expect(throws: ServerSettingsError.self) { try ServerSettings(environment: ["IMGPROXY_URL_REPLACEMENTS": "nothing"]).configuration() }
    }

    @Test func aReplacedSourceIsFetchedAndStillChecked() async throws {
        // The origin's address is known only once it runs, so the replacement is made from it inside.
        let origin = try SourceOrigin()
        try await origin.run { base in
            var configuration = ImageServerConfiguration(port: 0, sourcePolicy: SourceURLPolicy(addressPolicy: .loopback))
            let directory = try TemporaryDirectory("replacements")
            defer { directory.remove() }
            configuration.cacheDirectory = directory.url
            configuration.urlReplacements = [URLReplacement(pattern: "origin://", replacement: base + "/")]
            let app = try buildApplication(configuration: configuration, logger: ServerTestHarness.quietLogger)
            try await app.test(.router) { client in
                try await client.execute(uri: "/_/w:40/plain/origin://photo.jpg@png", method: .get) { response in
                    #expect(response.status == .ok)
                    let image = try ImageProcessingServerTests.decoded(response.body)
                    #expect(image.pixelSize.width == 40)
                }
            }
        }
    }

    @Test func onlyPresetsReadsTheOptionsPartAsPresetNames() throws {
        let presets = try ProcessingPresets(parsing: ["small=w:20", "square=rs:fill:20:20", "sharp=sh:1"])
        let parser = ImgproxyURLParser(presets: presets, onlyPresets: true)
        let request = try parser.parse(path: "/_/small:sharp/plain/https://example.com/a.jpg@png")
        #expect(request.options.width == 20 && request.options.sharpen == 1 && request.options.format == .png)
        #expect(request.sourceURL == "https://example.com/a.jpg")
        #expect(throws: ImgproxyURLError.self) { try parser.parse(path: "/_/w:20/plain/https://example.com/a.jpg") }
    }

    @Test func theArgumentsSeparatorSplitsOptionsAndPresets() throws {
        let configuration = try ServerSettings(environment: [
            // With ',' separating arguments, presets need another separator, as in imgproxy.
            "IMGPROXY_ARGUMENTS_SEPARATOR": ",", "IMGPROXY_PRESETS_SEPARATOR": ";", "IMGPROXY_PRESETS": "thumb=rs,fill,30,20",
        ]).configuration()
        let parser = ImgproxyURLParser(presets: configuration.presets, argumentsSeparator: configuration.argumentsSeparator)
        let request = try parser.parse(path: "/_/preset,thumb/q,50/plain/https://example.com/a.jpg")
        #expect(request.options.resizingType == .fill && request.options.width == 30 && request.options.quality == 50)
    }

    @Test func thePresetsSeparatorSplitsThePresetsVariable() throws {
        let configuration = try ServerSettings(environment: [
            "IMGPROXY_PRESETS_SEPARATOR": ";", "IMGPROXY_PRESETS": "a=w:10;b=fq:webp:50:avif:40",
        ]).configuration()
        #expect(configuration.presets.names == ["a", "b"])
    }

    @Test func theCanonicalHeaderNamesAnHTTPSource() async throws {
        try await ServerTestHarness.run(configure: { $0.setsCanonicalHeader = true }) { client, base, _ in
            try await client.execute(uri: "/_/w:20/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.headers[.init("Link")!] == "<\(base)/photo.jpg>; rel=\"canonical\"")
            }
        }
        try await ServerTestHarness.run { client, base, _ in
            try await client.execute(uri: "/_/w:20/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.headers[.init("Link")!] == nil)
            }
        }
    }
}

/// `IMGPROXY_ENABLE_CLIENT_HINTS`: `DPR` and `Width` give defaults that the URL's options override.
@Suite struct ClientHintsTests {
    @Test func dprAndWidthHintsSizeAResultTheURLDoesNotSize() async throws {
        try await ServerTestHarness.run(configure: { $0.usesClientHints = true }) { client, base, _ in
            let hints: HTTPFields = [.init("DPR")!: "2", .init("Width")!: "200"]
            try await client.execute(uri: "/_/plain/\(base)/photo.jpg", method: .get, headers: hints) { response in
                // The layout width 200 is 100 CSS pixels at DPR 2: 200 physical pixels.
                let width = try ImageProcessingServerTests.decoded(response.body).pixelSize.width
                #expect(width == 200)
                #expect(response.headers[.vary] == "Sec-CH-DPR, DPR, Sec-CH-Width, Width")
            }
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .get, headers: [.init("Sec-CH-DPR")!: "3"]) { response in
                let width = try ImageProcessingServerTests.decoded(response.body).pixelSize.width
                #expect(width == 150)
            }
        }
        try await ServerTestHarness.run { client, base, _ in
            try await client.execute(uri: "/_/plain/\(base)/photo.jpg", method: .get, headers: [.init("DPR")!: "2"]) { response in
                let width = try ImageProcessingServerTests.decoded(response.body).pixelSize.width
                #expect(width == 400)
                #expect(response.headers[.vary] == nil)
            }
        }
    }

    @Test func hintsOutsideTheirRangeAreIgnored() {
        let options = ClientHints.options([.init("DPR")!: "20", .init("Width")!: "-5"])
        #expect(options.dpr == 1 && options.width == 0)
    }
}

/// `IMGPROXY_BASE64_URL_INCLUDES_FILENAME`: `/%base64_source[.ext]/%filename` reads the source without the name.
@Suite struct Base64FilenameTests {
    @Test func theLastSegmentOfABase64SourceIsIgnoredWhenItIsAFileName() throws {
        let encoded = Base64URL.encode(Array("https://example.com/a.jpg".utf8))
        let parser = ImgproxyURLParser(base64SourceIncludesFilename: true)
        let request = try parser.parse(path: "/_/w:10/\(encoded).png/puppy.jpg")
        #expect(request.sourceURL == "https://example.com/a.jpg" && request.options.format == .png)
        // Without the setting, the segments are one base64 text, which the file name breaks.
        #expect(throws: ImgproxyURLError.self) { try ImgproxyURLParser().parse(path: "/_/w:10/\(encoded).png/puppy.jpg") }
    }
}

/// imgproxy's `-keypath`/`-saltpath` files: one hex value a line, paired in order with each other.
@Suite struct KeyFileTests {
    @Test func keysAndSaltsAreReadFromFilesLineByLine() throws {
        let folder = try TemporaryDirectory("keys")
        defer { folder.remove() }
        let keys = folder.url.appendingPathComponent("keys"), salts = folder.url.appendingPathComponent("salts")
        try "736563726574\n\n6f74686572\n".write(to: keys, atomically: true, encoding: .utf8)
        try "68656c6c6f\n776f726c64\n".write(to: salts, atomically: true, encoding: .utf8)
        let configuration = try ServerSettings(commandLine: ["key-path": keys.path, "salt-path": salts.path]).configuration()
        #expect(configuration.signature.keys.count == 2)
        #expect(throws: ServerSettingsError.self) { try ServerSettings(commandLine: ["key-path": "/nonexistent/keys"]).configuration() }
    }
}

/// `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`: URLs may use only the listed options, by either name; presets any.
@Suite struct AllowedOptionsTests {
    @Test func anOptionNotListedIsForbiddenAndEitherNameOfAListedOneWorks() throws {
        var configuration = try ServerSettings(environment: [
            "IMGPROXY_ALLOWED_PROCESSING_OPTIONS": "w,resize,preset", "IMGPROXY_PRESETS": "blurry=bl:5",
        ]).configuration()
        let parser = ImgproxyURLParser(configuration)
        #expect(try parser.parse(path: "/_/width:10/rs:fit:5/plain/https://example.com/a.jpg").options.width == 5)
        #expect(try parser.parse(path: "/_/pr:blurry/plain/https://example.com/a.jpg").options.blur == 5)
        #expect { try parser.parse(path: "/_/q:50/plain/https://example.com/a.jpg") } throws: {
            ($0 as? ImgproxyURLError)?.code == .forbiddenOption
        }
        configuration.allowedProcessingOptions = []
        #expect(try ImgproxyURLParser(configuration).parse(path: "/_/q:50/plain/https://example.com/a.jpg").options.quality == 50)
    }

    @Test func everyNameInTheTableIsAnOptionTheParserKnows() {
        for name in OptionNames.groups.joined() {
            var options = ProcessingOptions()
            do {
                try options.apply(RawOption(name: name, arguments: ["1"]), presets: ProcessingPresets())
            } catch {
                #expect(error.code != .unknownOption, "\(name)")
            }
        }
    }
}

/// `preserve_hdr`: accepted (a bad argument is still a 400) and without effect on 8-bit results.
@Suite struct PreserveHDRTests {
    @Test func preserveHDRIsAcceptedAndChecked() throws {
        let parser = ImgproxyURLParser()
        #expect(try parser.parse(path: "/_/ph:1/w:10/plain/https://example.com/a.jpg").options.width == 10)
        #expect(try parser.parse(path: "/_/preserve_hdr:false/plain/https://example.com/a.jpg").options == ProcessingOptions())
        #expect { try parser.parse(path: "/_/ph:maybe/plain/https://example.com/a.jpg") } throws: {
            ($0 as? ImgproxyURLError)?.code == .invalidArgument
        }
    }
}

/// `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR` for `local://` and `s3://` sources.
@Suite struct SourceQuerySeparatorTests {
    @Test func theSeparatorMarksTheQueryAndAnEmptyOneMakesAQuestionMarkPartOfThePath() {
        #expect(ImageRequestPipeline.withQuerySeparator("s3://b/k.jpg?versionId=1", "?") == "s3://b/k.jpg?versionId=1")
        #expect(ImageRequestPipeline.withQuerySeparator("s3://b/what?.jpg|versionId=1", "|") == "s3://b/what%3F.jpg?versionId=1")
        #expect(ImageRequestPipeline.withQuerySeparator("local:///a?b.jpg", "") == "local:///a%3Fb.jpg")
        #expect(S3Source.object(of: ImageRequestPipeline.withQuerySeparator("s3://b/k.jpg|versionId=7", "|"))?.versionID == "7")
    }
}

/// `IMGPROXY_DISABLE_SHRINK_ON_LOAD`: the same size, from a source decoded whole.
@Suite struct ShrinkOnLoadSettingTests {
    @Test func withShrinkOnLoadDisabledTheResultHasTheSameSize() async throws {
        #expect(try !ServerSettings(environment: ["IMGPROXY_DISABLE_SHRINK_ON_LOAD": "true"]).configuration().shrinksOnLoad)
        try await ServerTestHarness.run(configure: { $0.shrinksOnLoad = false }) { client, base, _ in
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .get) { response in
                let size = try ImageProcessingServerTests.decoded(response.body).pixelSize
                #expect(size == PixelSize(width: 50, height: 38))
            }
        }
    }
}
