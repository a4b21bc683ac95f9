public import HTTP1

/// How `serve` listens: `PORT`, `MAX_CONNECTIONS`, and `TLS_CERTIFICATE` with `TLS_KEY` (each
/// overridden by its option). Read only by `serve`: the other commands bind nothing.
public struct ServerSettings: Sendable {
    public var port = 8080
    public var maxConnections = HTTPServerLimits().maxConnections
    /// Nil: plain HTTP.
    public var tls: TLSConfiguration?

    public init() {}

    /// Both TLS files or neither; they must be readable PEM, the key the certificate's.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        port = try reader.number(.port) ?? port
        maxConnections = try reader.number(.maxConnections) ?? maxConnections
        switch (reader.string(.tlsCertificate), reader.string(.tlsKey)) {
        case (nil, nil):
            tls = nil
        case (let certificate?, let key?):
            let tls = TLSConfiguration(certificateFile: certificate, privateKeyFile: key)
            do {
                try tls.validate()
            } catch {
                throw ConfigurationError("\(error)")
            }
            self.tls = tls
        default:
            throw ConfigurationError(
                "--tls-certificate (TLS_CERTIFICATE) and --tls-key (TLS_KEY) go together: give both to serve HTTPS, or neither for HTTP.")
        }
    }
}
