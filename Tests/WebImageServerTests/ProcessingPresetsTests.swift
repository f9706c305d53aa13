import Testing
@testable import WebImageServer

@Suite struct ProcessingPresetsTests {
    @Test func presetOptionsApplyWhereThePresetIsNamed() throws {
        let parser = ImgproxyURLParser(presets: try ProcessingPresets(parsing: ["thumb=rs:fill:200:200/q:70"]))
        let request = try parser.parse(path: "/_/pr:thumb/q:90/plain/http://example.com/a.jpg")
        #expect(request.options.resizingType == .fill)
        #expect(request.options.width == 200)
        #expect(request.options.quality == 90, "options after the preset override it")
        #expect(request.options.presets == ["thumb"])
    }

    @Test func theDefaultPresetAppliesToEveryURLFirst() throws {
        let parser = ImgproxyURLParser(presets: try ProcessingPresets(parsing: ["default=q:60/sm:1", "big=w:2000"]))
        let request = try parser.parse(path: "/_/pr:big/plain/http://example.com/a.jpg")
        #expect(request.options.quality == 60)
        #expect(request.options.stripMetadata == true)
        #expect(request.options.width == 2000)
        #expect(request.options.presets == ["default", "big"])
    }

    @Test func severalPresetsInOneOptionApplyInOrder() throws {
        let parser = ImgproxyURLParser(presets: try ProcessingPresets(parsing: ["a=w:10/q:10", "b=w:20"]))
        let request = try parser.parse(path: "/_/preset:a:b/plain/http://example.com/a.jpg")
        #expect(request.options.width == 20)
        #expect(request.options.quality == 10)
    }

    @Test func aPresetThatNamesItselfIsAppliedOnce() throws {
        let parser = ImgproxyURLParser(presets: try ProcessingPresets(parsing: ["loop=w:5/pr:loop", "a=pr:b", "b=pr:a/h:7"]))
        let looped = try parser.parse(path: "/_/pr:loop/plain/http://example.com/a.jpg")
        #expect(looped.options.width == 5)
        #expect(looped.options.presets == ["loop"])
        let mutual = try parser.parse(path: "/_/pr:a/plain/http://example.com/a.jpg")
        #expect(mutual.options.height == 7)
    }

    @Test func blankLinesAndCommentsAreSkipped() throws {
        let presets = try ProcessingPresets(parsing: ["", "  ", "# a comment", " small = w:100 "])
        #expect(presets.names == ["small"])
    }

    @Test(arguments: ["noequals", "=w:1", "name=", "a=b=c", "bad=w:abc", "bad=unknown:1", "bad=w:1/notanoption", "bad=pr:nowhere"])
    func malformedOrInvalidPresetsFailAtStart(_ definition: String) {
        #expect(throws: ImgproxyURLError.self) { try ProcessingPresets(parsing: [definition]) }
    }
}
