import Foundation

/// A failure of the `webimage` tool that a person can act on: the path or URL it concerns, what went wrong
/// in words, and what to do about it when there is something to do.
///
/// Its ``description`` is one line: `photo.jpg: no such file; check the path`.
package struct ToolError: Error, Sendable, CustomStringConvertible {
    /// The path or URL concerned; `nil` until the caller that knows it fills it in.
    package var subject: String?
    /// What went wrong, in words.
    package var problem: String
    /// What to do, if there is something to do.
    package var remedy: String?

    /// Creates an error.
    package init(_ subject: String?, _ problem: String, remedy: String? = nil) {
        self.subject = subject
        self.problem = problem
        self.remedy = remedy
    }

    /// Describes any error in words (``Describing``), about `subject` unless the error names its own.
    package init(_ subject: String?, describing error: any Error) {
        if var tool = error as? ToolError {
            tool.subject = tool.subject ?? subject
            self = tool
        } else {
            let words = Describing.words(for: error)
            self.init(subject, words.problem, remedy: words.remedy)
        }
    }

    /// `subject: problem; remedy`, on one line.
    package var description: String {
        var text = subject.map { "\($0): " } ?? ""
        text += problem
        if let remedy { text += "; \(remedy)" }
        return text.replacingOccurrences(of: "\n", with: " ")
    }
}
