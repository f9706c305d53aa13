import Foundation
package import WebImageKit

/// What converting one file gave.
package struct ConversionOutcome: Sendable {
    /// What was written.
    package struct Written: Sendable {
        /// The size of the image written.
        package var pixelSize: PixelSize
        /// Its frames.
        package var frames: Int
        /// The bytes written.
        package var bytes: Int
        /// Things worth knowing that are not errors.
        package var notes: [String]
    }

    /// The file converted.
    package var job: ConversionJob
    /// What was written, or why nothing was.
    package var result: Result<Written, ToolError>
}

/// Converts files, many at once (one per core), the way `webimage convert` does.
package enum BatchConversion {
    /// Converts one file: reads it, converts it, writes the output (never over an existing file unless the
    /// settings allow it; standard output for `-`).
    package static func convert(_ job: ConversionJob, settings: ConversionSettings) -> ConversionOutcome {
        let result = Result<ConversionOutcome.Written, ToolError> { () throws(ToolError) in
            let outputURL = URL(fileURLWithPath: job.output)
            if job.output != "-" { try OutputFile.checkTarget(outputURL, replacing: settings.replacesExisting) }
            let input = try InputFile.read(job.input)
            let conversion: ImageConversion
            do {
                conversion = try ImageConversion(input, to: job.format, settings: settings)
            } catch {
                throw ToolError(job.input == "-" ? "standard input" : job.input, describing: error)
            }
            if job.output == "-" {
                FileHandle.standardOutput.write(conversion.data)
            } else {
                try OutputFile.write(conversion.data, to: outputURL, replacing: settings.replacesExisting)
            }
            return ConversionOutcome.Written(
                pixelSize: conversion.image.pixelSize, frames: conversion.image.frames.count,
                bytes: conversion.data.count, notes: conversion.notes)
        }
        return ConversionOutcome(job: job, result: result)
    }

    /// Converts every job, as many at once as there are cores; `finished` hears of each as it ends (from
    /// any thread). Jobs not yet started when `isCancelled` turns true are skipped: their outcome is `nil`.
    package static func run(
        _ jobs: [ConversionJob], settings: ConversionSettings,
        isCancelled: @Sendable () -> Bool = { false },
        finished: @Sendable (ConversionOutcome) -> Void = { _ in }
    ) -> [ConversionOutcome?] {
        let outcomes = LockedValue([ConversionOutcome?](repeating: nil, count: jobs.count))
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            guard !isCancelled() else { return }
            let outcome = convert(jobs[index], settings: settings)
            outcomes.withLock { $0[index] = outcome }
            finished(outcome)
        }
        return outcomes.withLock { $0 }
    }
}

/// The totals line of a conversion run.
package struct ConversionSummary: Sendable {
    /// Files written.
    package var converted = 0
    /// Files that failed.
    package var failed = 0
    /// Files never started (the run was interrupted).
    package var notStarted = 0
    /// Bytes written in all.
    package var bytes = 0
    /// Wall-clock seconds.
    package var seconds: Double = 0

    /// Totals the outcomes of ``BatchConversion/run(_:settings:isCancelled:finished:)``.
    package init(_ outcomes: [ConversionOutcome?], seconds: Double) {
        for outcome in outcomes {
            switch outcome?.result {
            case .success(let written):
                converted += 1
                bytes += written.bytes
            case .failure: failed += 1
            case nil: notStarted += 1
            }
        }
        self.seconds = seconds
    }

    /// `converted 8 files (1.2 MB) in 0.84 s; 2 failed`, with the files never started when interrupted.
    package var line: String {
        var text = "converted \(converted) file\(converted == 1 ? "" : "s") (\(ByteCountText.format(bytes))) in "
            + String(format: "%.2f s", seconds)
        if failed > 0 { text += "; \(failed) failed" }
        if notStarted > 0 { text += "; interrupted, \(notStarted) not started" }
        return text
    }
}
