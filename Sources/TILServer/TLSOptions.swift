import App
import ArgumentParser
import Web

/// `serve --tls-certificate PEM --tls-key PEM` (or `TLS_CERTIFICATE` and `TLS_KEY`): HTTPS
/// instead of HTTP. Both or neither; an option wins over its variable, and an empty value
/// counts as unset.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-certificate"),
        help: ArgumentHelp(
            "With --tls-key: serve HTTPS (TLS 1.2/1.3) with this PEM certificate chain instead of HTTP (default: $TLS_CERTIFICATE). Usually TLS ends at a proxy in front: leave unset then.",
            valueName: "pem-file"))
    var certificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("PEM private key of --tls-certificate (default: $TLS_KEY).", valueName: "pem-file"))
    var key: String?

    /// The TLS configuration to serve with, nil for plain HTTP; throws when only one half is
    /// given, or when the files cannot be used (unreadable, not PEM, key and certificate apart).
    func configuration(environment variables: [String: String]) throws(ConfigurationError) -> TLSConfiguration? {
        let certificate = nonEmpty(certificate) ?? nonEmpty(variables["TLS_CERTIFICATE"])
        let key = nonEmpty(key) ?? nonEmpty(variables["TLS_KEY"])
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case (let certificate?, let key?):
            let tls = TLSConfiguration(certificateFile: certificate, privateKeyFile: key)
            do {
                try tls.validate()
            } catch {
                throw ConfigurationError("\(error)")
            }
            return tls
        default:
            throw ConfigurationError(
                "--tls-certificate (TLS_CERTIFICATE) and --tls-key (TLS_KEY) go together: give both to serve HTTPS, or neither for HTTP.")
        }
    }

    private func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }
}
