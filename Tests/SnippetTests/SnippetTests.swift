import Foundation
import Testing

/// The examples of the README, the pages in docs/ and the DocC articles compile: this target builds them (from
/// the Snippets.*.generated.swift files), and this test fails when they no longer match the documents.
@Suite struct SnippetTests {
    @Test func theGeneratedExamplesMatchTheDocuments() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/snippets.py").path, "--check"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
    }
}
