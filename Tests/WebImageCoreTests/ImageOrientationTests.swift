import Foundation
import Testing
import WebImageCore

@Suite struct ImageOrientationTests {
    /// A 3×2 image whose pixels are numbered 0…5 in their red channel.
    static let numbered: PixelBuffer = {
        var buffer = PixelBuffer(width: 3, height: 2, fill: .black)
        for y in 0..<2 { for x in 0..<3 { buffer[x, y] = RGBA(red: UInt8(y * 3 + x), green: 0, blue: 0) } }
        return buffer
    }()

    static func reds(_ buffer: PixelBuffer) -> [[UInt8]] {
        (0..<buffer.height).map { y in (0..<buffer.width).map { x in buffer[x, y].red } }
    }

    // Stored pixels 0 1 2 / 3 4 5, and what a viewer shows for each EXIF orientation.
    static let expected: [(ImageOrientation, [[UInt8]])] = [
        (.up, [[0, 1, 2], [3, 4, 5]]),
        (.upMirrored, [[2, 1, 0], [5, 4, 3]]),
        (.down, [[5, 4, 3], [2, 1, 0]]),
        (.downMirrored, [[3, 4, 5], [0, 1, 2]]),
        (.leftMirrored, [[0, 3], [1, 4], [2, 5]]),
        (.right, [[3, 0], [4, 1], [5, 2]]),
        (.rightMirrored, [[5, 2], [4, 1], [3, 0]]),
        (.left, [[2, 5], [1, 4], [0, 3]]),
    ]

    @Test(arguments: expected)
    func applyingOrientationTurnsThePixelsUpright(orientation: ImageOrientation, rows: [[UInt8]]) { // CD-18
        #expect(Self.reds(Self.numbered.applyingOrientation(orientation)) == rows)
    }

    @Test func exifValuesMapToUIKitNames() { // K-27
        let names: [ImageOrientation] = [.up, .upMirrored, .down, .downMirrored, .leftMirrored, .right, .rightMirrored, .left]
        for (index, orientation) in names.enumerated() {
            #expect(ImageOrientation(exifValue: index + 1) == orientation)
            #expect(orientation.exifValue == index + 1)
        }
        #expect(ImageOrientation(exifValue: 0) == .up)
        #expect(ImageOrientation(exifValue: 9) == .up)
    }

    @Test func normalizedImageIsUprightAndSwapsSize() {
        let image = Image(pixels: Self.numbered, format: .jpeg, orientation: .right)
        let upright = image.normalizedOrientation()
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == PixelSize(width: 2, height: 3))
        #expect(upright.format == .jpeg)
    }
}

@Suite struct ExifOrientationReaderTests {
    static func tiff(orientation: UInt16, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { u16(UInt16(bigEndian ? v >> 16 : v & 0xFFFF)) + u16(UInt16(bigEndian ? v & 0xFFFF : v >> 16)) }
        let header: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
        let otherEntry = u16(0x010F) + u16(2) + u32(4) + [0x41, 0x42, 0x43, 0] // Make, ASCII
        let orientationEntry = u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        return header + u16(2) + otherEntry + orientationEntry + u32(0)
    }

    static func jpeg(withTIFF tiff: [UInt8]) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app0: [UInt8] = [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        return [0xFF, 0xD8] + app0 + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xDA, 0, 2]
    }

    @Test(arguments: [false, true])
    func orientationIsReadFromBothByteOrders(bigEndian: Bool) {
        for value in UInt16(1)...8 {
            let jpeg = Self.jpeg(withTIFF: Self.tiff(orientation: value, bigEndian: bigEndian))
            #expect(ExifOrientationReader.orientation(inJPEG: Data(jpeg))?.exifValue == Int(value))
        }
    }

    @Test func rawTIFFBlocksWithOrWithoutExifPrefixAreRead() {
        let tiff = Self.tiff(orientation: 6, bigEndian: false)
        #expect(ExifOrientationReader.orientation(inTIFF: Data(tiff)) == .right)
        #expect(ExifOrientationReader.orientation(inTIFF: Data(Array("Exif".utf8) + [0, 0] + tiff)) == .right)
    }

    @Test func missingOrHostileMetadataGivesNilNeverACrash() {
        let jpeg = Self.jpeg(withTIFF: Self.tiff(orientation: 3, bigEndian: true))
        for length in 0..<jpeg.count {
            let result = ExifOrientationReader.orientation(inJPEG: Data(jpeg.prefix(length)))
            #expect(result == nil || result == .down)
        }
        var badOffset = Self.tiff(orientation: 6, bigEndian: false)
        badOffset[4...7] = [0xFF, 0xFF, 0xFF, 0x7F]
        #expect(ExifOrientationReader.orientation(inTIFF: Data(badOffset)) == nil)
        var hugeCount = Self.tiff(orientation: 6, bigEndian: false)
        hugeCount[8...9] = [0xFF, 0xFF] // 65535 entries declared, two present, no orientation among them
        hugeCount[22...23] = [0x10, 0x01]
        #expect(ExifOrientationReader.orientation(inTIFF: Data(hugeCount)) == nil)
        #expect(ExifOrientationReader.orientation(inJPEG: Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF])) == nil)
        #expect(ExifOrientationReader.orientation(inJPEG: Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x00])) == nil)
        #expect(ExifOrientationReader.orientation(inTIFF: Data()) == nil)
    }
}
