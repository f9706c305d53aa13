import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

private func options(_ change: (inout ProcessingOptions) -> Void) -> ProcessingOptions {
    var options = ProcessingOptions()
    change(&options)
    return options
}

private let geometryCases: [OptionCase] = [
    OptionCase(segment: "min-width:300", expected: options { $0.minWidth = 300 }),
    OptionCase(segment: "mw:0", expected: options { $0.minWidth = 0 }),
    OptionCase(segment: "min-height:20", expected: options { $0.minHeight = 20 }),
    OptionCase(segment: "mh:7", expected: options { $0.minHeight = 7 }),
    OptionCase(segment: "zoom:2", expected: options { $0.zoomX = 2; $0.zoomY = 2 }),
    OptionCase(segment: "z:1.5:0.5", expected: options { $0.zoomX = 1.5; $0.zoomY = 0.5 }),
    OptionCase(segment: "extend_aspect_ratio:1", expected: options { $0.extendAspectRatio = true }),
    OptionCase(segment: "extend_ar:1:so", expected: options { $0.extendAspectRatio = true; $0.extendAspectRatioGravity = Gravity(.south) }),
    OptionCase(segment: "exar:t:nowe:5:6", expected: options { $0.extendAspectRatio = true; $0.extendAspectRatioGravity = Gravity(.northWest, xOffset: 5, yOffset: 6) }),
    OptionCase(segment: "trim:10", expected: options { $0.trim = .init(threshold: 10) }),
    OptionCase(segment: "t:0", expected: options { $0.trim = .init(threshold: 0) }),
    OptionCase(segment: "t:5.5:ff0000:1:0", expected: options { $0.trim = .init(threshold: 5.5, color: RGBColor(red: 255, green: 0, blue: 0), equalHorizontal: true) }),
    OptionCase(segment: "t:5:::1", expected: options { $0.trim = .init(threshold: 5, equalVertical: true) }),
    OptionCase(segment: "t:", expected: options { $0.trim = nil }),
    OptionCase(segment: "enforce_thumbnail:1", expected: options { $0.enforceThumbnail = true }),
    OptionCase(segment: "eth:0", expected: options { $0.enforceThumbnail = false }),
]

private let badGeometryCases: [BadOptionCase] = [
    BadOptionCase(segment: "mw:-1", code: .invalidArgument, option: "mw"),
    BadOptionCase(segment: "min-height:x", code: .invalidArgument, option: "min-height"),
    BadOptionCase(segment: "mh:1:2", code: .invalidArgument, option: "mh"),
    BadOptionCase(segment: "z:0", code: .invalidArgument, option: "z"),
    BadOptionCase(segment: "zoom:-2", code: .invalidArgument, option: "zoom"),
    BadOptionCase(segment: "z:1:0", code: .invalidArgument, option: "z"),
    BadOptionCase(segment: "z:inf", code: .invalidArgument, option: "z"),
    BadOptionCase(segment: "z:1:2:3", code: .invalidArgument, option: "z"),
    BadOptionCase(segment: "exar:yes", code: .invalidArgument, option: "exar"),
    BadOptionCase(segment: "exar:1:sm", code: .invalidArgument, option: "exar"),
    BadOptionCase(segment: "extend_ar:1:up", code: .invalidArgument, option: "extend_ar"),
    BadOptionCase(segment: "t:-1", code: .invalidArgument, option: "t"),
    BadOptionCase(segment: "trim:10:zzz", code: .invalidArgument, option: "trim"),
    BadOptionCase(segment: "t:10::maybe", code: .invalidArgument, option: "t"),
    BadOptionCase(segment: "t:1:2:3:4:5", code: .invalidArgument, option: "t"),
    BadOptionCase(segment: "eth:2", code: .invalidArgument, option: "eth"),
]

/// imgproxy's geometry options (`min-width`, `min-height`, `zoom`, `extend_aspect_ratio`, `trim`) and
/// `enforce_thumbnail`, parsed, planned and served.
@Suite struct GeometryOptionsTests {
    typealias Colors = SyntheticImages
    static let red = RGBA(red: 220, green: 0, blue: 0), blue = RGBA(red: 0, green: 0, blue: 220)
    static let green = RGBA(red: 0, green: 255, blue: 0)
    let parser = ImgproxyURLParser()

