package import NIOCore
import NIOHTTP1
package import NIOSSL

extension ChannelPipeline.SynchronousOperations {
    /// The handlers every HTTP/1.1 client connection of the package starts with: TLS when `tls` is given (with
    /// `serverHostname` for SNI and the certificate's name), then NIO's request encoder and response decoder.
    package func addHTTP1ClientHandlers(tls: NIOSSLContext?, serverHostname: String?) throws {
        if let tls {
            try addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
        }
        try addHTTPClientHandlers()
    }
}
