import Foundation

/// What `notes-api` is told by its environment: where TIL is, who this API is to TIL (its
/// client id and secret, registered as a confidential client), and what it calls itself (the
/// resource URI TIL's `RESOURCES` lists). It reads nothing of TIL's own configuration.
struct NotesSettings: Sendable {
    /// TIL's issuer (`NOTES_ISSUER`, e.g. `http://127.0.0.1:8080`): discovery starts there.
    var issuer: URL
    /// This API's client at TIL (`NOTES_CLIENT_ID`, `NOTES_CLIENT_SECRET`): introspection is
    /// for confidential clients only.
    var clientID: String
    var clientSecret: String
    /// The RFC 8707 resource this API is (`NOTES_RESOURCE_URI`): a token's introspected `aud`
    /// must name it. Default `http://HOST:PORT`, right for loopback; behind a proxy, set it to
    /// the public URL, exactly as TIL's `RESOURCES` spells it.
    var resourceURI: String
    /// `resourceURI` parsed.
    var resource: URL
    var host: String
    var port: Int
    /// How long an active introspection answer may be reused (`NOTES_CACHE_SECONDS`, 0–60,
    /// default 5): the longest a token revoked at TIL still works here. Never past `exp`.
    var cacheLifetime: Duration

    init(environment: [String: String]) throws(SettingsError) {
        func required(_ name: String) throws(SettingsError) -> String {
            guard let value = environment[name], !value.isEmpty else { throw SettingsError(name, "is required") }
            return value
        }
        let issuerText = try required("NOTES_ISSUER")
        guard let issuer = URL(string: issuerText), ["http", "https"].contains(issuer.scheme), issuer.host != nil,
            issuer.query == nil, issuer.fragment == nil, !issuerText.hasSuffix("/")
        else { throw SettingsError("NOTES_ISSUER", "must be TIL's issuer exactly, an http(s) URL without a trailing slash") }
        self.issuer = issuer
        clientID = try required("NOTES_CLIENT_ID")
        clientSecret = try required("NOTES_CLIENT_SECRET")
        host = environment["NOTES_HOST"] ?? "127.0.0.1"
        port = try Self.integer(environment, "NOTES_PORT", default: 8081, in: 1...65535)
        cacheLifetime = .seconds(try Self.integer(environment, "NOTES_CACHE_SECONDS", default: 5, in: 0...60))
        let bracketed = host.contains(":") ? "[\(host)]" : host
        resourceURI = environment["NOTES_RESOURCE_URI"] ?? "http://\(bracketed):\(port)"
        guard let resource = URL(string: resourceURI), ["http", "https"].contains(resource.scheme), resource.host != nil,
            resource.fragment == nil
        else { throw SettingsError("NOTES_RESOURCE_URI", "must be an absolute http(s) URI without a fragment") }
        self.resource = resource
    }

    private static func integer(
        _ environment: [String: String], _ name: String, default value: Int, in range: ClosedRange<Int>
    ) throws(SettingsError) -> Int {
        guard let text = environment[name] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw SettingsError(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

/// A setting that cannot be used, in words: `NOTES_PORT must be …`.
struct SettingsError: Error, CustomStringConvertible {
    let description: String

    init(_ name: String, _ rule: String) { description = "\(name) \(rule)" }
}
