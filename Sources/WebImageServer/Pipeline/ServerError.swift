import WebImageKit

/// Why a request that passed every check got no image: an HTTP status and one line for the client that
/// never repeats the source URL or internal details.
struct ProcessingFailure: Error, Sendable, Equatable {
    /// The HTTP status code.
    let status: Int
    /// The response body's one line.
    let message: String

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A load error as the client should see it: 404 for a source that is not there, 422 for one too large
    /// or not an image the server decodes, 502 for every other failure of the source.
    init(_ error: ImageLoadError, maximumSourcePixelCount: Int) {
        if let refusal = error.downloadError?.underlying as? SourceURLError {
            self.init(403, refusal.message)
            return
        }
        let codingError = error.downloadError?.codingError ?? error.underlying as? ImageCodingError
        if let codingError, codingError.code == .imageTooLarge || codingError.code == .animationTooLarge {
            self.init(422, "the source image has more than \(maximumSourcePixelCount) pixels")
            return
        }
        if let processing = error.underlying as? ImageProcessingError, processing.code == .outputTooLarge {
            self.init(422, "the result would be larger than the server allows")
            return
        }
        switch (error.code, error.downloadError?.code) {
        case (.cancelled, _):
            self.init(503, "the request was cancelled")
        case (.loadFailed, .badStatus(404)?), (.loadFailed, .badStatus(410)?):
            self.init(404, "the source image was not found")
        case (.loadFailed, .tooLarge?):
            self.init(422, "the source image is larger than the server accepts")
        case (.loadFailed, .badContentType?), (.loadFailed, .decodeFailed?), (.decodeFailed, _):
            self.init(422, "the source is not an image the server can decode")
        case (.transformFailed, _):
            self.init(422, "the image could not be processed")
        default:
            self.init(502, "the source image could not be loaded")
        }
    }
}
