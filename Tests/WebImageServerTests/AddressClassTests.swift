import Testing
@testable import WebImageServer

@Suite struct AddressClassTests {
    @Test(arguments: [
        ("8.8.8.8", AddressClass.public), ("1.1.1.1", .public), ("93.184.216.34", .public),
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified),
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback),
        ("10.0.0.1", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("172.15.255.255", .public), ("172.32.0.0", .public), ("192.168.1.1", .privateNetwork), ("192.169.0.1", .public),
        ("169.254.169.254", .linkLocal), ("169.253.0.1", .public),
        ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace), ("100.128.0.0", .public), ("100.63.255.255", .public),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast),
        ("240.0.0.1", .reserved), ("255.255.255.255", .reserved), ("192.0.0.8", .reserved), ("198.18.0.1", .reserved), ("198.20.0.1", .public),
    ])
    func ipv4AddressesAreClassifiedByTheirNetwork(_ text: String, _ expected: AddressClass) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressClass(address) == expected)
    }

    @Test(arguments: [
        ("2606:4700:4700::1111", AddressClass.public), ("2a00:1450:4001:80b::200e", .public),
        ("::", .unspecified), ("::1", .loopback),
        ("fe80::1", .linkLocal), ("febf:ffff::1", .linkLocal), ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal),
        ("fec0::1", .uniqueLocal), ("ff02::1", .multicast), ("ff05::1:3", .multicast),
        ("100::1", .reserved), ("2001:db8::1", .reserved), ("64:ff9b:1::a00:1", .reserved),
    ])
    func ipv6AddressesAreClassifiedByTheirNetwork(_ text: String, _ expected: AddressClass) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressClass(address) == expected)
    }

    @Test(arguments: [
        ("::ffff:127.0.0.1", AddressClass.loopback), ("::ffff:7f00:1", .loopback), ("::ffff:169.254.169.254", .linkLocal),
        ("::ffff:10.1.2.3", .privateNetwork), ("::ffff:8.8.8.8", .public), ("::ffff:0.0.0.0", .unspecified),
        ("::127.0.0.1", .loopback), ("::10.0.0.1", .privateNetwork),
        ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::8.8.8.8", .public),
        ("2002:7f00:1::", .loopback), ("2002:c0a8:0101::1", .privateNetwork), ("2002:0808:0808::", .public),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", .loopback),  // Teredo client 127.0.0.1, obfuscated
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", .public),  // Teredo client 8.8.8.8
    ])
    func ipv6AddressesCarryingIPv4AreClassifiedByTheEmbeddedAddress(_ text: String, _ expected: AddressClass) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressClass(address) == expected)
    }

    @Test func resolvedAddressBytesClassifyLikeTheirText() throws {
        #expect(IPAddress(bytes: [127, 0, 0, 1]) == IPAddress("127.0.0.1"))
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 169, 254, 169, 254]
        let address = try #require(IPAddress(bytes: mapped))
        #expect(AddressClass(address) == .linkLocal)
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }

    @Test(arguments: [
        "127.1", "2130706433", "0x7f.0.0.1", "0177.0.0.1", "01.2.3.4", "1.2.3.256", "1.2.3", "1.2.3.4.5", " 1.2.3.4", "1.2.3.-4",
        ":::", "1::2::3", "12345::", "::ffff:1.2.3", "fe80::1%eth0", "[::1]", "1:2:3:4:5:6:7:8:9", "g::1", "",
    ])
    func ambiguousOrMalformedAddressTextIsNotAnAddress(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test func ipv6TextParsesCompressedAndFullFormsAlike() {
        #expect(IPAddress("2001:db8::1") == IPAddress("2001:0db8:0000:0000:0000:0000:0000:0001"))
        #expect(IPAddress("::ffff:1.2.3.4") == IPAddress("::ffff:102:304"))
        #expect(IPAddress("1:2:3:4:5:6:7::") != nil)
        #expect(IPAddress("::2:3:4:5:6:7:8") != nil)
    }

    @Test func eachClassIsAllowedOnlyByItsOwnFlag() throws {
        let samples: [(String, SourceAddressPolicy)] = [
            ("127.0.0.1", .loopback), ("10.0.0.1", .privateNetwork), ("169.254.169.254", .linkLocal),
            ("100.64.0.1", .sharedAddressSpace), ("fd00::1", .uniqueLocal), ("224.0.0.1", .multicast),
            ("0.0.0.0", .unspecified), ("240.0.0.1", .reserved),
        ]
        let everyFlag: [SourceAddressPolicy] = samples.map(\.1)
        for (text, flag) in samples {
            let address = try #require(IPAddress(text))
            #expect(!SourceAddressPolicy().allows(address), "\(text) refused by default")
            #expect(flag.allows(address), "\(text) allowed by its flag")
            for other in everyFlag where other != flag {
                #expect(!other.allows(address), "\(text) not allowed by another class's flag")
            }
        }
        #expect(SourceAddressPolicy().allows(try #require(IPAddress("8.8.8.8"))))
    }
}
