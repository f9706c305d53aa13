import Testing
@testable import WebImageServer

/// ``KeyText``: the text result keys are made of. Every property counts, in order; unordered collections do not
/// depend on their order in memory.
@Suite struct KeyTextTests {
    struct Sample: Encodable {
        var number = 1
        var name = "a"
        var ratio = 0.5
        var flag: Bool? = nil
        var tags: Set<String> = []
        var qualities: [OutputFormat: Int] = [:]
        var filters: [PixelFilter] = []
        var gravity = Gravity()
    }

    @Test func everyPropertyIsWrittenByNameNestedValuesInBrackets() {
        let text = KeyText.of(Sample())
        #expect(text == #"{number=1,name="a",ratio=0.5,tags=[],qualities=[],filters=[],gravity=\#(KeyText.of(Gravity()))}"#)
        #expect(KeyText.of(Sample(flag: false)) != text && KeyText.of(Sample(flag: true)) != KeyText.of(Sample(flag: false)))
        #expect(KeyText.of(Sample(name: "b")) != text && KeyText.of(Sample(ratio: 0.25)) != text)
    }

    @Test func aStringIsQuotedAndEscapedSoItCannotImitateTheTextAroundIt() {
        #expect(KeyText.of(Sample(name: #"a"b"#)).contains(#"name="a\"b""#))
        // One tag holding the text of two tags is not two tags.
        #expect(KeyText.of(Sample(tags: [#"a","b"#])) != KeyText.of(Sample(tags: ["a", "b"])))
        #expect(KeyText.of(["a=1,b": 2]) != KeyText.of(["a": 1, "b": 2]))
    }

    @Test func aSetOrADictionaryGivesTheSameTextWhateverItsOrderButTheOrderOfAnArrayCounts() {
        // Sets built in different orders, and with different capacities, iterate differently; the text does not.
        var small = Set<String>(["jpg", "png", "gif", "webp", "avif"])
        var large = Set<String>(minimumCapacity: 64)
        for tag in ["avif", "webp", "gif", "png", "jpg"] { large.insert(tag) }
        #expect(KeyText.of(Sample(tags: small)) == KeyText.of(Sample(tags: large)))
        small.remove("gif")
        #expect(KeyText.of(Sample(tags: small)) != KeyText.of(Sample(tags: large)))
        var qualities: [OutputFormat: Int] = [:]
        for (index, format) in OutputFormat.allCases.enumerated() { qualities[format] = index }
        var reversed = [OutputFormat: Int](minimumCapacity: 64)
        for (index, format) in OutputFormat.allCases.enumerated().reversed() { reversed[format] = index }
        #expect(KeyText.of(Sample(qualities: qualities)) == KeyText.of(Sample(qualities: reversed)))
        reversed[.png] = 99
        #expect(KeyText.of(Sample(qualities: qualities)) != KeyText.of(Sample(qualities: reversed)))
        #expect(KeyText.of(Sample(filters: [.grayscale, .equalize])) != KeyText.of(Sample(filters: [.equalize, .grayscale])))
    }

    @Test func theResultKeyOfOptionsIsTheirKeyTextLessWhatDoesNotChangeTheBytes() {
        var options = ProcessingOptions()
        options.width = 300
        options.skipProcessing = ["gif", "svg"]
        var named = options
        named.filename = "photo"
        named.presets = ["thumb"]
        #expect(options.pixelKey == named.pixelKey)
        #expect(options.pixelKey.contains("width=300"))
        options.format = .webp
        #expect(options.pixelKey != named.pixelKey)
    }
}

/// ``Hex/encode(_:)``: lower-case, two digits a byte, the inverse of ``Hex/decode(_:)``.
@Suite struct HexTests {
    @Test func encodingGivesTwoLowerCaseDigitsAByteAndDecodesBack() {
        let bytes: [UInt8] = [0x00, 0x0f, 0xa0, 0xff, 0x5c]
        #expect(Hex.encode(bytes) == "000fa0ff5c")
        #expect(Hex.decode(Hex.encode(bytes)) == bytes)
        #expect(Hex.encode([UInt8]()) == "")
    }
}
