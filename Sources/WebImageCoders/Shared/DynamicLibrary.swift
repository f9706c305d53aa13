#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A shared library opened with `dlopen` and never closed.
struct DynamicLibrary: @unchecked Sendable {
    // Safety: the handle is only passed to dlsym, which is thread-safe.
    /// What `dlopen` returned.
    let handle: UnsafeMutableRawPointer
    /// The name it was opened by, for messages.
    let name: String
    /// The format whose coder opened it, for errors.
    let format: ImageFormat

    /// Opens the first of `names` that loads; `package` names the Debian package a message suggests.
    init(_ names: [String], package: String, for format: ImageFormat) throws(ImageCodingError) {
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                self.name = name
                self.format = format
                return
            }
        }
        let reason = dlerror().map { String(cString: $0) } ?? "not found"
        throw ImageCodingError(.unsupportedFormat, format: format,
                               "\(format.displayName) images need \(names[0]) at run time (Debian: apt-get install \(package)): \(reason)")
    }

    /// The function `symbol`, typed as `Function` (a `@convention(c)` type matching its C declaration).
    func function<Function>(_ symbol: String) throws(ImageCodingError) -> Function {
        guard let address = dlsym(handle, symbol) else {
            throw ImageCodingError(.unsupportedFormat, format: format, "\(name) has no function \(symbol)")
        }
        return unsafeBitCast(address, to: Function.self)
    }
}
