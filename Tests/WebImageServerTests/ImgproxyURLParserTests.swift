import Testing
@testable import WebImageServer

private func options(_ change: (inout ProcessingOptions) -> Void) -> ProcessingOptions {
    var options = ProcessingOptions()
    change(&options)
    return options
}

/// One option segment and the options it must produce from the defaults.
struct OptionCase: Sendable, CustomTestStringConvertible {
    let segment: String
    let expected: ProcessingOptions
    var testDescription: String { segment }
}

private let optionCases: [OptionCase] = [
    OptionCase(segment: "resize:fill:300:200:1:1", expected: options { $0.resizingType = .fill; $0.width = 300; $0.height = 200; $0.enlarge = true; $0.extend = true }),
    OptionCase(segment: "rs:fill-down:300", expected: options { $0.resizingType = .fillDown; $0.width = 300 }),
    OptionCase(segment: "rs::0:150", expected: options { $0.height = 150 }),
    OptionCase(segment: "rs:fit:10:20:0:1:so:5:6", expected: options { $0.width = 10; $0.height = 20; $0.extend = true; $0.extendGravity = Gravity(.south, xOffset: 5, yOffset: 6) }),
    OptionCase(segment: "size:100:50:t", expected: options { $0.width = 100; $0.height = 50; $0.enlarge = true }),
    OptionCase(segment: "s::50", expected: options { $0.height = 50 }),
    OptionCase(segment: "resizing_type:force", expected: options { $0.resizingType = .force }),
    OptionCase(segment: "rt:auto", expected: options { $0.resizingType = .auto }),
    OptionCase(segment: "width:640", expected: options { $0.width = 640 }),
    OptionCase(segment: "w:0", expected: options { $0.width = 0 }),
    OptionCase(segment: "height:480", expected: options { $0.height = 480 }),
    OptionCase(segment: "h:1", expected: options { $0.height = 1 }),
    OptionCase(segment: "dpr:2.5", expected: options { $0.dpr = 2.5 }),
    OptionCase(segment: "enlarge:true", expected: options { $0.enlarge = true }),
    OptionCase(segment: "el:1", expected: options { $0.enlarge = true }),
    OptionCase(segment: "extend:1:noea", expected: options { $0.extend = true; $0.extendGravity = Gravity(.northEast) }),
    OptionCase(segment: "gravity:nowe:10:0.5", expected: options { $0.gravity = Gravity(.northWest, xOffset: 10, yOffset: 0.5) }),
    OptionCase(segment: "g:sm", expected: options { $0.gravity = Gravity(.smart) }),
    OptionCase(segment: "g:fp:0.25:0.75", expected: options { $0.gravity = Gravity(.focusPoint, xOffset: 0.25, yOffset: 0.75) }),
    OptionCase(segment: "g:soea", expected: options { $0.gravity = Gravity(.southEast) }),
    OptionCase(segment: "crop:100:50", expected: options { $0.crop = .init(width: 100, height: 50) }),
    OptionCase(segment: "c:0.5:0.5:we", expected: options { $0.crop = .init(width: 0.5, height: 0.5, gravity: Gravity(.west)) }),
    OptionCase(segment: "c:100", expected: options { $0.crop = .init(width: 100) }),
    OptionCase(segment: "quality:85", expected: options { $0.quality = 85 }),
    OptionCase(segment: "q:0", expected: options { $0.quality = nil }),
    OptionCase(segment: "format:webp", expected: options { $0.format = .webp }),
    OptionCase(segment: "f:jpeg", expected: options { $0.format = .jpeg }),
    OptionCase(segment: "ext:avif", expected: options { $0.format = .avif }),
    OptionCase(segment: "blur:3", expected: options { $0.blur = 3 }),
    OptionCase(segment: "bl:0.5", expected: options { $0.blur = 0.5 }),
    OptionCase(segment: "bl:0", expected: options { $0.blur = nil }),
    OptionCase(segment: "sh:0", expected: options { $0.sharpen = nil }),
    OptionCase(segment: "pix:8", expected: options { $0.pixelate = 8 }),
    OptionCase(segment: "pixelate:1", expected: options { $0.pixelate = nil }),
    OptionCase(segment: "fl:1", expected: options { $0.flipHorizontal = true }),
    OptionCase(segment: "flip::t", expected: options { $0.flipVertical = true }),
    OptionCase(segment: "pd:10", expected: options { $0.padding = .init(top: 10, right: 10, bottom: 10, left: 10) }),
    OptionCase(segment: "pd:1:2", expected: options { $0.padding = .init(top: 1, right: 2, bottom: 1, left: 2) }),
    OptionCase(segment: "padding:1:2:3", expected: options { $0.padding = .init(top: 1, right: 2, bottom: 3, left: 2) }),
    OptionCase(segment: "pd:1:2:3:4", expected: options { $0.padding = .init(top: 1, right: 2, bottom: 3, left: 4) }),
    OptionCase(segment: "pd:0", expected: options { $0.padding = nil }),
    OptionCase(segment: "exp:1900000000", expected: options { $0.expires = 1_900_000_000 }),
    OptionCase(segment: "sharpen:0.7", expected: options { $0.sharpen = 0.7 }),
    OptionCase(segment: "sh:1", expected: options { $0.sharpen = 1 }),
    OptionCase(segment: "rotate:90", expected: options { $0.rotate = 90 }),
    OptionCase(segment: "rot:-90", expected: options { $0.rotate = 270 }),
    OptionCase(segment: "rot:720", expected: options { $0.rotate = 0 }),
    OptionCase(segment: "auto_rotate:false", expected: options { $0.autoRotate = false }),
    OptionCase(segment: "ar:1", expected: options { $0.autoRotate = true }),
    OptionCase(segment: "background:255:0:128", expected: options { $0.background = RGBColor(red: 255, green: 0, blue: 128) }),
    OptionCase(segment: "bg:ff8000", expected: options { $0.background = RGBColor(red: 255, green: 128, blue: 0) }),
    OptionCase(segment: "bg:fff", expected: options { $0.background = RGBColor(red: 255, green: 255, blue: 255) }),
    OptionCase(segment: "bg:", expected: options { $0.background = nil }),
    OptionCase(segment: "strip_metadata:1", expected: options { $0.stripMetadata = true }),
    OptionCase(segment: "sm:f", expected: options { $0.stripMetadata = false }),
    OptionCase(segment: "cachebuster:v2", expected: options { $0.cacheBuster = "v2" }),
    OptionCase(segment: "cb:abc", expected: options { $0.cacheBuster = "abc" }),
    OptionCase(segment: "filename:my%20photo", expected: options { $0.filename = "my photo" }),
    OptionCase(segment: "fn:w6l0w6k:1", expected: options { $0.filename = "été" }),
    OptionCase(segment: "return_attachment:1", expected: options { $0.returnAttachment = true }),
    OptionCase(segment: "att:0", expected: options { $0.returnAttachment = false }),
]

