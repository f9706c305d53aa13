import Foundation
import WebImageKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the errors the library and Foundation throw into words for the tool's one-line messages: never
/// a Foundation error dump such as `Error Domain=NSCocoaErrorDomain Code=260 …`.
package enum Describing {
    /// What went wrong and, when there is something to do, what to do.
    package static func words(for error: any Error) -> (problem: String, remedy: String?) {
        switch error {
        case let error as ToolError: return (error.problem, error.remedy)
        case let error as ImageCodingError: return words(for: error)
        case let error as ImageProcessingError: return words(for: error)
        case let error as ImageLoadError:
            if let underlying = error.underlying { return words(for: underlying) }
            if error.code == .notCached { return ("not in the cache", "load it once without fromCacheOnly") }
            return (error.message, nil)
        case let error as ImageDownloadError: return words(for: error)
        case let error as CocoaError: return words(for: error)
        case let error as POSIXError: return (systemMessage(error.code.rawValue), nil)
        case let error as TransformList.ParseError:
            return ("bad transform \(error.description)", "see webimage convert --help for the list")
        default:
            let nsError = error as NSError
            if nsError.domain == NSPOSIXErrorDomain { return (systemMessage(Int32(nsError.code)), nil) }
            if nsError.domain == NSCocoaErrorDomain { return words(for: CocoaError(CocoaError.Code(rawValue: nsError.code))) }
            return ("\(error)", nil)
        }
    }

    private static func words(for error: ImageCodingError) -> (problem: String, remedy: String?) {
        let format = error.format == .unknown ? "image" : "\(error.format.displayName) image"
        switch error.code {
        case .unsupportedFormat: return (error.message, nil)
        case .corruptData: return ("not a valid \(format) (\(error.message))", nil)
        case .truncatedData: return ("the \(format) ends before it is complete", "the file may be cut short: copy or download it again")
        case .imageTooLarge: return ("the \(format) is too large: \(error.message)", "raise the limit with --max-pixels if you trust it")
        case .animationTooLarge: return ("the animation is too large: \(error.message)", nil)
        case .encodingFailed: return ("could not encode: \(error.message)", nil)
        default: return (error.message, nil)
        }
    }

    private static func words(for error: ImageProcessingError) -> (problem: String, remedy: String?) {
        if error.code == .outputTooLarge {
            return ("\(error.transformerKey) \(error.message)", "ask for a smaller size, or raise --max-pixels")
        }
        return ("cannot apply \(error.transformerKey): \(error.message)", nil)
    }

    private static func words(for error: ImageDownloadError) -> (problem: String, remedy: String?) {
        switch error.code {
        case .badStatus(let status):
            let reason = HTTPStatusText.reason(status).map { " \($0)" } ?? ""
            let remedy: String? = switch status {
            case 404, 410: "check the URL"
            case 401, 403: "the server wants credentials: pass them with -H 'Authorization: …'"
            case 429, 500...: "try again later, or with --retry 3"
            default: nil
            }
            return ("the server answered \(status)\(reason)", remedy)
        case .timeout: return ("no answer within the timeout", "try a longer --timeout, or --retry 3")
        case .network:
            let detail = error.underlying.map { " (\($0))" } ?? ""
            return ("could not connect\(detail)", "check the address and the network")
        case .tlsFailed: return ("the secure connection failed: \(error.message)", "check the server's certificate")
        case .badContentType: return ("the response is not an image", "check the URL")
        case .decodeFailed: return error.underlying.map { words(for: $0) } ?? (error.message, nil)
        case .notFound: return ("no such file", "check the path")
        default: return (error.message, nil)
        }
    }

    private static func words(for error: CocoaError) -> (problem: String, remedy: String?) {
        switch error.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return ("no such file", "check the path")
        case .fileReadNoPermission, .fileWriteNoPermission: return ("permission denied", nil)
        case .fileWriteOutOfSpace: return ("the disk is full", nil)
        case .fileWriteVolumeReadOnly: return ("the disk is read-only", nil)
        case .fileWriteFileExists: return ("already exists", "pass --force to replace it")
        case .fileReadTooLarge: return ("the file is too large to read", nil)
        default:
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                return (systemMessage(Int32(underlying.code)), nil)
            }
            return (error.code.rawValue < 512 ? "could not be read" : "could not be written", nil)
        }
    }

    /// The C library's text for `errno`, starting in lower case: `no such file or directory`.
    package static func systemMessage(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

/// The reason phrases of the HTTP statuses people meet most.
enum HTTPStatusText {
    static func reason(_ status: Int) -> String? {
        [400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout",
         410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
         503: "Service Unavailable", 504: "Gateway Timeout"][status]
    }
}
