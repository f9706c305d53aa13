package import Foundation
package import WebImageKit

/// One file to convert: where from, where to, in which format. `-` means standard input or output.
package struct ConversionJob: Sendable, Equatable {
    /// The image to read, or `-`.
    package var input: String
    /// The file to write, or `-`.
    package var output: String
    /// The format to write.
    package var format: ImageFormat

    /// Creates a job.
    package init(input: String, output: String, format: ImageFormat) {
        self.input = input
        self.output = output
        self.format = format
    }
}

/// Works out what `webimage convert` will write before anything is read or written, so that every mistake
/// in the arguments (an extension no coder writes, two inputs with one output name) is found at once.
/// Every error it throws is a usage error.
package enum ConversionPlan {
    /// The name template of `--name` when none is given: the input's name without its extension.
    package static let defaultNameTemplate = "{name}"

    /// `convert INPUT OUTPUT`: the format is `format`, else the output's extension, else (writing to
    /// standard output) the input's.
    package static func single(
        input: String, output: String, format: ImageFormat?, settings: ConversionSettings
    ) throws(ToolError) -> ConversionJob {
        let chosen: ImageFormat
        if let format {
            chosen = format
        } else if output != "-" {
            chosen = try formatNamed(by: output)
        } else if input != "-" {
            chosen = try formatNamed(by: input)
        } else {
            throw ToolError("-", "cannot tell which format to write to standard output", remedy: "pass --format, e.g. --format png")
        }
        try check(chosen, for: output, settings: settings)
        return ConversionJob(input: input, output: output, format: chosen)
    }

    /// `convert INPUT... --out-dir DIR [--format EXT] [--name TEMPLATE]`: each output is named by the
    /// template (`{name}`: the input's name without extension, `{index}`: its position from 1) plus the
    /// format's extension; the format is `format`, else the input's own.
    package static func batch(
        inputs: [String], directory: URL, format: ImageFormat?, nameTemplate: String, settings: ConversionSettings
    ) throws(ToolError) -> [ConversionJob] {
        guard !nameTemplate.contains("/"), nameTemplate.contains("{name}") || nameTemplate.contains("{index}") else {
            throw ToolError("--name \(nameTemplate)", "a name template needs {name} or {index} and no /",
                            remedy: "e.g. --name '{name}-small'")
        }
        var jobs: [ConversionJob] = []
        var inputsByOutput: [String: String] = [:]
        for (index, input) in inputs.enumerated() {
            guard input != "-" else {
                throw ToolError("-", "standard input cannot be one of several inputs", remedy: "convert it on its own: convert - OUTPUT")
            }
            let chosen = if let format { format } else { try formatNamed(by: input) }
            let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
            let name = nameTemplate.replacingOccurrences(of: "{name}", with: stem)
                .replacingOccurrences(of: "{index}", with: String(index + 1))
            let output = directory.appendingPathComponent("\(name).\(chosen.fileExtension)").relativePath
            try check(chosen, for: input, settings: settings)
            if let other = inputsByOutput[output] {
                throw ToolError(output, "both \(other) and \(input) would be written here",
                                remedy: "add {index} to the name, e.g. --name '{name}-{index}'")
            }
            inputsByOutput[output] = input
            jobs.append(ConversionJob(input: input, output: output, format: chosen))
        }
        return jobs
    }

    /// The format a path's extension names.
    private static func formatNamed(by path: String) throws(ToolError) -> ImageFormat {
        let fileExtension = URL(fileURLWithPath: path).pathExtension
        let format = ImageFormat(fileExtension: fileExtension)
        guard format != .unknown else {
            let shown = fileExtension.isEmpty ? "no extension" : "the extension .\(fileExtension)"
            throw ToolError(path, "cannot tell which format to write from \(shown)",
                            remedy: "name a .jpg, .png, .gif, .webp or .avif file, or pass --format")
        }
        return format
    }

    private static func check(_ format: ImageFormat, for path: String, settings: ConversionSettings) throws(ToolError) {
        do {
            try ImageConversion.checkWritable(format, settings: settings)
        } catch {
            throw ToolError(path, describing: error)
        }
    }
}
