package import Foundation
import WebImageCore

/// The synchronous file operations of the disk cache: one directory per namespace, one file per entry
/// named by the MD5 of its key.
///
/// Every method blocks on file I/O, so call it from a thread that may block; ``DiskCache`` runs these on
/// its serial I/O queue behind `async` functions. Stores are atomic (a hidden temporary file, its length recorded
/// or the file flushed, then `rename`), so a reader, a crash or a power loss never sees a half-written entry, and
/// independent `DiskStorage` values on one directory (threads or processes) never corrupt each other's entries.
///
/// ```swift
/// let storage = DiskStorage(namespace: "avatars")   // ~/.cache/webimagekit/avatars
/// try storage.store(pngData, forKey: "https://example.com/a.png", extendedData: validators)
/// let entry = storage.entry(forKey: "https://example.com/a.png")
/// ```
package struct DiskStorage: Sendable {
    /// The prefix of temporary files; they are hidden, never returned by lookups, and removed by ``clean()``.
    static let temporaryPrefix = ".tmp-"
    /// The suffix of sidecar files holding extended data where extended attributes are unavailable.
    static let sidecarSuffix = ".ext"

    /// The main directory: stores go here, lookups search it first.
    package let directory: URL
    /// The expiry, size and storage rules.
    package let configuration: DiskCacheConfiguration
    let now: @Sendable () -> Date
    let directoryPath: String
    let readOnlyPaths: [String]
    /// The flushes made so far (``synchronizationCount``), shared by the copies of this storage.
    let synchronizations = LockedValue(0)

    /// Creates a storage on `directory`, which is created on the first store (and recreated if deleted).
    /// - Parameters:
    ///   - directory: the directory entries are written to.
    ///   - configuration: the expiry, size and storage rules.
    ///   - now: the clock expiry is measured against; tests inject their own.
    package init(
        directory: URL,
        configuration: DiskCacheConfiguration = DiskCacheConfiguration(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory.standardizedFileURL
        self.configuration = configuration
        self.now = now
        self.directoryPath = Self.trimmedPath(directory.standardizedFileURL.path)
        self.readOnlyPaths = configuration.readOnlyDirectories.map { Self.trimmedPath($0.standardizedFileURL.path) }
    }

    /// Creates a storage on `<root>/<namespace>`; `root` defaults to ``defaultRoot(environment:)``.
    package init(
        namespace: String = "default",
        root: URL? = nil,
        configuration: DiskCacheConfiguration = DiskCacheConfiguration(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let base = root ?? Self.defaultRoot()
        let directory = base.appendingPathComponent(Self.directoryName(forNamespace: namespace), isDirectory: true)
        self.init(directory: directory, configuration: configuration, now: now)
    }

    /// `$XDG_CACHE_HOME/webimagekit` when that variable holds an absolute path, else `~/.cache/webimagekit`
    /// (the XDG base directory rule), else a folder in the temporary directory when there is no home.
    package static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("webimagekit", isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".cache/webimagekit", isDirectory: true)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("webimagekit", isDirectory: true)
    }

    /// The directory name for a namespace: characters other than ASCII letters, digits, `-` and `_`
    /// become `_`, so a namespace can never leave the root; an empty namespace becomes `default`.
    package static func directoryName(forNamespace namespace: String) -> String {
        guard !namespace.isEmpty else { return "default" }
        let safe = namespace.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
                ? Character(scalar) : "_"
        }
        return String(safe)
    }

    /// The file name of `key`'s entry: 32 hex digits of its MD5, plus its extension if it has a short one.
    package static func fileName(forKey key: String) -> String { CacheFileName.name(forKey: key) }

    /// Where a store of `key` writes its file, in the main directory.
    package func fileURL(forKey key: String) -> URL {
        directory.appendingPathComponent(Self.fileName(forKey: key), isDirectory: false)
    }

    /// The bytes stored for `key`, or `nil` when no readable entry exists; a file that cannot be read is a miss.
    package func data(forKey key: String) -> Data? {
        for candidate in candidates(forKey: key) {
            if case .success(let data) = read(candidate) { return data }
        }
        return nil
    }

    /// The bytes and extended data stored for `key`, or `nil` on a miss.
    package func entry(forKey key: String) -> DiskCacheEntry? {
        for candidate in candidates(forKey: key) {
            let read = POSIXFile.readContents(
                candidate.path, touch: touches(candidate), mappingFrom: configuration.memoryMappingThreshold, attribute: true)
            guard case .success(let contents) = read else { continue }
            // The attribute came through the same descriptor.
            let extended = extendedData(contents.attribute, of: candidate)
            var entry = DiskCacheEntry(data: contents.data, extendedData: extended, url: URL(fileURLWithPath: candidate.path))
            entry.modificationDate = contents.modificationDate
            return entry
        }
        return nil
    }

    private func read(_ candidate: Candidate) -> Result<Data, Errno> {
        POSIXFile.read(candidate.path, touch: touches(candidate), mappingFrom: configuration.memoryMappingThreshold)
    }

    /// Whether an entry for `key` exists in the main or a read-only directory (a torn one does not count).
    package func contains(_ key: String) -> Bool {
        candidates(forKey: key).contains { candidate in
            guard case .success(let status) = POSIXFile.status(candidate.path), status.isRegularFile else { return false }
            return POSIXFile.isWhole(size: status.logicalSize, recordedLength: ExtendedAttribute.length(atPath: candidate.path))
        }
    }

    /// Whether anything (a file, a link) is where `key`'s entry would be: one `access` each, the cheapest sign that a
    /// lookup may hit.
    func mayHaveEntry(forKey key: String) -> Bool {
        candidates(forKey: key).contains { access($0.path, F_OK) == 0 }
    }

    /// Marks `key`'s entry in the main directory as stored now (its modification date), without rewriting it:
    /// what a revalidation that found the bytes current does. False when there is no such entry.
    @discardableResult
    package func markFresh(forKey key: String) -> Bool {
        candidates(forKey: key).contains { $0.isMain && POSIXFile.touchModificationDate($0.path) == nil }
    }

    /// The extended data stored with `key`'s entry and when the entry was stored, without reading its bytes;
    /// `nil` when there is no entry.
    package func metadata(forKey key: String) -> (extendedData: Data?, modificationDate: Date)? {
        for candidate in candidates(forKey: key) {
            guard case .success(let status) = POSIXFile.status(candidate.path), status.isRegularFile,
                  POSIXFile.isWhole(size: status.logicalSize, recordedLength: ExtendedAttribute.length(atPath: candidate.path))
            else { continue }
            // The attribute read by path: the entry is not opened.
            return (extendedData(ExtendedAttribute.get(atPath: candidate.path), of: candidate), status.modificationDate)
        }
        return nil
    }
}

