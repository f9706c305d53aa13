#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix

/// One address a host name resolved to: the socket address to connect to and the address to check.
struct ResolvedAddress: Sendable {
    let socketAddress: SocketAddress
    let address: IPAddress
}

/// Resolves host names with `getaddrinfo` on NIO's blocking-work thread pool, never on a cooperative thread.
enum HostResolver {
    /// The addresses `host` resolves to for TCP on `port`, IPv4 and IPv6, in the resolver's order.
    static func resolve(_ host: String, port: Int) async throws -> [ResolvedAddress] {
        try await NIOThreadPool.singleton.runIfActive {
            try resolveBlocking(host, port: port)
        }
    }

    private static func resolveBlocking(_ host: String, port: Int) throws -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HostResolutionError(message: "the source host could not be resolved")
        }
        defer { freeaddrinfo(first) }
        var results: [ResolvedAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ai_next }
            guard let pointer = entry.pointee.ai_addr else { continue }
            let socketAddress: SocketAddress
            switch entry.pointee.ai_family {
            case AF_INET:
                socketAddress = SocketAddress(pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }, host: host)
            case AF_INET6:
                socketAddress = SocketAddress(pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }, host: host)
            default:
                continue
            }
            guard let text = socketAddress.ipAddress, let address = IPAddress(text) else { continue }
            results.append(ResolvedAddress(socketAddress: socketAddress, address: address))
        }
        return results
    }
}

/// A host name that did not resolve.
struct HostResolutionError: Error, Sendable, CustomStringConvertible {
    let message: String
    var description: String { message }
}
