import Glibc

/// An `errno` value as an error, so the file helpers can return `Result`s that callers match on.
package struct Errno: Error, Equatable {
    /// The raw `errno` value.
    package var rawValue: Int32

    static let ENOENT = Errno(rawValue: Glibc.ENOENT)
    static let EISDIR = Errno(rawValue: Glibc.EISDIR)
    static let EIO = Errno(rawValue: Glibc.EIO)
    static let ENOTSUP = Errno(rawValue: Glibc.ENOTSUP)
    static let ERANGE = Errno(rawValue: Glibc.ERANGE)
}
