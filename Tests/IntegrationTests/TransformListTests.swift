import Testing
import WebImageKit
import WebImageTools

@Suite struct TransformListTests {
    @Test func everyItemParsesToItsTransformerKey() throws {
        let pipeline = try TransformList.parse("resize:300x200:fill:upscale, crop:1:2:30x40,round:12:2:ffffff,flip:hv,rotate:45:000000,tint:ff000080,blur:2.5,orient")
        #expect(pipeline.transformerKey == "resize(300x200,fill,upscale)|crop(1,2,30x40)|roundCorners(12,2,#ffffffff)|flip(hv)|rotate(45,#000000ff)|tint(#ff000080)|blur(2.5)|orientation(up)")
    }

    @Test func defaultsApplyWhenOptionalArgumentsAreLeftOut() throws {
        #expect(try TransformList.parse("resize:10x10").transformerKey == "resize(10x10,fit)")
        #expect(try TransformList.parse("").transformers.isEmpty)
    }

    @Test(arguments: ["resize", "resize:0x10", "resize:10x10:squash", "crop:1:2", "flip:x", "tint", "tint:zz0000", "bogus:1", "blur:nan"])
    func malformedItemsAreRejectedWithTheirName(list: String) {
        let error = #expect(throws: TransformList.ParseError.self) { try TransformList.parse(list) }
        #expect(error?.description.hasPrefix(list) == true)
    }

    @Test func hexColoursParseWithOrWithoutAlphaAndHash() {
        #expect(RGBA(hex: "#ff8000") == RGBA(red: 255, green: 128, blue: 0))
        #expect(RGBA(hex: "ff800040") == RGBA(red: 255, green: 128, blue: 0, alpha: 64))
        #expect(RGBA(hex: "ff80") == nil)
    }
}
