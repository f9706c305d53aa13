import Foundation
import WebImageKit

extension ImageRequestPipeline {
    /// Step "source": the source's bytes and validators through the server's manager: its disk cache (one read of
    /// the entry, revalidated with the origin when older than the source max-age), else the guarded loader.
    func loadSource(_ job: ImageJob) async throws(ServerError) -> (data: Data, validators: Validators) {
        do {
            let source = try await sources.loadData(from: job.source, options: [.retryFailed])
            return (source.data, source.response.validators)
        } catch {
            throw ServerError(error, maximumSourcePixelCount: configuration.maximumSourcePixelCount)
        }
    }
}
