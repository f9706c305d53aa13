package import Foundation
import Glibc

extension DiskStorage {
    /// Stores `data` for `key`, replacing any previous entry atomically, with optional extended data.
    ///
    /// The bytes go to a hidden temporary file in the same directory, with their length recorded beside them
    /// (else flushed; see ``DiskCacheConfiguration/synchronizesWrites``), and are renamed over the entry, so
    /// readers see the old entry or the new one, never a mix. Extended data is an extended attribute set before the rename
    /// (atomic with the bytes); where the file system refuses it, a sidecar file renamed into place just after
    /// the entry. A missing directory is created (again). On failure nothing partial is left behind.
    /// ``store(_:)`` writes several entries as one group.
    package func store(_ data: Data, forKey key: String, extendedData: Data? = nil) throws(DiskCacheError) {
        if let failure = store([Write(data: data, key: key, extendedData: extendedData)]).first ?? nil { throw failure }
    }

    /// Replaces the extended data of `key`'s entry in the main directory (for example new validators after
    /// a 304), or removes it when `extendedData` is `nil`; throws ``DiskCacheError/Code/notFound`` without an entry.
    package func setExtendedData(_ extendedData: Data?, forKey key: String) throws(DiskCacheError) {
        let candidate = candidates(forKey: key).first { candidate in
            guard candidate.isMain, case .success(let status) = POSIXFile.status(candidate.path) else { return false }
            return status.isRegularFile
        }
        guard let candidate else {
            throw DiskCacheError(.notFound, path: directoryPath + "/" + CacheFileName.name(forKey: key), "no entry for the key")
        }
        let fd = open(candidate.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = POSIXFile.currentError()
            throw DiskCacheError(.extendedDataFailed, path: candidate.path, "cannot open the entry", posixErrorCode: code.rawValue)
        }
        defer { _ = POSIXFile.close(fd) }
        let sidecar = candidate.directory + "/" + Self.sidecarName(for: candidate.name)
        guard let extendedData else {
            _ = ExtendedAttribute.remove(from: fd)
            _ = POSIXFile.unlink(sidecar)
            return
        }
        if configuration.extendedDataStorage == .automatic, ExtendedAttribute.set(Array(extendedData), on: fd) == nil {
            _ = POSIXFile.unlink(sidecar)
            return
        }
        _ = ExtendedAttribute.remove(from: fd)
        do throws(DiskCacheError) {
            _ = try writeAtomically(extendedData, name: Self.sidecarName(for: candidate.name), attribute: nil)
        } catch {
            throw DiskCacheError(.extendedDataFailed, path: sidecar, error.message,
                                 posixErrorCode: error.posixErrorCode, underlying: error)
        }
    }

    /// Removes `key`'s entry (both file-name forms and their sidecars) from the main directory; read-only
    /// directories are never touched. Removing a missing entry is not an error.
    package func remove(forKey key: String) throws(DiskCacheError) {
        let names = Set([CacheFileName.name(forKey: key), CacheFileName.nameWithoutExtension(forKey: key)])
        for name in names {
            for path in [directoryPath + "/" + name, directoryPath + "/" + Self.sidecarName(for: name)] {
                if let code = POSIXFile.unlink(path) {
                    throw DiskCacheError(.removeFailed, path: path, "cannot remove the entry", posixErrorCode: code.rawValue)
                }
            }
        }
    }

    /// Creates the main directory and its parents if they are missing.
    func createDirectory() throws(DiskCacheError) {
        do {
            try FileManager.default.createDirectory(atPath: directoryPath, withIntermediateDirectories: true)
        } catch {
            throw DiskCacheError(.createDirectoryFailed, path: directoryPath, "cannot create the cache directory",
                                 underlying: error)
        }
    }

    /// Writes `data` to a hidden temporary file, sets `attribute` on it when given, flushes it if it needs it, and renames it
    /// to `name`; returns whether the attribute was set. Removes the temporary file on every failure.
    func writeAtomically(_ data: Data, name: String, attribute: Data?) throws(DiskCacheError) -> Bool {
        let file = try stageFile(data, name: name, attribute: attribute)
        if let code = flush([file]).first ?? nil {
            discard(file)
            throw DiskCacheError(.writeFailed, path: file.destination, "cannot flush the entry", posixErrorCode: code.rawValue)
        }
        try commitFile(file)
        return file.attributeSet
    }
}
