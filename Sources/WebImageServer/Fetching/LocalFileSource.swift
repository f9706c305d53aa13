import Foundation
import Glibc
import WebImageKit

/// imgproxy's `local://` sources: files under one root folder (`IMGPROXY_LOCAL_FILESYSTEM_ROOT`), read as a loader
/// so that the manager caches and revalidates them as it does downloads.
///
/// No source leaves the root: a path with a `.` or `..` segment, a backslash or a NUL is refused before any I/O
/// (``relativePath(of:)``), and the file's real path, symbolic links resolved, must still be under the root's
/// real path (403 otherwise). The file is then opened without following a last symbolic link, must be a regular
/// file of at most `maximumBytes`, and answers a conditional load by its size and modification date.
struct LocalFileSource: ImageLoading {
    /// The root's real path, without a trailing slash.
    let root: String
    let maximumBytes: Int

    /// A source for the files under `root`; nil when `root` is not an existing folder.
    init?(root: URL, maximumBytes: Int) {
        guard let resolved = Self.realPath(root.path) else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        self.root = resolved == "/" ? "" : resolved
        self.maximumBytes = maximumBytes
    }

    func canLoad(_ url: URL) -> Bool { url.scheme == "local" }

    /// The path of a `local://` source under the root (`local:///images/a.jpg` → `/images/a.jpg`, percent-decoded),
    /// or nil when it could leave the root or is not a file path at all.
    static func relativePath(of source: String) -> String? {
        guard source.hasPrefix("local://") else { return nil }
        var rest = source.dropFirst("local://".count)
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        guard let path = String(rest).removingPercentEncoding, path.hasPrefix("/"), path.count > 1,
              !path.contains("\\"), !path.contains("\0")
        else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard !segments.contains(where: { $0 == "." || $0 == ".." || $0.isEmpty }) else { return nil }
        return path
    }

    func loadData(
        for url: URL, options: DownloadOptions, validators: Validators?, progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        guard let path = Self.relativePath(of: url.absoluteString) else {
            throw ImageDownloadError(.invalidURL, "not a path under the local root")
        }
        let root = root, maximumBytes = maximumBytes
        return try await WorkerThreads.transfers.run { () throws -> DownloadedData in
            try Self.read(root + path, root: root, url: url, maximumBytes: maximumBytes, validators: validators)
        }
    }

    /// Reads the file at `candidate` after checking that its real path is under `root`.
    private static func read(_ candidate: String, root: String, url: URL, maximumBytes: Int, validators: Validators?) throws -> DownloadedData {
        guard let resolved = realPath(candidate) else { throw ImageDownloadError(.badStatus(404), "no such file under the local root") }
        guard resolved.hasPrefix(root + "/") else {
            throw ImageDownloadError(.rejected, "the file is outside the local root", underlying: SourceURLError(.notAllowed, "the source is outside the local root"))
        }
        let attributes = try? URL(fileURLWithPath: resolved).resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey])
        guard let attributes, attributes.isRegularFile == true, let size = attributes.fileSize, let modified = attributes.contentModificationDate else {
            throw ImageDownloadError(.badStatus(404), "not a regular file")
        }
        guard size <= maximumBytes else { throw ImageDownloadError(.tooLarge, "the file is larger than the server accepts") }
        let stamp = modified.timeIntervalSince1970
        let headers = ["etag": "\"\(stamp)-\(size)\"", "last-modified": HTTPDate.string(modified)]
        if let etag = validators?.etag, etag == headers["etag"] {
            return DownloadedData(data: Data(), response: DownloadResponse(url: url, statusCode: 304, headers: headers))
        }
        // Not following a last link (the real path has none unless it changed since), never waiting on a FIFO.
        let fd = open(resolved, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ImageDownloadError(.badStatus(404), "the file cannot be opened") }
        defer { close(fd) }
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let count = Glibc.read(fd, base + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard complete else { throw ImageDownloadError(.network, "the file could not be read whole") }
        return DownloadedData(data: data, response: DownloadResponse(url: url, statusCode: 200, headers: headers))
    }

    /// `path` with every symbolic link resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
