import Dispatch
import Foundation
import NIOCore
import Testing
import WebImageKit

/// Downloads must not depend on Swift's cooperative thread pool (issue 19): a process whose cooperative
/// threads are all busy (a server decoding, an app doing CPU work in tasks) still reads response bodies
/// before their idle timeouts fire, and decodes them on WebImageKit's own threads.
@Suite struct BusyCooperativePoolTests {
    @Test func downloadsFinishWithoutTimeoutsWhileEveryCooperativeThreadIsBlocked() async throws {
        // About 1 MB of noise as PNG, sent 32 KiB every 40 ms: about 1.3 s per transfer, and a reader that
        // stops reading times out after 400 ms of silence.
        var pixels = PixelBuffer(width: 512, height: 512)
        var generator = SystemRandomNumberGenerator()
        for y in 0..<512 {
            for x in 0..<512 {
                let value = UInt32.random(in: 0...UInt32.max, using: &generator)
                pixels[x, y] = RGBA(red: UInt8(value & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value >> 16 & 0xFF))
            }
        }
        let png = try ImageCodersManager.shared.encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
        let origin = try DripOrigin(body: png, chunkSize: 32 * 1024, gap: .milliseconds(40))
        var configuration = ImageDownloader.Configuration()
        configuration.timeout = .milliseconds(400)
        let downloader = ImageDownloader(configuration: configuration)

        let downloads = 4
        let results = LockedValue<[Result<DownloadResult, ImageDownloadError>]>([])
        let allDone = DispatchSemaphore(value: 0)
        for index in 0..<downloads {
            downloader.download(origin.url("noise-\(index).png")) { result in
                let count = results.withLock { results in
                    results.append(result)
                    return results.count
                }
                if count == downloads { allDone.signal() }
            }
        }
        // Block every cooperative thread (this one and one task per other core) until the downloads end,
        // or for 30 s at most.
        let release = DispatchSemaphore(value: 0)
        let blockers = ProcessInfo.processInfo.activeProcessorCount - 1
        for _ in 0..<blockers {
            Task.detached { _ = release.wait(timeout: .now() + 30) }
        }
        let finishedWhileBlocked = allDone.wait(timeout: .now() + 30) == .success
        for _ in 0..<blockers { release.signal() }

        #expect(finishedWhileBlocked, "the downloads needed a cooperative thread to finish")
        let delivered = results.withLock { $0 }
        #expect(delivered.count == downloads)
        for result in delivered {
            switch result {
            case .success(let download): #expect(download.image.pixelSize == PixelSize(width: 512, height: 512))
            case .failure(let error): Issue.record("a download failed: \(error)")
            }
        }
        try await downloader.shutdown()
        try await origin.shutdown()
    }
}