extension DiskStorage {
    /// One place an entry for a key may be.
    struct Candidate {
        var directory: String
        var name: String
        var isMain: Bool
        var path: String { directory + "/" + name }
    }

    /// The lookup order: the main directory with and without extension, then each read-only one.
    func candidates(forKey key: String) -> [Candidate] {
        let name = CacheFileName.name(forKey: key)
        let bare = CacheFileName.nameWithoutExtension(forKey: key)
        let names = name == bare ? [name] : [name, bare]
        var result: [Candidate] = []
        for (index, directory) in ([directoryPath] + readOnlyPaths).enumerated() {
            for name in names { result.append(Candidate(directory: directory, name: name, isMain: index == 0)) }
        }
        return result
    }

    /// The extended data of `candidate`: its attribute when there is one, else its sidecar file (written where
    /// the file system refused the attribute).
    func extendedData(_ attribute: Result<[UInt8], Errno>?, of candidate: Candidate) -> Data? {
        if case .success(let bytes) = attribute { return Data(bytes) }
        return try? POSIXFile.read(candidate.directory + "/" + Self.sidecarName(for: candidate.name), touch: false).get()
    }

    /// Whether reading `candidate` refreshes its access date (only main-directory entries, only by access date).
    func touches(_ candidate: Candidate) -> Bool {
        candidate.isMain && configuration.expirationDate == .accessDate
    }

    /// The sidecar file name for an entry name.
    static func sidecarName(for name: String) -> String { "." + name + sidecarSuffix }

    /// `path` without trailing slashes (but `/` stays `/`).
    static func trimmedPath(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
