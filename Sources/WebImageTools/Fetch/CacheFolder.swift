package import Foundation
import WebImageKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk cache folder of `fetch` and `prefetch`, checked before anything loads: the library only logs a
/// store that fails, so an unusable `--cache-dir` would otherwise fill nothing and say little.
package enum CacheFolder {
    /// Creates the namespace's folder under `root` (the default root when `nil`) unless it is there, and
    /// checks that files can be written in it; throws a ``ToolError`` naming the folder at fault.
    package static func prepare(root: URL?, namespace: String) throws(ToolError) -> URL {
        let base = root ?? DiskCache.defaultRoot()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: base.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ToolError(base.relativePath, "is a file, not a folder", remedy: "choose another --cache-dir")
        }
        let folder = base.appendingPathComponent(DiskStorage.directoryName(forNamespace: namespace), isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            if let file = firstFileAbove(folder) {
                throw ToolError(file.relativePath, "is a file, not a folder", remedy: "choose another --cache-dir")
            }
            let reason = ToolError(nil, describing: error)
            throw ToolError(folder.relativePath, "cannot create the cache folder: \(reason.problem)", remedy: "choose another --cache-dir")
        }
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ToolError(folder.relativePath, "is a file, not a folder", remedy: "choose another --cache-dir or --namespace")
        }
        guard access(folder.path, W_OK) == 0 else {
            throw ToolError(folder.relativePath, "cannot write in the cache folder: \(Describing.systemMessage(errno))",
                            remedy: "choose another --cache-dir")
        }
        return folder
    }

    /// The nearest existing ancestor of `url` when it is a file, not a folder.
    private static func firstFileAbove(_ url: URL) -> URL? {
        var candidate = url.deletingLastPathComponent()
        while candidate.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
                return isDirectory.boolValue ? nil : candidate
            }
            candidate.deleteLastPathComponent()
        }
        return nil
    }
}
