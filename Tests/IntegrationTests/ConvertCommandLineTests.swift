import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `webimage convert` through the built binary: every bad input fails with its exit status and one line on
/// standard error, and leaves every file as it was.
@Suite struct ConvertCommandLineTests {
    static let usage: Int32 = 64
    static let failure: Int32 = 1

    static let failureCases: [CommandLineFailure] = [
        CommandLineFailure(rule: "an existing output is never replaced without --force",
                    arguments: ["$DIR/photo.jpg", "$DIR/existing.jpg", "--thumbnail", "256x256"], status: failure,
                    message: "existing.jpg: already exists; pass --force"),
        CommandLineFailure(rule: "more than two paths without --out-dir is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/alpha.png", "$DIR/existing.jpg"], status: usage,
                    message: "not 3 paths; to convert several files, add --out-dir DIR"),
        CommandLineFailure(rule: "a negative thumbnail size is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.png", "--thumbnail", "-5x10"], status: usage,
                    message: "--thumbnail must be a size such as 256x256 or 256, not -5x10"),
        CommandLineFailure(rule: "a thumbnail size that is not a number is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.png", "--thumbnail", "big"], status: usage,
                    message: "--thumbnail must be a size"),
        CommandLineFailure(rule: "an unknown transform is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.png", "--transform", "explode:3"], status: usage,
                    message: "explode:3: unknown transformer"),
        CommandLineFailure(rule: "a transform size of zero is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.png", "--transform", "resize:0x10"], status: usage,
                    message: "resize:0x10: expected a size"),
        CommandLineFailure(rule: "an output extension no coder writes is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.xyz"], status: usage,
                    message: "new.xyz: cannot tell which format to write from the extension .xyz"),
        CommandLineFailure(rule: "lossless JPEG is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.jpg", "--lossless"], status: usage,
                    message: "JPEG has no lossless mode"),
        CommandLineFailure(rule: "a quality over 100 is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.jpg", "--quality", "101"], status: usage,
                    message: "--quality must be between 0 and 100"),
        CommandLineFailure(rule: "--strip and --keep-metadata together is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.jpg", "--strip", "--keep-metadata"], status: usage,
                    message: "--strip and --keep-metadata cannot go together"),
        CommandLineFailure(rule: "frames count from one",
                    arguments: ["$DIR/animation.gif", "$DIR/new.png", "--frame", "0"], status: usage,
                    message: "--frame counts from 1"),
        CommandLineFailure(rule: "two inputs with one output name is a usage error",
                    arguments: ["$DIR/photo.jpg", "$DIR/folder/photo.jpg", "--out-dir", "$DIR/out", "--format", "webp"],
                    status: usage, message: "would be written here; add {index} to the name"),
        CommandLineFailure(rule: "a name template must name the input or its position",
                    arguments: ["$DIR/photo.jpg", "--out-dir", "$DIR/out", "--name", "thumb"], status: usage,
                    message: "a name template needs {name} or {index}"),
        CommandLineFailure(rule: "a missing input names the path",
                    arguments: ["$DIR/missing.jpg", "$DIR/new.png"], status: failure,
                    message: "missing.jpg: no such file; check the path"),
        CommandLineFailure(rule: "a folder is not an input",
                    arguments: ["$DIR/folder", "$DIR/new.png"], status: failure,
                    message: "folder: is a folder, not an image file"),
        CommandLineFailure(rule: "text named .jpg is not an image",
                    arguments: ["$DIR/text.jpg", "$DIR/new.png"], status: failure,
                    message: "text.jpg: the data matches no known image format"),
        CommandLineFailure(rule: "a missing output folder names the output",
                    arguments: ["$DIR/photo.jpg", "$DIR/nowhere/new.png"], status: failure,
                    message: "nowhere/new.png: the folder"),
        CommandLineFailure(rule: "an output folder that is a file names the output",
                    arguments: ["$DIR/photo.jpg", "$DIR/existing.jpg/new.png"], status: failure,
                    message: "existing.jpg is a file, not a folder"),
        CommandLineFailure(rule: "an --out-dir that is a file fails",
                    arguments: ["$DIR/photo.jpg", "--out-dir", "$DIR/existing.jpg"], status: failure,
                    message: "existing.jpg: is a file, not a folder"),
        CommandLineFailure(rule: "a transform result over the pixel limit fails before allocating",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.png", "--transform", "resize:100000x100000:fit:upscale"],
                    status: failure, message: "would exceed the limit of 100000000 pixels; ask for a smaller size, or raise --max-pixels"),
        CommandLineFailure(rule: "--max-pixels lowers the limit of decoding",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.png", "--max-pixels", "1000"], status: failure,
                    message: "photo.jpg: the JPEG image is too large"),
        CommandLineFailure(rule: "--max-pixels lowers the limit of transforms",
                    arguments: ["$DIR/photo.jpg", "$DIR/new.png", "--max-pixels", "200000", "--transform", "resize:1000x1000:fit:upscale"],
                    status: failure, message: "would exceed the limit of 200000 pixels"),
        CommandLineFailure(rule: "a frame past the end of an animation fails",
                    arguments: ["$DIR/animation.gif", "$DIR/new.png", "--frame", "9"], status: failure,
                    message: "animation.gif: has 6 frames, no frame 9; pass --frame 1 to 6"),
    ]

    @Test(arguments: failureCases)
    func badConversionFailsWithOneLineAndChangesNoFile(_ testCase: CommandLineFailure) async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Self.snapshot(folder)
        let arguments = testCase.arguments.map { $0.replacingOccurrences(of: "$DIR", with: folder.path) }
        let run = try await CommandLineToolTests.run(["convert"] + arguments)
        #expect(run.status == testCase.status, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("webimage: ") && run.stderr.contains(testCase.message), "\(run.stderr)")
        #expect(!run.stderr.contains("Error Domain"))
        #expect(run.stdout.isEmpty)
        #expect(try Self.snapshot(folder) == before)
    }

    @Test func forceReplacesAnExistingOutput() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("existing.jpg")
        let run = try await CommandLineToolTests.run(
            ["convert", folder.appendingPathComponent("photo.jpg").path, output.path, "--thumbnail", "100", "--force"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ImageCodersManager.shared.decode(Data(contentsOf: output)).pixelSize == PixelSize(width: 100, height: 67))
    }

    @Test func outDirConvertsEveryInputNamedByTheTemplateAndKeepsExistingFiles() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let kept = Data("do not replace".utf8)
        try kept.write(to: out.appendingPathComponent("alpha-small.webp"))
        let inputs = ["photo.jpg", "alpha.png", "animation.gif"].map { folder.appendingPathComponent($0).path }
        let run = try await CommandLineToolTests.run(
            ["convert"] + inputs + ["--out-dir", out.path, "--format", "webp", "--name", "{name}-small", "--thumbnail", "64"])
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("alpha-small.webp: already exists"))
        #expect(try Data(contentsOf: out.appendingPathComponent("alpha-small.webp")) == kept)
        let animation = try ImageCodersManager.shared.decode(Data(contentsOf: out.appendingPathComponent("animation-small.webp")))
        #expect(animation.frames.count == 6)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("photo-small.webp").path))
        #expect(run.stdout.contains("converted 2 files") && run.stdout.contains("1 failed"), "\(run.stdout)")
    }

    @Test func exifOrientationIsAppliedUnlessNoAutoOrient() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sideways = folder.appendingPathComponent("sideways.jpg")
        let stored = Image(pixels: .samplePattern(width: 40, height: 20), orientation: .right)
        try ImageCodersManager.shared.encode(stored, as: .jpeg, options: ImageEncodingOptions()).write(to: sideways)
        let upright = folder.appendingPathComponent("upright.png")
        let asStored = folder.appendingPathComponent("stored.jpg")
        let first = try await CommandLineToolTests.run(["convert", sideways.path, upright.path])
        let second = try await CommandLineToolTests.run(["convert", sideways.path, asStored.path, "--no-auto-orient"])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(try ImageCodersManager.shared.decode(Data(contentsOf: upright)).pixelSize == PixelSize(width: 20, height: 40))
        let kept = try ImageCodersManager.shared.decode(Data(contentsOf: asStored))
        #expect(kept.pixelSize == PixelSize(width: 40, height: 20) && kept.orientation == .right)
    }

    @Test func transparencyIsFlattenedOntoTheBackgroundInJPEG() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clear = folder.appendingPathComponent("clear.png")
        let transparentRed = RGBA(red: 255, green: 0, blue: 0, alpha: 0)
        try ImageCodersManager.shared.encode(Image(pixels: PixelBuffer(width: 16, height: 16, fill: transparentRed)), as: .png,
                                             options: ImageEncodingOptions()).write(to: clear)
        let white = folder.appendingPathComponent("white.jpg"), black = folder.appendingPathComponent("black.jpg")
        _ = try await CommandLineToolTests.run(["convert", clear.path, white.path])
        _ = try await CommandLineToolTests.run(["convert", clear.path, black.path, "--background", "000000"])
        let whitePixel = try ImageCodersManager.shared.decode(Data(contentsOf: white)).pixels[8, 8]
        let blackPixel = try ImageCodersManager.shared.decode(Data(contentsOf: black)).pixels[8, 8]
        #expect(whitePixel.red > 250 && whitePixel.green > 250 && whitePixel.blue > 250)
        #expect(blackPixel.red < 5 && blackPixel.green < 5 && blackPixel.blue < 5)
    }

    @Test func anAnimationWrittenToAStillFormatSaysSoAndTakesFrame() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = folder.appendingPathComponent("animation.gif").path
        let first = folder.appendingPathComponent("first.png"), third = folder.appendingPathComponent("third.png")
        let noted = try await CommandLineToolTests.run(["convert", gif, first.path])
        #expect(noted.status == 0)
        #expect(noted.stderr.contains("animation.gif: is animated (6 frames) and PNG holds one, so frame 1 was written"))
        let chosen = try await CommandLineToolTests.run(["convert", gif, third.path, "--frame", "3"])
        #expect(chosen.status == 0 && chosen.stderr.isEmpty, "\(chosen.stderr)")
        let frames = try ImageCodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: gif))).frames
        #expect(try ImageCodersManager.shared.decode(Data(contentsOf: third)).pixels == frames[2].pixels)
    }

    @Test func dashReadsStandardInputAndWritesStandardOutput() async throws {
        let small = try ImageCodersManager.shared.encode(
            Image(pixels: .samplePattern(width: 64, height: 48)), as: .png, options: ImageEncodingOptions())
        let run = try await CommandLineToolTests.run(["convert", "-", "-", "--format", "jpg", "--thumbnail", "32"], stdin: small)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try ImageCodersManager.shared.decode(run.stdoutData)
        #expect(image.format == .jpeg && image.pixelSize == PixelSize(width: 32, height: 24))
    }

    @Test func versionAndHelpWithExamples() async throws {
        let version = try await CommandLineToolTests.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("webimage "))
        for command in ["convert", "info", "fetch", "prefetch"] {
            let help = try await CommandLineToolTests.run([command, "--help"])
            #expect(help.status == 0 && help.stdout.contains("Examples:"), "\(command)")
        }
    }

    /// A folder holding the files the cases name.
    static func makeFolder() throws -> URL {
        let folder = try CommandLineToolTests.temporaryFolder()
        let samples = try ImageFiles.writeSamples(
            to: folder, photoSize: CommandLineToolTests.sampleSize, names: ["photo.jpg", "alpha.png", "animation.gif"])
        try Data(contentsOf: samples[0]).write(to: folder.appendingPathComponent("existing.jpg"))
        try Data("not an image\n".utf8).write(to: folder.appendingPathComponent("text.jpg"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
        try Data(contentsOf: samples[0]).write(to: folder.appendingPathComponent("folder/photo.jpg"))
        return folder
    }

    /// Every file under `folder` with its bytes.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        for path in paths {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            files[path] = isDirectory.boolValue ? Data() : try Data(contentsOf: url)
        }
        return files
    }
}
