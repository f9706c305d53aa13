import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageCore
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// Metadata in results (`strip_metadata`, `keep_copyright`, `strip_color_profile` and their settings), the
/// encoder settings and the output formats added for the drop-in (issue 30), on a `local://` source: the
/// 400×300 red-and-blue photo stored turned (EXIF orientation 6, so upright it is 300×400) with EXIF (Make,
/// Artist, Copyright), XMP, IPTC and a Display P3 profile.
@Suite struct ImgproxyEncodingTests {
    static let xmp = Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>"#.utf8)
    static let iptc = Data([0x1C, 0x02, 0x74, 0x00, 0x08] + Array("IPTC (c)".utf8))
    static let displayP3 = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WebImageCodersTests/Fixtures/icc/display-p3.icc")

    /// A little-endian EXIF block: Orientation 6, Make "Camera", Artist "Ann Artist", Copyright "(c) 2026 Ann".
    static var exif: Data {
        let strings: [(Int, [UInt8])] = [(0x010F, Array("Camera\0".utf8)), (0x013B, Array("Ann Artist\0".utf8)), (0x8298, Array("(c) 2026 Ann\0".utf8))]
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        var bytes: [UInt8] = [0x49, 0x49, 42, 0] + le(8, 4) + le(4, 2)
        var offset = 8 + 2 + 12 * 4 + 4, tail: [UInt8] = []
        bytes += le(0x0112, 2) + le(3, 2) + le(1, 4) + le(6, 2) + [0, 0]
        for (tag, value) in strings {
            bytes += le(tag, 2) + le(2, 2) + le(value.count, 4) + le(offset, 4)
            tail += value
            offset += value.count
        }
        return Data(bytes + le(0, 4) + tail)
    }

    /// A server whose local root holds `meta.jpg`; `environment` adds settings.
    static func run(_ environment: [String: String] = [:], _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let folder = try TemporaryDirectory("encoding")
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let stored = SourceOrigin.halves(width: 400, height: 300)
        let source = Image(pixels: stored, orientation: .right, iccProfile: try Data(contentsOf: displayP3),
                           metadata: ImageMetadata(exif: exif, xmp: xmp, iptc: iptc))
        try ImageCodersManager.shared.encode(source, as: .jpeg, options: ImageEncodingOptions()).write(to: root.appendingPathComponent("meta.jpg"))
        var settings = environment
        settings["IMGPROXY_LOCAL_FILESYSTEM_ROOT"] = root.path
        var configuration = try ServerSettings(environment: settings).configuration()
        configuration.port = 0
        configuration.cacheDirectory = folder.url.appendingPathComponent("cache")
        let app = try buildApplication(configuration: configuration, logger: ServerTestHarness.quietLogger)
        try await app.test(.router) { client in try await body(client) }
    }

    /// The answer's body and content type for `options`, expecting `status`.
    static func fetch(_ client: any TestClientProtocol, _ options: String, status: HTTPResponse.Status = .ok) async throws -> (Data, String?) {
        try await client.execute(uri: "/_/\(options)/plain/local:///meta.jpg", method: .get) { response in
            #expect(response.status == status, "\(options): \(String(buffer: response.body))")
            return (Data(response.body.readableBytesView), response.headers[.contentType])
        }
    }

    /// The metadata blocks of the answer to `options` (a JPEG unless the options name another format).
    static func metadata(_ client: any TestClientProtocol, _ options: String) async throws -> ImageMetadata? {
        let (data, _) = try await fetch(client, options)
        return ImageMetadata(reading: data, format: ImageFormat(detecting: data))
    }

    static func text(_ data: Data?) -> String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    @Test func byDefaultOnlyTheEXIFArtistAndCopyrightStayAsInImgproxy() async throws {
        try await Self.run { client in
            let kept = try #require(try await Self.metadata(client, "w:100"))
            #expect(Self.text(kept.exif).contains("(c) 2026 Ann") && Self.text(kept.exif).contains("Ann Artist"))
            #expect(!Self.text(kept.exif).contains("Camera"))
            #expect(kept.xmp == nil && kept.iptc == nil)
        }
    }

