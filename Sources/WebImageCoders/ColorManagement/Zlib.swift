import CZlib
import Foundation

/// zlib for the one compressed thing colour management meets: PNG's `iCCP` chunk.
enum Zlib {
    /// Inflates a zlib stream; `nil` when it is damaged, ends early or would inflate past `limit` bytes.
    static func inflate(_ input: Data, limit: Int) -> Data? {
        guard !input.isEmpty, limit > 0 else { return nil }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunk = 64 << 10
        var buffer = [UInt8](repeating: 0, count: chunk)
        return input.withUnsafeBytes { raw -> Data? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count <= Int(UInt32.max) else { return nil }
            stream.next_in = UnsafeMutablePointer(mutating: base)
            stream.avail_in = UInt32(raw.count)
            while true {
                let status = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk - Int(stream.avail_out)
                guard output.count + produced <= limit else { return nil }
                output.append(contentsOf: buffer[0..<produced])
                if status == Z_STREAM_END { return output }
                // Z_BUF_ERROR with input left means no progress was possible: the stream is cut.
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }

    /// Deflates `input` as a zlib stream at the default level.
    static func deflate(_ input: Data) -> Data? {
        guard input.count <= Int(UInt32.max) else { return nil }
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = input.withUnsafeBytes { raw in
            output.withUnsafeMutableBufferPointer { out in
                compress2(out.baseAddress, &length, raw.bindMemory(to: UInt8.self).baseAddress, uLong(raw.count), Z_DEFAULT_COMPRESSION)
            }
        }
        return status == Z_OK ? Data(output[0..<Int(length)]) : nil
    }

    /// The CRC-32 of `bytes` (as PNG chunks carry it), continuing from `crc`.
    static func crc32(_ bytes: Data, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            UInt32(CZlib.crc32(uLong(crc), raw.bindMemory(to: UInt8.self).baseAddress, uInt(raw.count)))
        }
    }
}
