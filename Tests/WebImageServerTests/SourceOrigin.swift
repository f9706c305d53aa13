import Foundation
import Hummingbird
import HummingbirdTesting
import WebImageKit
import WebImageServer
import WebImageTestSupport

/// A Hummingbird origin on 127.0.0.1, port 0, that serves the sources of the server tests.
///
/// Routes: `/photo.jpg` (400×300 JPEG, left half red, right half blue), `/alpha.png` (64×32 PNG with
/// alpha), `/status/:code` (that status, a text body), `/broken.jpg` (text sent as `image/jpeg`), `/animation.gif` (three frames), `/validated.jpg` (the photo with `ETag` and
/// `Last-Modified`; 304 to its ETag), `/slow/:milliseconds/photo.jpg` (the photo after a delay) and `/redirect?to=URL` (a 302 to
/// `URL`). ``requests`` counts what arrived, by path.
struct SourceOrigin: Sendable {
    let photo: Data
    let alphaPNG: Data
    /// A 40×30 GIF of three frames (red, green, blue), 100 ms each.
    let animation: Data
    let requests = RequestCounter()
    /// Where requests for `/held/photo.jpg` wait until the test opens it.
    let gate = Gate()

    init() throws {
        photo = try ImageCodersManager.shared.encode(Image(pixels: Self.halves(width: 400, height: 300)), as: .jpeg, options: .init())
        alphaPNG = try ImageCodersManager.shared.encode(
            Image(pixels: PixelBuffer(width: 64, height: 32, fill: RGBA(red: 0, green: 200, blue: 0, alpha: 128))), as: .png, options: .init())
        let colours = [RGBA(red: 255, green: 0, blue: 0), RGBA(red: 0, green: 255, blue: 0), RGBA(red: 0, green: 0, blue: 255)]
        let frames = colours.map { ImageFrame(pixels: PixelBuffer(width: 40, height: 30, fill: $0), duration: .milliseconds(100)) }
        animation = try ImageCodersManager.shared.encode(Image(frames: frames, format: .gif), as: .gif, options: .init())
    }

    /// Runs `body` with the origin listening; `body` gets the origin's base URL, such as `http://127.0.0.1:41234`.
    func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        let counter = requests
        let photo = self.photo, alphaPNG = self.alphaPNG, animation = self.animation
        router.middlewares.add(CountingMiddleware(counter: counter))
        router.get("photo.jpg") { _, _ in Self.image(photo, type: "image/jpeg") }
        router.get("alpha.png") { _, _ in Self.image(alphaPNG, type: "image/png") }
        router.get("animation.gif") { _, _ in Self.image(animation, type: "image/gif") }
        router.get("validated.jpg") { request, _ in
            if request.headers[.ifNoneMatch] == "\"v1\"" {
                await counter.record("/validated.jpg (304)")
                return Response(status: .notModified, headers: [.eTag: "\"v1\""])
            }
            var response = Self.image(photo, type: "image/jpeg")
            response.headers[.eTag] = "\"v1\""
            response.headers[.lastModified] = "Tue, 24 Nov 2026 10:00:00 GMT"
            return response
        }
        router.get("cached.jpg") { _, _ in
            var response = Self.image(photo, type: "image/jpeg")
            response.headers[.cacheControl] = "public, max-age=123"
            response.headers[.expires] = "Wed, 25 Nov 2026 10:00:00 GMT"
            return response
        }
        router.get("slow/:milliseconds/photo.jpg") { _, context in
            try await Task.sleep(for: .milliseconds(context.parameters.get("milliseconds", as: Int.self) ?? 0))
            return Self.image(photo, type: "image/jpeg")
        }
        let gate = gate
        router.get("held/photo.jpg") { _, _ in
            await gate.pass()
            return Self.image(photo, type: "image/jpeg")
        }
        router.get("redirect") { request, _ in
            Response(status: .found, headers: [.location: request.uri.queryParameters.get("to") ?? "/"])
        }
        router.get("truncated.jpg") { _, _ in Self.image(photo.prefix(photo.count * 3 / 5), type: "image/jpeg") }
        router.get("broken.jpg") { _, _ in Self.image(Data("not a JPEG at all".utf8), type: "image/jpeg") }
        router.get("status/:code") { _, context in
            let code = context.parameters.get("code", as: Int.self) ?? 500
            return Response(status: .init(code: code), headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "status \(code)")))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port else { throw OriginError.noPort }
            try await body("http://127.0.0.1:\(port)")
        }
    }

    enum OriginError: Error { case noPort }

    private static func image(_ data: Data, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A picture whose left half is red and right half blue, so that crops can be told apart.
    static func halves(width: Int, height: Int) -> PixelBuffer {
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 4)
        for _ in 0..<height {
            for x in 0..<width { bytes += x < width / 2 ? [220, 0, 0, 255] : [0, 0, 220, 255] }
        }
        return PixelBuffer(width: width, height: height, hasAlpha: false, bytes: bytes)
    }
}

/// Counts the requests that reached the origin, by path.
actor RequestCounter {
    private var counts: [String: Int] = [:]

    func record(_ path: String) { counts[path, default: 0] += 1 }

    func count(_ path: String) -> Int { counts[path] ?? 0 }
}

/// Records each request's path in a ``RequestCounter``.
struct CountingMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let counter: RequestCounter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        await counter.record(request.uri.path)
        return try await next(request, context)
    }
}

/// A loader that fails at once as an unreachable origin would: for tests that stop at the checks before
/// the fetch and must not reach the network.
struct UnreachableLoader: ImageLoading {
    func canLoad(_ url: URL) -> Bool { true }

    func loadData(
        for url: URL, options: DownloadOptions, validators: Validators?, progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        throw ImageDownloadError(.network, "unreachable (test loader)")
    }
}

/// Holds requests until it is opened; open for good afterwards.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func pass() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
