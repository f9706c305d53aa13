import CWebImageShims
import Foundation
import Glibc
import Testing
import WebImageTestSupport
import WebImageTools

/// The tool maps large input files instead of reading them (issue 33), and a mapped file cut short by another
/// program ends the tool with a message, not a crash.
@Suite struct MappedInputTests {
    /// Whether this process has the file at `path` mapped: a line of /proc/self/maps names its inode and its
    /// file name (the folder may be spelled differently there, through a symbolic link).
    static func isMapped(_ path: String) throws -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let name = "/" + URL(fileURLWithPath: path).lastPathComponent
        // Read to the end: procfs files report a size of 0.
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readToEnd() ?? Data()
        return String(decoding: maps, as: UTF8.self).split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 6 && fields[4] == "\(status.st_ino)" && line.hasSuffix(name)
        }
    }

    static func write(_ bytes: Int, in directory: TemporaryDirectory, name: String) throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aLargeFileIsMappedWithItsBytesAndUnmappedWhenReleased() throws {
        MappedInput.enable()
        let directory = try TemporaryDirectory("mapped-input")
        defer { directory.remove() }
        let path = try Self.write(MappedInput.minimumBytes + 12_345, in: directory, name: "large.bin")
        var data: Data? = try InputFile.read(path)
        #expect(try Self.isMapped(path))
        #expect(data == (try Data(contentsOf: URL(fileURLWithPath: path))))
        data = nil
        #expect(try !Self.isMapped(path))
        _ = data
    }

    @Test func aSmallFileIsReadNotMapped() throws {
        MappedInput.enable()
        let directory = try TemporaryDirectory("mapped-input")
        defer { directory.remove() }
        let path = try Self.write(1_000, in: directory, name: "small.bin")
        let data = try InputFile.read(path)
        #expect(try !Self.isMapped(path))
        #expect(data.count == 1_000)
    }

    /// The child maps a file, installs the tool's handler, cuts the file to nothing and touches the mapping:
    /// it must exit with status 1 and the handler's message, not die of SIGBUS.
    @Test func aMappedFileCutShortEndsTheProcessWithAMessage() throws {
        MappedInput.enable()
        let directory = try TemporaryDirectory("mapped-input")
        defer { directory.remove() }
        let path = try Self.write(MappedInput.minimumBytes * 2, in: directory, name: "cut.bin")
        let data = try InputFile.read(path)
        try #require(try Self.isMapped(path))
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        let child = data.withUnsafeBytes { bytes -> pid_t in
            let child = fork()
            if child == 0 {   // only async-signal-safe calls from here on
                _ = dup2(pipeEnds[1], STDERR_FILENO)
                _ = wik_exit_on_bus_error()
                _ = truncate(path, 0)
                let last = bytes.load(fromByteOffset: bytes.count - 1, as: UInt8.self)
                _exit(last == 0 ? 3 : 2)   // reached only if the page was still there
            }
            return child
        }
        close(pipeEnds[1])
        try #require(child > 0)
        var status: Int32 = 0
        _ = waitpid(child, &status, 0)
        var message = [UInt8](repeating: 0, count: 256)
        let count = read(pipeEnds[0], &message, message.count)
        close(pipeEnds[0])
        let exited = status & 0x7f == 0
        #expect(exited, "the child died of signal \(status & 0x7f)")
        #expect((status >> 8) & 0xff == 1)
        #expect(String(decoding: message.prefix(max(0, count)), as: UTF8.self).contains("cut short"))
    }
}

/// The tool fixes glibc's malloc thresholds (`returnLargeBlocksToTheSystem` in `WebImageCommand`). The call must take
/// effect: it once compiled to `return 0`, its test for glibc coming before any header that defines `__GLIBC__`.
@Suite struct MallocThresholdsTests {
    @Test func theToolsMallocThresholdsAreSetOnGlibc() throws {
        // In a child process, so that this one's malloc keeps glibc's defaults.
        let child = fork()
        if child == 0 { _exit(wik_set_malloc_thresholds(128 * 1024, 1 << 20) == 1 ? 0 : 1) }
        try #require(child > 0)
        var status: Int32 = 0
        _ = waitpid(child, &status, 0)
        #expect(status == 0, "wik_set_malloc_thresholds did not set the thresholds (status \(status))")
    }
}