/// One option segment that must be refused, the error's code and the option the message must name.
struct BadOptionCase: Sendable, CustomTestStringConvertible {
    let segment: String
    let code: ImgproxyURLError.Code
    let option: String
    var testDescription: String { segment }
}

private let badOptionCases: [BadOptionCase] = [
    BadOptionCase(segment: "teleport:2", code: .unknownOption, option: "teleport"),
    BadOptionCase(segment: "xyz:1", code: .unknownOption, option: "xyz"),
    BadOptionCase(segment: "rs:stretch:100", code: .invalidArgument, option: "rs"),
    BadOptionCase(segment: "rs:fit:-1", code: .invalidArgument, option: "rs"),
    BadOptionCase(segment: "rs:fit:1:2:3:4:5:6:7:8", code: .invalidArgument, option: "rs"),
    BadOptionCase(segment: "w:abc", code: .invalidArgument, option: "w"),
    BadOptionCase(segment: "w:", code: .invalidArgument, option: "w"),
    BadOptionCase(segment: "w:1:2", code: .invalidArgument, option: "w"),
    BadOptionCase(segment: "h:99999999999999999999", code: .invalidArgument, option: "h"),
    BadOptionCase(segment: "dpr:0", code: .invalidArgument, option: "dpr"),
    BadOptionCase(segment: "dpr:nan", code: .invalidArgument, option: "dpr"),
    BadOptionCase(segment: "dpr:inf", code: .invalidArgument, option: "dpr"),
    BadOptionCase(segment: "el:yes", code: .invalidArgument, option: "el"),
    BadOptionCase(segment: "g:middle", code: .invalidArgument, option: "g"),
    BadOptionCase(segment: "g:sm:1:1", code: .invalidArgument, option: "g"),
    BadOptionCase(segment: "g:fp:0.5", code: .invalidArgument, option: "g"),
    BadOptionCase(segment: "g:fp:1.5:0.5", code: .invalidArgument, option: "g"),
    BadOptionCase(segment: "g:ce:1:2:3", code: .invalidArgument, option: "g"),
    BadOptionCase(segment: "ex:1:sm", code: .invalidArgument, option: "ex"),
    BadOptionCase(segment: "c:-5:10", code: .invalidArgument, option: "c"),
    BadOptionCase(segment: "q:101", code: .invalidArgument, option: "q"),
    BadOptionCase(segment: "f:tif", code: .unsupportedFormat, option: "f"),
    BadOptionCase(segment: "f:exe", code: .invalidArgument, option: "f"),
    BadOptionCase(segment: "bl:-1", code: .invalidArgument, option: "bl"),
    BadOptionCase(segment: "pd:", code: .invalidArgument, option: "pd"),
    BadOptionCase(segment: "pd:10001", code: .invalidArgument, option: "pd"),
    BadOptionCase(segment: "fl:maybe", code: .invalidArgument, option: "fl"),
    BadOptionCase(segment: "exp:soon", code: .invalidArgument, option: "exp"),
    BadOptionCase(segment: "sh:-1", code: .invalidArgument, option: "sh"),
    BadOptionCase(segment: "rot:45", code: .invalidArgument, option: "rot"),
    BadOptionCase(segment: "bg:256:0:0", code: .invalidArgument, option: "bg"),
    BadOptionCase(segment: "bg:12:34", code: .invalidArgument, option: "bg"),
    BadOptionCase(segment: "bg:ggg", code: .invalidArgument, option: "bg"),
    BadOptionCase(segment: "sm:maybe", code: .invalidArgument, option: "sm"),
    BadOptionCase(segment: "fn:a%zz", code: .invalidArgument, option: "fn"),
    BadOptionCase(segment: "fn:***:1", code: .invalidArgument, option: "fn"),
    BadOptionCase(segment: "pr:missing", code: .unknownPreset, option: "pr"),
]