    @Test func keepCopyrightOffStripsEveryBlock() async throws {
        try await Self.run { client in
            let stripped = try await Self.metadata(client, "w:100/kcr:0")
            #expect(stripped == nil)
        }
        try await Self.run(["IMGPROXY_KEEP_COPYRIGHT": "false"]) { client in
            let stripped = try await Self.metadata(client, "w:100"), kept = try await Self.metadata(client, "w:100/kcr:1")
            #expect(stripped == nil)
            #expect(kept?.exif != nil)
        }
    }

    @Test(arguments: ["jpg", "png", "webp"])
    func stripMetadataOffKeepsEXIFAndXMPWithTheOrientationOfThePixels(format: String) async throws {
        try await Self.run { client in
            let (data, _) = try await Self.fetch(client, "w:150/sm:0/f:\(format)")
            let kept = try #require(ImageMetadata(reading: data, format: ImageFormat(detecting: data)))
            #expect(Self.text(kept.exif).contains("Camera"))
            #expect(kept.xmp == Self.xmp)
            // Auto-rotated: the pixels are upright, so the tag says so and a viewer does not turn them again.
            #expect(ExifOrientationReader.orientation(inTIFF: try #require(kept.exif)) == .up)
            let decoded = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(applyOrientation: true))
            #expect(decoded.pixelSize == PixelSize(width: 150, height: 200))
            if format == "jpg" { #expect(kept.iptc == Self.iptc) }
        }
    }

    @Test func theStripMetadataSettingIsTheDefaultTheURLOverrides() async throws {
        try await Self.run(["IMGPROXY_STRIP_METADATA": "false"]) { client in
            let kept = try await Self.metadata(client, "w:100"), stripped = try await Self.metadata(client, "w:100/sm:1")
            #expect(kept?.xmp == Self.xmp)
            #expect(stripped?.xmp == nil)
        }
    }

