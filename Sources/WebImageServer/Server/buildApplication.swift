public import Hummingbird
public import Logging

/// Builds the image server as a Hummingbird application; run it with `try await app.runService()`, or test it
/// with HummingbirdTesting.
///
/// With no signature key configured, logs a warning: every signature segment is then accepted.
public func buildApplication(configuration: ImageServerConfiguration, logger: Logger = Logger(label: "WebImageServer")) -> some ApplicationProtocol {
    if !configuration.signature.isEnabled {
        logger.warning("no signature key configured: URL signatures are not checked")
    }
    return Application(
        responder: ImageRequestResponder(configuration: configuration, logger: logger),
        configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "webimage"),
        logger: logger
    )
}
