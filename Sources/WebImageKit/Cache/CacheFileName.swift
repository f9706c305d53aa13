import Crypto
import Foundation

/// How a cache key becomes a file name: 32 lowercase hex digits of
/// `MD5(UTF-8(key))`, plus `"." + extension` when the key, read as a URL or else as a path, has one.
///
/// The key reaches the file system only through its hash, so no key can name another directory
/// (no `/`, no `..`); the extension is kept only when it is 1–8 ASCII letters or digits.
enum CacheFileName {
    /// The longest extension kept in a file name.
    static let maximumExtensionLength = 8

    /// The file name for `key`: hash plus extension, if any.
    static func name(forKey key: String) -> String {
        let hash = md5Hex(key)
        guard let pathExtension = pathExtension(ofKey: key) else { return hash }
        return hash + "." + pathExtension
    }

    /// The name without extension: 3.7.3-style caches wrote these, so lookups fall back to it.
    static func nameWithoutExtension(forKey key: String) -> String { md5Hex(key) }

    /// The 32 lowercase hex digits of the MD5 of `key`'s UTF-8 bytes.
    static func md5Hex(_ key: String) -> String {
        let digest = Insecure.MD5.hash(data: Array(key.utf8))
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(32)
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The key's path extension: from its URL path when it parses as a URL with a path, else from the
    /// text after the last `/`; `nil` when there is none or it is not 1–8 ASCII alphanumerics.
    static func pathExtension(ofKey key: String) -> String? {
        let candidate: Substring
        if let url = URL(string: key), !url.path.isEmpty {
            candidate = Substring(url.pathExtension)
        } else {
            let lastComponent = key.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(key)
            guard let dot = lastComponent.lastIndex(of: "."), dot != lastComponent.startIndex else { return nil }
            candidate = lastComponent[lastComponent.index(after: dot)...]
        }
        guard (1...maximumExtensionLength).contains(candidate.utf8.count),
              candidate.utf8.allSatisfy({ isASCIIAlphanumeric($0) }) else { return nil }
        return String(candidate)
    }

    /// Whether `byte` is `0-9`, `A-Z` or `a-z`.
    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
