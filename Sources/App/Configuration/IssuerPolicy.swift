import Web

/// Where `ISSUER` is required and what it may be (issue 18). Production needs the public base
/// URL unless the server binds loopback only, and refuses plain http unless the issuer's host
/// is loopback: codes and tokens must not be sent to an address anyone can intercept.
extension AppConfiguration {
    /// `ISSUER` (or `--issuer`), checked; nil when unset.
    static func issuer(environment: Environment, from reader: ConfigReader) throws(ConfigurationError) -> Issuer? {
        let issuer = try reader.value(.issuer) { text throws(Issuer.Refusal) in try Issuer(parsing: text) }
        guard let issuer, environment == .production, !issuer.isHTTPS, !issuer.isLoopback else { return issuer }
        throw ConfigurationError(
            "\(reader.source(of: .issuer)) must be an https URL in production, not '\(issuer)': only a loopback issuer may use http.")
    }

    /// Throws when production serves on a non-loopback `host` without `ISSUER`: only the operator
    /// knows the name clients reach the server by, and it is never derived from `0.0.0.0`.
    public func checkIssuer(servingOn host: String) throws(ConfigurationError) {
        guard issuer == nil, environment == .production, !Self.isLoopback(host) else { return }
        throw ConfigurationError(
            "ISSUER must be set in production when serving on \(host): the public base URL clients reach TIL by "
                + "(\(EnvironmentVariable.issuer.declaration.accepts)), e.g. https://til.example.")
    }
}
