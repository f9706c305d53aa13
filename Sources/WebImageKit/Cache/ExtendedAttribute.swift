import Glibc

/// Linux extended attributes (`fsetxattr`, `fgetxattr`, `lgetxattr`, `fremovexattr`), looked up in the C library at
/// run time because the Glibc module does not import `<sys/xattr.h>`. Where the C library lacks them,
/// every call fails with `ENOTSUP`, so callers fall back to sidecar files.
enum ExtendedAttribute {
    /// The attribute holding an entry's extended data.
    static let name = "user.webimagekit.extended"
    /// The attribute holding an entry's length in bytes (decimal digits), written with entries that are not
    /// flushed before their rename: a file shorter or longer than it was torn by a power loss.
    static let lengthName = "user.webimagekit.length"

    private typealias SetFunction = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    private typealias GetFunction = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    private typealias PathGetFunction = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    private typealias RemoveFunction = @convention(c) (Int32, UnsafePointer<CChar>) -> Int32

    private struct Functions: @unchecked Sendable {
        var set: SetFunction?
        var get: GetFunction?
        var getAtPath: PathGetFunction?
        var remove: RemoveFunction?
    }

    /// Looked up once; C function pointers are immutable, hence `@unchecked Sendable`.
    private static let functions = Functions(
        set: dlsym(nil, "fsetxattr").map { unsafeBitCast($0, to: SetFunction.self) },
        get: dlsym(nil, "fgetxattr").map { unsafeBitCast($0, to: GetFunction.self) },
        getAtPath: dlsym(nil, "lgetxattr").map { unsafeBitCast($0, to: PathGetFunction.self) },
        remove: dlsym(nil, "fremovexattr").map { unsafeBitCast($0, to: RemoveFunction.self) }
    )

    /// Sets the attribute `name` on `fd` to `value`.
    static func set(_ value: [UInt8], on fd: Int32, named name: String = Self.name) -> Errno? {
        guard let function = functions.set else { return .ENOTSUP }
        let result = value.withUnsafeBytes { function(fd, name, $0.baseAddress, $0.count, 0) }
        return result == 0 ? nil : POSIXFile.currentError()
    }

    /// Records `length` as the length of the file open on `fd`.
    static func setLength(_ length: Int, on fd: Int32) -> Errno? {
        set(Array(String(length).utf8), on: fd, named: lengthName)
    }

    /// The length recorded on the file open on `fd`, or `nil` when none is (nor can be) read: one call.
    static func length(of fd: Int32) -> Int? {
        guard let function = functions.get else { return nil }
        return recordedLength { function(fd, lengthName, $0, $1) }
    }

    /// The length recorded on the file at `path` (not following a symbolic link), or `nil`.
    static func length(atPath path: String) -> Int? {
        guard let function = functions.getAtPath else { return nil }
        return recordedLength { function(path, lengthName, $0, $1) }
    }

    /// A length read through `call` into a small buffer: at most 20 decimal digits.
    private static func recordedLength(_ call: (UnsafeMutableRawPointer?, Int) -> Int) -> Int? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            let count = call(buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            return Int(String(decoding: buffer.prefix(count), as: UTF8.self))
        }
    }

    /// The attribute's value on `fd`; `.failure(.ENODATA)` when the file has none.
    static func get(from fd: Int32) -> Result<[UInt8], Errno> {
        guard let function = functions.get else { return .failure(.ENOTSUP) }
        return read { buffer, count in function(fd, name, buffer, count) }
    }

    /// The attribute's value on the file at `path` (not following a symbolic link), without opening it.
    static func get(atPath path: String) -> Result<[UInt8], Errno> {
        guard let function = functions.getAtPath else { return .failure(.ENOTSUP) }
        return read { buffer, count in function(path, name, buffer, count) }
    }

    /// Reads a value through `call` (a buffer of 0 bytes asks for the size).
    private static func read(_ call: (UnsafeMutableRawPointer?, Int) -> Int) -> Result<[UInt8], Errno> {
        for _ in 0..<4 {  // the value may change between the size query and the read
            let size = call(nil, 0)
            guard size >= 0 else { return .failure(POSIXFile.currentError()) }
            var bytes = [UInt8](repeating: 0, count: size)
            let read = bytes.withUnsafeMutableBytes { call($0.baseAddress, $0.count) }
            if read >= 0 { return .success(Array(bytes.prefix(read))) }
            if errno != ERANGE { return .failure(POSIXFile.currentError()) }
        }
        return .failure(.ERANGE)
    }

    /// Removes the attribute from `fd`; a missing attribute is not an error.
    static func remove(from fd: Int32) -> Errno? {
        guard let function = functions.remove else { return nil }
        if function(fd, name) == 0 || errno == ENODATA || errno == ENOTSUP { return nil }
        return POSIXFile.currentError()
    }
}
