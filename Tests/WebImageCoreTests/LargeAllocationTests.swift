import Foundation
import Testing
@testable import WebImageCore

/// Large pixel storage whose pages a second thread maps while a decoder writes it.
@Suite struct LargeAllocationTests {
    struct Stop: Error {}

    @Test func mappingPagesBesideAWriterKeepsEveryByteItWrote() {
        // 48 MiB: over the threshold, so the second thread maps pages from the end while this writes from the start.
        let side = 3_547 // 3547² × 4 bytes ≈ 48 MiB
        #expect(side * side * 4 >= LargeAllocation.populatingThreshold)
        // Every MiB a pattern with its own index in front, written and compared a MiB at a time (fast in debug builds).
        let chunk = 1 << 20
        let pattern = (0..<chunk).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        func expected(_ index: Int) -> [UInt8] {
            var bytes = pattern
            withUnsafeBytes(of: UInt64(index).littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
            return bytes
        }
        let pixels = PixelBuffer(width: side, height: side, hasAlpha: true) { output in
            for (index, start) in stride(from: 0, to: output.count, by: chunk).enumerated() {
                let end = min(start + chunk, output.count)
                expected(index).withUnsafeBytes { _ = memcpy(output.baseAddress! + start, $0.baseAddress!, end - start) }
            }
        }
        let mismatched = pixels.withUnsafeBytes { bytes in
            stride(from: 0, to: bytes.count, by: chunk).enumerated().filter { index, start in
                expected(index).withUnsafeBytes { memcmp(bytes.baseAddress! + start, $0.baseAddress!, min(chunk, bytes.count - start)) } != 0
            }.count
        }
        #expect(mismatched == 0)
    }

    @Test func aWriterThatThrowsPassesItsErrorOnAndTheMappingStops() {
        var calls = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 20, alignment: 4_096)
        defer { buffer.deallocate() }
        #expect(throws: Stop.self) {
            try LargeAllocation.populatingPages(of: buffer) { () throws(Stop) in
                calls += 1
                throw Stop()
            }
        }
        #expect(calls == 1)
        // The call returned only after the mapping thread stopped: the storage can be freed at once (above).
    }
}
