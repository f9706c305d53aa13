package import Foundation

/// Reads the files the tool is given, with errors that say what is wrong with the path: missing, a folder,
/// unreadable. `-` means standard input.
package enum InputFile {
    /// The bytes of the file at `path` (mapped when it is large and ``MappedInput`` is on), or of standard
    /// input for `-`.
    package static func read(_ path: String) throws(ToolError) -> Data {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard !data.isEmpty else { throw ToolError("standard input", "nothing was read", remedy: "pipe an image in") }
            return data
        }
        try checkIsFile(path)
        if let mapped = MappedInput.map(path) { return mapped }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard !data.isEmpty else { throw ToolError(path, "the file is empty") }
            return data
        } catch {
            throw ToolError(path, describing: error)
        }
    }

    /// Throws the error `read` would for a path that is missing or a folder, for callers that read the file themselves.
    package static func checkIsFile(_ path: String) throws(ToolError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolError(path, "no such file", remedy: "check the path")
        }
        guard !isDirectory.boolValue else {
            throw ToolError(path, "is a folder, not an image file", remedy: "name the files inside it, e.g. \(path)/*.jpg")
        }
    }
}
