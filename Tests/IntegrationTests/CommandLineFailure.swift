import Testing

/// A bad `webimage` command line and what it must give: the exit status and the words its one line on
/// standard error contains. `$DIR` in an argument stands for the test's folder.
struct CommandLineFailure: CustomTestStringConvertible, Sendable {
    var rule: String
    var arguments: [String]
    var status: Int32
    var message: String

    var testDescription: String { rule }
}
