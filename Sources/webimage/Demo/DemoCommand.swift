import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

/// `webimage demo` (what `make demo` runs): an offline tour of the library against an embedded origin.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve generated images locally and load them cold (network), again (memory) and fresh (disk).",
        discussion: """
            Starts an origin server on 127.0.0.1 with a large progressive JPEG, a PNG with alpha, an animated GIF and \
            WebP, an AVIF, a very large JPEG (scaled down while decoding), a slow URL and one that answers 404. Loads \
            them three times through ImageManager, then writes thumbnails and a contact sheet. Everything it writes \
            is inside --output; nothing else is touched.
            """
    )

    @Option(help: "The folder to write into (its cache, thumbnails and contact sheet are replaced).")
    var output = "demo-output"

    @Option(help: .hidden)
    var scale = 1.0

    func run() async throws {
        let out = URL(fileURLWithPath: output, isDirectory: true)
        let cacheRoot = out.appendingPathComponent("cache", isDirectory: true)
        let thumbnails = out.appendingPathComponent("thumbnails", isDirectory: true)
        let sheet = out.appendingPathComponent("contact-sheet.png")
        for own in [cacheRoot, thumbnails, sheet] { try? FileManager.default.removeItem(at: own) }
        try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: true)
        let clock = ContinuousClock()
        let start = clock.now

        print("Generating the images (every kind WebImageKit decodes)…")
        let files = try DemoImages.generate(scale: scale)
        for file in files { print("  \(file.path)  \(ByteCountText.format(file.data.count))  \(file.note)") }
        print("  /slow.jpg  the progressive JPEG again, sent over about two seconds")
        print("  /missing.png  answers 404")

        let origin = DemoOrigin(files: files, slowFile: files[0])
        let images = try await origin.run { base in
            let urls = files.map { base.appendingPathComponent(String($0.path.dropFirst())) }
                + [base.appendingPathComponent("slow.jpg"), base.appendingPathComponent("missing.png")]
            return try await withImageDownloader { downloader in
                let loaders = ImageLoaderRegistry(loaders: [FileImageLoader(), DataURLImageLoader(), downloader])
                let job = FetchJob(urls: urls, options: [.scaleDownLargeImages])
                let first = ImageManager(cache: ImageCache(namespace: "demo", root: cacheRoot), loader: loaders)
                print("\n1. Cold: every image comes from the network (the 404 fails and goes on the failed-URL list)")
                _ = try await FetchOutput(json: false).run(job, manager: first)
                print("\n2. Again, same manager: memory hits (the failed URL fails at once, without a request)")
                _ = try await FetchOutput(json: false).run(job, manager: first)
                print("\n3. A fresh manager on the same folder, as a new process would be: disk hits")
                let fresh = ImageManager(cache: ImageCache(namespace: "demo", root: cacheRoot), loader: loaders)
                _ = try await FetchOutput(json: false).run(job, manager: fresh)

                print("\n4. Thumbnails (240×240, derived from the original bytes on disk: no download)")
                var context = ImageLoadContext()
                context.thumbnailPixelSize = PixelSize(width: 240, height: 240)
                return await fresh.loadImages(urls, options: [.scaleDownLargeImages], context: context)
            }
        }
        var tiles: [Image?] = []
        for (index, result) in images.enumerated() {
            guard case .success(let loaded) = result else {
                tiles.append(nil)
                continue
            }
            tiles.append(loaded.image)
            let name = "\(index + 1)-\(loaded.url.deletingPathExtension().lastPathComponent).png"
            let file = thumbnails.appendingPathComponent(name)
            try ImageCodersManager.shared.encode(loaded.image.firstFrame, as: .png, options: ImageEncodingOptions())
                .write(to: file, options: .atomic)
            print("  \(output)/thumbnails/\(name)  \(loaded.image.pixelSize.width)×\(loaded.image.pixelSize.height)")
        }
        let contactSheet = try ContactSheet.make(tiles)
        try ImageCodersManager.shared.encode(contactSheet, as: .png, options: ImageEncodingOptions()).write(to: sheet, options: .atomic)
        let elapsed = clock.now - start
        print("\nContact sheet: \(output)/contact-sheet.png (\(contactSheet.pixelSize.width)×\(contactSheet.pixelSize.height)); "
              + "cache: \(output)/cache. Done in \(elapsed.components.seconds) s.")
    }
}