    // MARK: Parsing

    @Test(arguments: geometryCases)
    func eachGeometryOptionLongAndShortSetsItsTypedField(_ testCase: OptionCase) throws {
        let request = try parser.parse(path: "/_/\(testCase.segment)/plain/http://example.com/a.jpg")
        #expect(request.options == testCase.expected)
    }

    @Test(arguments: badGeometryCases)
    func badGeometryArgumentsAreTypedErrorsNamingTheOption(_ testCase: BadOptionCase) {
        #expect {
            try parser.parse(path: "/_/\(testCase.segment)/plain/http://example.com/a.jpg")
        } throws: { error in
            guard let error = error as? ImgproxyURLError else { return false }
            return error.code == testCase.code && error.option == testCase.option && error.message.contains("'\(testCase.option)'")
        }
    }

    @Test func everyGeometryOptionChangesTheResultKey() {
        let plain = ProcessingOptions().pixelKey
        let changed = [
            options { $0.minWidth = 10 }, options { $0.minHeight = 10 }, options { $0.zoomX = 2 }, options { $0.zoomY = 2 },
            options { $0.extendAspectRatio = true }, options { $0.extendAspectRatioGravity = Gravity(.north) },
            options { $0.trim = .init(threshold: 10) }, options { $0.trim = .init(threshold: 10, equalHorizontal: true) },
            options { $0.enforceThumbnail = true },
        ].map(\.pixelKey)
        #expect(!changed.contains(plain))
        #expect(Set(changed).count == changed.count)
    }

    // MARK: Plans

    static let landscape = PixelSize(width: 2000, height: 1000)

    static func plan(_ change: (inout ProcessingOptions) -> Void, source: PixelSize = landscape) -> ResizePlan {
        ResizePlan(source: source, options: options(change))
    }

    @Test func minWidthAndMinHeightRaiseTheResultEvenPastTheSourceWithoutEnlarge() {
        #expect(Self.plan { $0.width = 100; $0.height = 100; $0.minWidth = 300 }.scaledSize == PixelSize(width: 300, height: 150))
        #expect(Self.plan { $0.minWidth = 4000 }.scaledSize == PixelSize(width: 4000, height: 2000))
        #expect(Self.plan { $0.width = 100; $0.minHeight = 80 }.scaledSize == PixelSize(width: 160, height: 80))
        // A minimum already met changes nothing.
        #expect(Self.plan { $0.width = 100; $0.minWidth = 50 }.scaledSize == PixelSize(width: 100, height: 50))
    }

    @Test func minSizesAreTimesDprAndFillStillCropsToTheRequestedSize() {
        #expect(Self.plan { $0.height = 100; $0.dpr = 2; $0.minHeight = 150 }.scaledSize == PixelSize(width: 600, height: 300))
        let fill = Self.plan { $0.resizingType = .fill; $0.width = 100; $0.height = 100; $0.minWidth = 300 }
        #expect(fill.scaledSize == PixelSize(width: 300, height: 150))
        #expect(fill.crop == ResizePlan.Rect(x: 100, y: 25, width: 100, height: 100))
        // Fit too: imgproxy crops every result to the requested size last.
        let fit = Self.plan { $0.width = 100; $0.minWidth = 300 }
        #expect(fit.scaledSize == PixelSize(width: 300, height: 150))
        #expect(fit.crop == ResizePlan.Rect(x: 100, y: 0, width: 100, height: 150))
        #expect(Self.plan { $0.width = 100 }.crop == nil)
    }

    @Test func zoomMultipliesEachSideAfterTheResizingTypeAndRespectsEnlarge() {
        #expect(Self.plan { $0.width = 100; $0.height = 100; $0.zoomX = 2; $0.zoomY = 2 }.scaledSize == PixelSize(width: 200, height: 100))
        #expect(Self.plan { $0.width = 100; $0.zoomX = 2; $0.zoomY = 1 }.scaledSize == PixelSize(width: 200, height: 50))
        #expect(Self.plan { $0.width = 100; $0.dpr = 2; $0.zoomX = 1.5; $0.zoomY = 1.5 }.scaledSize == PixelSize(width: 300, height: 150))
        #expect(Self.plan { $0.zoomX = 2; $0.zoomY = 2 }.scaledSize == Self.landscape)
        #expect(Self.plan { $0.zoomX = 2; $0.zoomY = 2; $0.enlarge = true }.scaledSize == PixelSize(width: 4000, height: 2000))
        let fill = Self.plan { $0.resizingType = .fill; $0.width = 100; $0.height = 100; $0.zoomX = 2; $0.zoomY = 2 }
        #expect(fill.scaledSize == PixelSize(width: 400, height: 200))
        #expect(fill.crop == ResizePlan.Rect(x: 100, y: 0, width: 200, height: 200))
    }

    @Test func zoomDoesNotScaleGravityOffsetsButDprDoes() {
        let zoomed = Self.plan {
            $0.resizingType = .fill; $0.width = 100; $0.height = 100; $0.zoomX = 2; $0.zoomY = 2; $0.gravity = Gravity(.northWest, xOffset: 10)
        }
        #expect(zoomed.crop == ResizePlan.Rect(x: 10, y: 0, width: 200, height: 200))
        let both = Self.plan {
            $0.resizingType = .fill; $0.width = 100; $0.height = 100; $0.dpr = 2; $0.zoomX = 2; $0.zoomY = 2
            $0.gravity = Gravity(.northWest, xOffset: 10)
        }
        #expect(both.scaledSize == PixelSize(width: 800, height: 400))
        #expect(both.crop == ResizePlan.Rect(x: 20, y: 0, width: 400, height: 400))
    }

    @Test func shrinkOnLoadIsOffForTrimMinimumsAndUnevenZoomAndZoomedOtherwise() {
        #expect(options { $0.width = 100; $0.trim = .init(threshold: 10) }.shrinkOnLoad == nil)
        #expect(options { $0.width = 100; $0.minWidth = 10 }.shrinkOnLoad == nil)
        #expect(options { $0.width = 100; $0.minHeight = 10 }.shrinkOnLoad == nil)
        #expect(options { $0.width = 100; $0.zoomX = 2; $0.zoomY = 1 }.shrinkOnLoad == nil)
        #expect(options { $0.width = 100; $0.height = 50; $0.zoomX = 2; $0.zoomY = 2 }.shrinkOnLoad?.size == PixelSize(width: 200, height: 100))
    }

    // MARK: Trim

    /// 100×80 white with a red block at x 10–49, y 20–39 and a light grey (235) patch at x 80–84, y 60–64.
    static let framed = SyntheticImages.pattern(width: 100, height: 80) { x, y in
        if (10..<50).contains(x), (20..<40).contains(y) { return RGBA(red: 220, green: 0, blue: 0) }
        if (80..<85).contains(x), (60..<65).contains(y) { return RGBA(red: 235, green: 235, blue: 235) }
        return RGBA(red: 255, green: 255, blue: 255)
    }

    static func trimmed(_ pixels: PixelBuffer, _ trim: ProcessingOptions.Trim) -> ResizePlan.Rect? {
        TrimBorder(trim: trim).area(in: pixels)
    }

    @Test func trimKeepsEverythingFartherThanTheThresholdFromTheTopLeftColour() {
        #expect(Self.trimmed(Self.framed, .init(threshold: 10)) == ResizePlan.Rect(x: 10, y: 20, width: 75, height: 45))
        #expect(Self.trimmed(Self.framed, .init(threshold: 30)) == ResizePlan.Rect(x: 10, y: 20, width: 40, height: 20))
        // Nothing but border: the image is kept whole.
        #expect(Self.trimmed(PixelBuffer(width: 20, height: 20, fill: RGBA(red: 9, green: 9, blue: 9)), .init(threshold: 10)) == nil)
    }

    @Test func trimEqualSidesCutTheSmallerBorderFromBothSides() {
        #expect(Self.trimmed(Self.framed, .init(threshold: 30, equalHorizontal: true)) == ResizePlan.Rect(x: 10, y: 20, width: 80, height: 20))
        #expect(Self.trimmed(Self.framed, .init(threshold: 30, equalVertical: true)) == ResizePlan.Rect(x: 10, y: 20, width: 40, height: 40))
        #expect(Self.trimmed(Self.framed, .init(threshold: 30, equalHorizontal: true, equalVertical: true))
            == ResizePlan.Rect(x: 10, y: 20, width: 80, height: 40))
    }

    @Test func trimWithAColourLooksForThatColourInsteadOfTheTopLeftPixels() {
        // Red as the border: all the white is content, so nothing is cut.
        #expect(Self.trimmed(Self.framed, .init(threshold: 30, color: RGBColor(red: 220, green: 0, blue: 0))) == nil)
        #expect(Self.trimmed(Self.framed, .init(threshold: 30, color: RGBColor(red: 255, green: 255, blue: 255)))
            == ResizePlan.Rect(x: 10, y: 20, width: 40, height: 20))
    }

    @Test func trimJudgesTransparencyFlattenedOntoMagenta() {
        // A transparent frame around an opaque blue 10×6 block: the border colour is magenta once flattened.
        let pixels = SyntheticImages.pattern(width: 30, height: 20) { x, y in
            (10..<20).contains(x) && (7..<13).contains(y) ? RGBA(red: 0, green: 0, blue: 255) : RGBA(red: 40, green: 200, blue: 90, alpha: 0)
        }
        #expect(Self.trimmed(pixels, .init(threshold: 10)) == ResizePlan.Rect(x: 10, y: 7, width: 10, height: 6))
        // Opaque magenta content inside a transparent frame is border, as in imgproxy.
        let magenta = SyntheticImages.pattern(width: 30, height: 20) { x, _ in
            x == 15 ? RGBA(red: 255, green: 0, blue: 255) : RGBA(red: 0, green: 0, blue: 0, alpha: 0)
        }
        #expect(Self.trimmed(magenta, .init(threshold: 10)) == nil)
    }

    // MARK: Served

    /// A server with a local root holding `framed.png` (``framed``), `border.gif` (``framed``, then it with a blue block),
    /// the origin's `photo.jpg`, and the HEIC fixtures `thumb.heic` (48×32, a 24×16 thumbnail) and `opaque.heic`.
    static func run(
        _ environment: [String: String] = [:], configure: @Sendable (inout ImageServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let folder = try TemporaryDirectory("geometry")
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let coders = ImageCodersManager.shared
        try coders.encode(Image(pixels: framed), as: .png, options: .init()).write(to: root.appendingPathComponent("framed.png"))
        let blueBlock = SyntheticImages.pattern(width: 100, height: 80) { x, y in
            (10..<50).contains(x) && (20..<40).contains(y) ? RGBA(red: 0, green: 0, blue: 220) : RGBA(red: 255, green: 255, blue: 255)
        }
        let frames = [ImageFrame(pixels: framed, duration: .milliseconds(100)), ImageFrame(pixels: blueBlock, duration: .milliseconds(100))]
        try coders.encode(Image(frames: frames, format: .gif), as: .gif, options: .init()).write(to: root.appendingPathComponent("border.gif"))
        try SourceOrigin().photo.write(to: root.appendingPathComponent("photo.jpg"))
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WebImageCodersTests/Fixtures/heic")
        for name in ["thumb.heic", "opaque.heic"] {
            try Data(contentsOf: fixtures.appendingPathComponent(name)).write(to: root.appendingPathComponent(name))
        }
        var settings = environment
        settings["IMGPROXY_LOCAL_FILESYSTEM_ROOT"] = root.path
        var configuration = try ServerSettings(environment: settings).configuration()
        configuration.port = 0
        configuration.cacheDirectory = folder.url.appendingPathComponent("cache")
        configure(&configuration)
        let app = try buildApplication(configuration: configuration, logger: ServerTestHarness.quietLogger)
        try await app.test(.router) { client in try await body(client) }
    }

    /// The decoded answer to `options` for the local `source`, and how many frames it has.
    static func image(_ client: any TestClientProtocol, _ options: String, _ source: String = "photo.jpg") async throws -> Image {
        try await client.execute(uri: "/_/\(options)/plain/local:///\(source)", method: .get) { response in
            #expect(response.status == .ok, "\(options) \(String(buffer: response.body))")
            return try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: .init())
        }
    }

    static func status(_ client: any TestClientProtocol, _ options: String, _ source: String = "photo.jpg") async throws -> (HTTPResponse.Status, String) {
        try await client.execute(uri: "/_/\(options)/plain/local:///\(source)", method: .get) { ($0.status, String(buffer: $0.body)) }
    }

    @Test func minWidthEnlargesThePhotoWithoutEnlarge() async throws {
        try await Self.run { client in
            let answer1 = try await Self.image(client, "mw:600/f:png").pixelSize
            #expect(answer1 == PixelSize(width: 600, height: 450))
            // Scaled to 200×150 for the minimum height, then cut to the width asked, as imgproxy does.
            let answer2 = try await Self.image(client, "w:100/mh:150/f:png").pixelSize
            #expect(answer2 == PixelSize(width: 100, height: 150))
        }
    }

    @Test func zoomMultipliesTheResultAndExtendButNotPadding() async throws {
        try await Self.run { client in
            let zoomed = try await Self.image(client, "w:100/z:2/f:png").pixels
            #expect(zoomed.size == PixelSize(width: 200, height: 150))
            #expect(Colors.close(zoomed[20, 75], Self.red) && Colors.close(zoomed[180, 75], Self.blue))
            let extended = try await Self.image(client, "rs:fit:100:100:0:1/z:2/f:png").pixels
            #expect(extended.size == PixelSize(width: 200, height: 200))
            #expect(extended[100, 5].alpha == 0 && Colors.close(extended[20, 100], Self.red))
            // Padding is times dpr, not zoom: 10 on each side.
            let answer3 = try await Self.image(client, "w:100/z:2/pd:10/f:png").pixelSize
            #expect(answer3 == PixelSize(width: 220, height: 170))
        }
    }

    @Test func extendAspectRatioPadsToTheRequestedRatioAtItsGravity() async throws {
        try await Self.run { client in
            let centred = try await Self.image(client, "rs:fit:100:200/exar:1/bg:00ff00/f:png").pixels
            // The photo fits as 100×75; 1:2 makes the canvas 100×200, the photo in the middle.
            #expect(centred.size == PixelSize(width: 100, height: 200))
            #expect(centred[50, 10] == Self.green && centred[50, 190] == Self.green)
            #expect(Colors.close(centred[20, 100], Self.red) && Colors.close(centred[80, 100], Self.blue))
            let north = try await Self.image(client, "rs:fit:100:200/exar:1:no/bg:00ff00/f:png").pixels
            #expect(Colors.close(north[20, 10], Self.red) && north[50, 190] == Self.green)
            // Wider: the photo fits 400×100 as 133×100; 4:1 makes the canvas 400×100.
            let answer4 = try await Self.image(client, "rs:fit:400:100/exar:1/f:png").pixelSize
            #expect(answer4 == PixelSize(width: 400, height: 100))
            // Only a width: no ratio, nothing changes.
            let answer5 = try await Self.image(client, "w:100/exar:1/f:png").pixelSize
            #expect(answer5 == PixelSize(width: 100, height: 75))
            // Transparent without a background (a PNG source stays PNG).
            let transparent = try await Self.image(client, "rs:fit:100:200/exar:1", "framed.png").pixels
            #expect(transparent.size == PixelSize(width: 100, height: 200) && transparent[50, 10].alpha == 0)
        }
    }

    @Test func trimCutsTheBorderBeforeResizingButNotFromAnAnimation() async throws {
        try await Self.run { client in
            let trimmed = try await Self.image(client, "t:30/f:png", "framed.png").pixels
            #expect(trimmed.size == PixelSize(width: 40, height: 20))
            #expect(Colors.close(trimmed[0, 0], Self.red) && Colors.close(trimmed[39, 19], Self.red))
            let answer6 = try await Self.image(client, "t:10/f:png", "framed.png").pixelSize
            #expect(answer6 == PixelSize(width: 75, height: 45))
            let answer7 = try await Self.image(client, "t:30:::1/f:png", "framed.png").pixelSize
            #expect(answer7 == PixelSize(width: 40, height: 40))
            let answer8 = try await Self.image(client, "t:30/w:20/f:png", "framed.png").pixelSize
            #expect(answer8 == PixelSize(width: 20, height: 10))
            let animated = try await Self.image(client, "t:30/f:gif", "border.gif")
            #expect(animated.frames.count == 2 && animated.pixelSize == PixelSize(width: 100, height: 80))
            // Its first frame alone is a still image: trimmed.
            let answer9 = try await Self.image(client, "t:30/f:png", "border.gif").pixelSize
            #expect(answer9 == PixelSize(width: 40, height: 20))
        }
    }

    @Test func enforceThumbnailDecodesTheHEICsEmbeddedThumbnail() async throws {
        try await Self.run { client in
            let answer10 = try await Self.image(client, "f:png", "thumb.heic").pixelSize
            #expect(answer10 == PixelSize(width: 48, height: 32))
            let answer11 = try await Self.image(client, "eth:1/f:png", "thumb.heic").pixelSize
            #expect(answer11 == PixelSize(width: 24, height: 16))
            let answer12 = try await Self.image(client, "eth:1/w:12/f:png", "thumb.heic").pixelSize
            #expect(answer12 == PixelSize(width: 12, height: 8))
            // Without a thumbnail the main image is used.
            let answer13 = try await Self.image(client, "eth:1/f:png", "opaque.heic").pixelSize
            #expect(answer13 == PixelSize(width: 48, height: 32))
            let answer14 = try await Self.image(client, "eth:1/f:png").pixelSize
            #expect(answer14 == PixelSize(width: 400, height: 300))
        }
    }

    @Test func enforceThumbnailSettingIsTheDefaultAURLCanTurnOff() async throws {
        try await Self.run(["IMGPROXY_ENFORCE_THUMBNAIL": "true"]) { client in
            let answer15 = try await Self.image(client, "f:png", "thumb.heic").pixelSize
            #expect(answer15 == PixelSize(width: 24, height: 16))
            let answer16 = try await Self.image(client, "eth:0/f:png", "thumb.heic").pixelSize
            #expect(answer16 == PixelSize(width: 48, height: 32))
        }
        let defaults = try ServerSettings(environment: [:]).configuration()
        let enforced = try ServerSettings(environment: ["IMGPROXY_ENFORCE_THUMBNAIL": "1"]).configuration()
        let commandLine = try ServerSettings(commandLine: ["enforce-thumbnail": "true"]).configuration()
        #expect(!defaults.enforceThumbnail && enforced.enforceThumbnail && commandLine.enforceThumbnail)
        #expect(throws: ServerSettingsError.self) { _ = try ServerSettings(environment: ["IMGPROXY_ENFORCE_THUMBNAIL": "perhaps"]).configuration() }
    }

    @Test func aBadGeometryArgumentIs400NamingTheOption() async throws {
        try await Self.run { client in
            let (status, body) = try await Self.status(client, "z:0")
            #expect(status == .badRequest && body.contains("'z'"), "\(body)")
            let (trimStatus, trimBody) = try await Self.status(client, "trim:10:nothex")
            #expect(trimStatus == .badRequest && trimBody.contains("'trim'"), "\(trimBody)")
        }
    }

    @Test func zoomExtendAspectRatioAndMinimumsOverTheLimitsAre422BeforeAllocating() async throws {
        try await Self.run(configure: { $0.maximumResultDimension = 1000 }) { client in
            let answer17 = try await Self.status(client, "w:400/z:3/el:1").0
            #expect(answer17 == .unprocessableContent)
            let answer18 = try await Self.status(client, "mw:1200").0
            #expect(answer18 == .unprocessableContent)
            let answer19 = try await Self.status(client, "rs:fit:1:5000/exar:1").0
            #expect(answer19 == .unprocessableContent)
            let answer20 = try await Self.status(client, "rs:fit:100:100:0:1/z:20").0
            #expect(answer20 == .unprocessableContent)
            let answer21 = try await Self.status(client, "w:400/z:2.5/el:1").0
            #expect(answer21 == .ok)
        }
        try await Self.run { client in
            // Only the pixel count bounds these: far past it, refused before any pixel is allocated.
            let answer22 = try await Self.status(client, "z:100000/el:1").0
            #expect(answer22 == .unprocessableContent)
            let answer23 = try await Self.status(client, "mw:2000000000").0
            #expect(answer23 == .unprocessableContent)
            let answer24 = try await Self.status(client, "rs:fit:1:2000000000/exar:1").0
            #expect(answer24 == .unprocessableContent)
        }
    }
}
