import Foundation

/// The memory a container lets this process use, from its cgroup, for the memory cache's default limit.
enum ContainerMemory {
    /// The container's limit in bytes, read once; `nil` when there is none or it cannot be read.
    static let limit: UInt64? = readLimit { try? String(contentsOfFile: $0, encoding: .utf8) }

    /// The limit the first cgroup file that exists names (see ``candidatePaths(selfCgroup:)``), read
    /// with `read` (injected in tests). `nil` when none exists, or the first says `max` (no limit).
    static func readLimit(_ read: (String) -> String?) -> UInt64? {
        for path in candidatePaths(selfCgroup: read("/proc/self/cgroup")) {
            if let content = read(path) { return limit(fromCgroupFile: content) }
        }
        return nil
    }

    /// Where the limit may be: cgroup v2's `memory.max` of the container's namespace root (`/sys/fs/cgroup`),
    /// then of this process's own cgroup (`0::/path` in `/proc/self/cgroup`), then cgroup v1's
    /// `memory.limit_in_bytes`.
    static func candidatePaths(selfCgroup: String?) -> [String] {
        var paths = ["/sys/fs/cgroup/memory.max"]
        let line = selfCgroup?.split(separator: "\n").first { $0.hasPrefix("0::/") }
        if let own = line?.dropFirst(3), own != "/" { paths.append("/sys/fs/cgroup\(own)/memory.max") }
        paths.append("/sys/fs/cgroup/memory/memory.limit_in_bytes")
        return paths
    }

    /// The bytes a cgroup memory file names: a number, or `max` (no limit, `nil`). Anything else is `nil`.
    static func limit(fromCgroupFile content: String) -> UInt64? {
        guard let value = UInt64(content.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0 else { return nil }
        return value
    }

    /// The memory cache's default cost limit: a fifth of the memory the process may use (the machine's, or
    /// the container's limit when lower), at most 256 MiB.
    static func defaultCostLimit(physicalMemory: UInt64, containerLimit: UInt64?) -> Int {
        let available = min(physicalMemory, containerLimit ?? .max)
        return Int(min(available / 5, 256 << 20))
    }
}
