package import Foundation
import WebImageKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the tool's output files all at once or not at all, and never over an existing file unless asked.
package enum OutputFile {
    /// Writes `data` to `url` through a temporary file beside it that is then moved into place, so a failure
    /// never leaves a half-written file. Without `replacing`, an existing file is left alone and the write
    /// fails with "already exists" and `ifExists` as what to do; the check is made by the move itself (a
    /// hard link, which fails when the name is taken), so no other process can slip a file in between.
    package static func write(
        _ data: Data, to url: URL, replacing: Bool, ifExists remedy: String = defaultExistsRemedy
    ) throws(ToolError) {
        let path = url.relativePath
        try checkTarget(url, replacing: replacing, ifExists: remedy)
        let suffix = String(UInt32.random(in: .min ... .max), radix: 16, uppercase: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(suffix).webimage-tmp")
        let folder = url.deletingLastPathComponent().path
        let descriptor: Int32
        switch POSIXFile.createExclusive(temporary.path, mode: 0o666) {
        case .success(let created): descriptor = created
        case .failure(let error): throw ToolError(path, "cannot write in \(folder): \(Describing.systemMessage(error.rawValue))")
        }
        // The temporary name is ours from here on and goes at the end (a rename took it already; after a hard
        // link the output keeps the bytes).
        defer { unlink(temporary.path) }
        if let error = writeAndClose(descriptor, data) {
            throw ToolError(path, "cannot write in \(folder): \(Describing.systemMessage(error))")
        }
        if replacing {
            guard rename(temporary.path, path) == 0 else { throw ToolError(path, Describing.systemMessage(errno)) }
            return
        }
        if link(temporary.path, path) == 0 { return }
        let linkError = errno
        if linkError == EEXIST { throw alreadyExists(path, remedy) }
        // File systems without hard links (FAT, some network mounts): check, then move.
        guard linkError == EPERM || linkError == ENOTSUP || linkError == EOPNOTSUPP else {
            throw ToolError(path, Describing.systemMessage(linkError))
        }
        guard !FileManager.default.fileExists(atPath: path) else { throw alreadyExists(path, remedy) }
        guard rename(temporary.path, path) == 0 else { throw ToolError(path, Describing.systemMessage(errno)) }
    }

    /// Writes `data` to `descriptor` and closes it; the `errno` of the failure, if any. No `fsync` (Foundation's
    /// `Data.write` makes one, about a millisecond of waiting here): the file is moved into place whole, so no
    /// process ever sees it half-written; like vips, ImageMagick and `cp`, which do not flush either, the tool
    /// leaves durability across a power cut to the file system.
    private static func writeAndClose(_ descriptor: Int32, _ data: Data) -> Int32? {
        let failure = POSIXFile.writeAll(descriptor, data)
        // A delayed write error (a full disk on some file systems) shows up at close.
        let closing = POSIXFile.close(descriptor)
        return (failure ?? closing)?.rawValue
    }

    /// Throws unless a file can be written at `url`: its folder exists, and nothing is there yet (or
    /// only a file, when `replacing`). ``write(_:to:replacing:)`` checks again when it moves the file in.
    package static func checkTarget(
        _ url: URL, replacing: Bool, ifExists remedy: String = defaultExistsRemedy
    ) throws(ToolError) {
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw ToolError(url.relativePath, "the folder \(folder) does not exist", remedy: "create it first")
        }
        guard isDirectory.boolValue else { throw ToolError(url.relativePath, "\(folder) is a file, not a folder") }
        if FileManager.default.fileExists(atPath: url.relativePath, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw ToolError(url.relativePath, "is a folder", remedy: "name a file to write") }
            if !replacing { throw alreadyExists(url.relativePath, remedy) }
        }
    }

    /// What `convert` suggests when its output exists.
    package static let defaultExistsRemedy = "pass --force to replace it, or --out-dir DIR to convert several files"

    private static func alreadyExists(_ path: String, _ remedy: String) -> ToolError {
        ToolError(path, "already exists", remedy: remedy)
    }
}