    @Test func stripColorProfileOffKeepsTheSourceProfileWhereTheFormatCarriesOne() async throws {
        let p3 = try Data(contentsOf: Self.displayP3)
        try await Self.run { client in
            for (options, expected) in [("w:100", nil), ("w:100/scp:0", p3), ("w:100/scp:0/f:png", p3), ("w:100/scp:0/f:webp", p3),
                                        ("w:100/scp:0/f:avif", p3), ("w:100/scp:0/f:heic", nil)] as [(String, Data?)] {
                let (data, _) = try await Self.fetch(client, options)
                let decoded = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(keepsColorProfile: true))
                #expect(decoded.iccProfile == expected, "\(options)")
            }
        }
        try await Self.run(["IMGPROXY_STRIP_COLOR_PROFILE": "false"]) { client in
            let (data, _) = try await Self.fetch(client, "w:100")
            #expect(try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(keepsColorProfile: true)).iccProfile == p3)
        }
    }

    /// Whether a JPEG has a progressive frame header (SOF2).
    static func hasSOF2(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        return (0..<(bytes.count - 1)).contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 }
    }

    @Test func theJPEGProgressiveSettingWritesAnSOF2Marker() async throws {
        try await Self.run { client in
            let baseline = try await Self.fetch(client, "w:100").0
            #expect(!Self.hasSOF2(baseline))
        }
        try await Self.run(["IMGPROXY_JPEG_PROGRESSIVE": "true"]) { client in
            let progressive = try await Self.fetch(client, "w:100").0
            #expect(Self.hasSOF2(progressive))
        }
    }

    @Test func thePNGSettingsInterlaceAndQuantize() async throws {
        try await Self.run { client in
            let png = [UInt8](try await Self.fetch(client, "w:100/f:png").0)
            #expect(png[25] == 2 && png[28] == 0) // RGB, not interlaced
        }
        try await Self.run(["IMGPROXY_PNG_INTERLACED": "true", "IMGPROXY_PNG_QUANTIZE": "true", "IMGPROXY_PNG_QUANTIZATION_COLORS": "8"]) { client in
            let png = [UInt8](try await Self.fetch(client, "w:100/f:png").0)
            #expect(png[25] == 3 && png[28] == 1) // palette, Adam7
            let plte = try #require((8..<(png.count - 4)).first { png[$0..<($0 + 4)].elementsEqual("PLTE".utf8) })
            #expect(png[(plte - 4)..<plte].reduce(0) { $0 << 8 | Int($1) } / 3 <= 8)
        }
    }

    @Test func theEffortSettingsReachTheirEncoders() async throws {
        for (format, setting, low, high) in [("webp", "IMGPROXY_WEBP_EFFORT", "0", "6"), ("avif", "IMGPROXY_AVIF_SPEED", "9", "0"),
                                             ("jxl", "IMGPROXY_JXL_EFFORT", "1", "9")] {
            let answers = LockedValue<[Data]>([])
            for value in [low, high] {
                try await Self.run([setting: value]) { client in
                    let (data, _) = try await Self.fetch(client, "w:120/q:60/f:\(format)")
                    #expect(try ImageCodersManager.shared.decode(data).pixelSize == PixelSize(width: 120, height: 160))
                    answers.withLock { $0.append(data) }
                }
            }
            let both = answers.withLock { $0 }
            #expect(both.count == 2 && both[0] != both[1], "\(setting)")
        }
    }

    @Test func effortSettingsOutOfRangeAreRefused() {
        for (name, value) in [("IMGPROXY_WEBP_EFFORT", "7"), ("IMGPROXY_AVIF_SPEED", "10"), ("IMGPROXY_JXL_EFFORT", "0"),
                              ("IMGPROXY_PNG_QUANTIZATION_COLORS", "1"), ("IMGPROXY_STRIP_METADATA", "maybe")] {
            #expect(throws: ServerSettingsError.self, "\(name)=\(value)") { _ = try ServerSettings(environment: [name: value]).configuration() }
        }
    }

    @Test(arguments: [("heic", "image/heic"), ("jxl", "image/jxl"), ("tiff", "image/tiff"), ("bmp", "image/bmp"),
                      ("ico", "image/vnd.microsoft.icon")])
    func theNewOutputFormatsDecodeBackAtTheAskedSize(format: String, type: String) async throws {
        try await Self.run { client in
            let (data, contentType) = try await Self.fetch(client, "rs:fit:90:120/f:\(format)")
            #expect(contentType == type)
            #expect(ImageFormat(detecting: data) == OutputFormat(extension: format)?.imageFormat)
            let decoded = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(applyOrientation: true))
            #expect(decoded.pixelSize == PixelSize(width: 90, height: 120))
        }
    }

    @Test func anICOResultOver256PixelsIs422() async throws {
        try await Self.run { client in
            let (body, _) = try await Self.fetch(client, "w:300/f:ico", status: .unprocessableContent)
            #expect(Self.text(body).contains("256"))
            _ = try await Self.fetch(client, "w:192/f:ico")
        }
    }

    @Test(arguments: ["heic", "tiff"])
    func maxBytesLowersTheQualityOfHEICAndTIFFToo(format: String) async throws {
        try await Self.run { client in
            let full = try await Self.fetch(client, "w:200/q:95/f:\(format)").0
            let lowest = try await Self.fetch(client, "w:200/q:10/f:\(format)").0
            // A limit no quality meets: encoded again down to quality 10, whose result is served.
            let limited = try await Self.fetch(client, "w:200/q:95/mb:100/f:\(format)").0
            #expect(lowest.count < full.count)
            #expect(limited == lowest)
            // A limit the first try meets: quality 95 stays.
            let roomy = try await Self.fetch(client, "w:200/q:95/mb:\(full.count)/f:\(format)").0
            #expect(roomy == full)
        }
    }

    @Test func keepCopyrightAndStripColorProfileParseAsBooleans() throws {
        let parser = ImgproxyURLParser()
        let options = try parser.parse(path: "/_/kcr:0/scp:false/sm:1/plain/http://example.com/a.jpg").options
        #expect(options.keepCopyright == false && options.stripColorProfile == false && options.stripMetadata == true)
        let long = try parser.parse(path: "/_/keep_copyright:1/strip_color_profile:t/plain/http://example.com/a.jpg").options
        #expect(long.keepCopyright == true && long.stripColorProfile == true)
        #expect(throws: ImgproxyURLError.self) { _ = try parser.parse(path: "/_/kcr:maybe/plain/http://example.com/a.jpg") }
    }
}
