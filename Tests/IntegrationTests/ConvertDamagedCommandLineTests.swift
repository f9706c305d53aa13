import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `webimage convert` of a damaged file: what decodes is written, as a browser shows it, with one line saying what
/// was wrong; `--strict` refuses it as before.
@Suite struct ConvertDamagedCommandLineTests {
    typealias CLI = CommandLineToolTests

    @Test func aTruncatedJPEGIsConvertedWithALineSayingSoAndStrictRefusesIt() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 64, height: 48)), as: .jpeg, options: .init())
        let input = folder.appendingPathComponent("cut.jpg")
        try clean.prefix(clean.count * 3 / 5).write(to: input)
        let output = folder.appendingPathComponent("out.png"), strictOutput = folder.appendingPathComponent("strict.png")

        let lenient = try await CLI.run(["convert", input.path, output.path])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.hasPrefix("webimage: \(input.path): is damaged (truncated at row "), "\(lenient.stderr)")
        #expect(lenient.stderr.split(separator: "\n").count == 1)
        #expect(try ImageCodersManager.shared.decode(Data(contentsOf: output)).pixelSize == PixelSize(width: 64, height: 48))

        let strict = try await CLI.run(["convert", input.path, strictOutput.path, "--strict"])
        #expect(strict.status == 1)
        #expect(!FileManager.default.fileExists(atPath: strictOutput.path))
    }

    @Test func infoDecodeAndDecodeSayADamagedFileIsDamagedOnItsLine() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 64, height: 48)), as: .jpeg, options: .init())
        let input = folder.appendingPathComponent("cut.jpg"), whole = folder.appendingPathComponent("whole.jpg")
        try clean.prefix(clean.count * 3 / 5).write(to: input)
        try clean.write(to: whole)

        let info = try await CLI.run(["info", "--decode", input.path, whole.path])
        #expect(info.status == 0, "\(info.stderr)")
        let lines = info.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("JPEG 64×48") == true && lines.first?.contains(", damaged (truncated at row ") == true, "\(info.stdout)")
        #expect(lines.last?.contains("damaged") == false)
        let json = try await CLI.run(["info", "--decode", "--json", input.path])
        #expect(json.stdout.contains("\"damage\" : \"truncated at row "), "\(json.stdout)")

        let decode = try await CLI.run(["decode", input.path])
        #expect(decode.status == 0)
        #expect(decode.stdout.contains("64×48, 1 frame(s)") && decode.stdout.contains(", damaged (truncated at row "), "\(decode.stdout)")
    }
}