@Suite struct ImgproxyURLParserTests {
    let parser = ImgproxyURLParser()

    @Test(arguments: optionCases)
    func eachOptionLongAndShortSetsItsTypedField(_ testCase: OptionCase) throws {
        let request = try parser.parse(path: "/_/\(testCase.segment)/plain/http://example.com/a.jpg")
        #expect(request.options == testCase.expected)
    }

    @Test(arguments: badOptionCases)
    func unknownOptionsAndBadArgumentsAreTypedErrorsNamingTheOption(_ testCase: BadOptionCase) {
        #expect {
            try parser.parse(path: "/_/\(testCase.segment)/plain/http://example.com/a.jpg")
        } throws: { error in
            guard let error = error as? ImgproxyURLError else { return false }
            return error.code == testCase.code && error.option == testCase.option && error.message.contains("'\(testCase.option)'")
                || (testCase.code == .unknownPreset && error.code == .unknownPreset && error.message.contains("missing"))
        }
    }

    @Test func missingTrailingArgumentsKeepTheirDefaults() throws {
        let request = try parser.parse(path: "/_/rs:fill:300/plain/http://example.com/a.jpg")
        #expect(request.options.resizingType == .fill)
        #expect(request.options.width == 300)
        #expect(request.options.height == 0)
        #expect(request.options.enlarge == false)
    }

    @Test func laterOptionsOverrideEarlierOnes() throws {
        let request = try parser.parse(path: "/_/w:100/rs:fit:200/w:300/plain/http://example.com/a.jpg")
        #expect(request.options.width == 300)
    }

    @Test func smIsStripMetadataAsAnOptionAndSmartAsAGravity() throws {
        let request = try parser.parse(path: "/_/sm:1/g:sm/plain/http://example.com/a.jpg")
        #expect(request.options.stripMetadata == true)
        #expect(request.options.gravity == Gravity(.smart))
    }

    @Test func documentedExampleParsesAlikeInLongShortAndBase64Forms() throws {
        let presets = try ProcessingPresets(parsing: ["sharp=sharpen:0.7"])
        let parser = ImgproxyURLParser(presets: presets)
        let long = try parser.parse(path: "/AfrOrF3gWeDA6VOlDG4TzxMv39O7MXnF4CXpKUwGqRM/preset:sharp/resize:fill:300:400:0/gravity:sm/plain/http://example.com/images/curiosity.jpg@png")
        let short = try parser.parse(path: "/AfrOrF3gWeDA6VOlDG4TzxMv39O7MXnF4CXpKUwGqRM/pr:sharp/rs:fill:300:400:0/g:sm/plain/http://example.com/images/curiosity.jpg@png")
        let base64 = try parser.parse(path: "/AfrOrF3gWeDA6VOlDG4TzxMv39O7MXnF4CXpKUwGqRM/pr:sharp/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        let expected = options {
            $0.presets = ["sharp"]; $0.sharpen = 0.7; $0.resizingType = .fill; $0.width = 300; $0.height = 400
            $0.gravity = Gravity(.smart); $0.format = .png
        }
        for request in [long, short, base64] {
            #expect(request.options == expected)
            #expect(request.sourceURL == "http://example.com/images/curiosity.jpg")
        }
        #expect(base64.sourceEncoding == .base64)
        #expect(short.sourceEncoding == .plain)
        #expect(short.signature == "AfrOrF3gWeDA6VOlDG4TzxMv39O7MXnF4CXpKUwGqRM")
        #expect(short.signedPath == "/pr:sharp/rs:fill:300:400:0/g:sm/plain/http://example.com/images/curiosity.jpg@png")
    }

    @Test func plainSourceMayBePercentEncodedOrNotAndItsExtensionIsOptional() throws {
        let encoded = try parser.parse(path: "/_/w:10/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1")
        #expect(encoded.sourceURL == "http://example.com/a b.jpg?v=1")
        #expect(encoded.options.format == nil)
        let raw = try parser.parse(path: "/_/plain/https://example.com/x/y.png@webp")
        #expect(raw.sourceURL == "https://example.com/x/y.png")
        #expect(raw.options.format == .webp)
        let escapedAt = try parser.parse(path: "/_/plain/https://example.com/a%40b.png@")
        #expect(escapedAt.sourceURL == "https://example.com/a@b.png")
        #expect(escapedAt.options.format == nil)
    }

    @Test func base64SourceMayBeSplitBySlashesAndCarryAnExtension() throws {
        let joined = try parser.parse(path: "/_/aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlcy9jdXJpb3NpdHkuanBn")
        let split = try parser.parse(path: "/_/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.webp")
        #expect(joined.sourceURL == "http://example.com/images/curiosity.jpg")
        #expect(split.sourceURL == joined.sourceURL)
        #expect(split.options.format == .webp)
        let unicode = try parser.parse(path: "/_/aHR0cHM6Ly9leGFtcGxlLmNvbS_DqXTDqS5qcGc")
        #expect(unicode.sourceURL == "https://example.com/été.jpg")
    }

    @Test func theExtensionOverridesTheFormatOption() throws {
        let request = try parser.parse(path: "/_/f:png/plain/http://example.com/a.jpg@avif")
        #expect(request.options.format == .avif)
    }

    @Test(arguments: [
        "", "/", "nosignature", "/_", "/_/", "/_/w:100", "/_/w:100/plain",
        "/_/plain/http://a.example/x@png@jpg", "/_/plain/@png", "/_/plain/http://a.example/%zz",
        "/_/aGVsbG8.png.jpg", "/_/!!!!", "/_/.png", "/_/fill/300/400/sm/0/aHR0cDovL2V4YW1w.png",
        "//w:10/plain/http://a.example/x", "/_/w:1/plain/http://a.example/é.jpg", "/_/w:1/plain/http://a.example/a b.jpg",
        "/_/w:1/\u{301}plain/http://a.example/x.jpg",
    ])
    func malformedPathsAreInvalidPathErrors(_ path: String) {
        #expect {
            try parser.parse(path: path)
        } throws: { error in
            (error as? ImgproxyURLError)?.code == .invalidPath
        }
    }

    @Test func anExtensionNamingAnUnknownFormatIsRefused() {
        #expect {
            try parser.parse(path: "/_/plain/http://a.example/x@exe")
        } throws: { error in
            (error as? ImgproxyURLError)?.option == "extension"
        }
    }

    @Test func errorMessagesQuoteArgumentsShortAndPrintable() {
        #expect {
            try parser.parse(path: "/_/w:\(String(repeating: "9x", count: 100))/plain/http://a.example/x")
        } throws: { error in
            guard let error = error as? ImgproxyURLError, error.code == .invalidArgument else { return false }
            return error.message.count < 160 && error.message.contains("'9x9x")
        }
        #expect(ImgproxyURLError.quoted("a\u{7}b\u{7F}é") == "a?b??")
    }
}
