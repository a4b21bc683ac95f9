import Foundation
import Sockets

/// Where passkeys work (issue 20): `WEBAUTHN_RP_ID`, the domain a passkey is bound to, and
/// `WEBAUTHN_ORIGINS`, the pages that may use it. Unset, both follow the issuer. WebAuthn
/// refuses IP addresses as RP IDs, so a loopback-IP issuer (`make run`'s
/// `http://127.0.0.1:8080`) gets `localhost` and `http://localhost:PORT` instead: the pages
/// work with passkeys only when opened by that name.
public struct WebAuthnSettings: Sendable, Equatable {
    /// `WEBAUTHN_RP_ID`, lowercased; nil follows the issuer's host.
    public var relyingPartyID: String?
    /// `WEBAUTHN_ORIGINS`; empty follows the issuer's origin.
    public var origins: [String] = []

    public init() {}

    public init(reader: ConfigReader) throws(ConfigurationError) {
        relyingPartyID = try reader.value(.webAuthnRPID) { text throws(OAuthSettings.Refusal) in
            guard !Self.isIPAddress(text) else { throw OAuthSettings.Refusal("WebAuthn refuses IP addresses as RP IDs") }
            return try Self.domain(text)
        }
        origins = try reader.value(.webAuthnOrigins) { text throws(OAuthSettings.Refusal) in try Self.origins(text) } ?? []
        if let id = relyingPartyID, let stranger = origins.first(where: { !Self.isRegistrableSuffix(id, of: Self.host(of: $0)) }) {
            throw ConfigurationError(
                "WEBAUTHN_RP_ID '\(id)' must be the host of every origin in WEBAUTHN_ORIGINS or a suffix of it, and '\(stranger)' is neither.")
        }
    }

    /// The relying party a server with `issuer` answers as.
    public func relyingParty(for issuer: Issuer) -> PasskeyRelyingParty {
        let issuerHost = Self.isIPAddress(issuer.host) ? "localhost" : issuer.host
        return PasskeyRelyingParty(
            id: relyingPartyID ?? issuerHost, origins: origins.isEmpty ? [Self.origin(of: issuer, host: issuerHost)] : origins)
    }

    /// Throws when a configured RP ID is no suffix of the host of the issuer's origin, which
    /// the origins default to: no browser would let those pages use such passkeys.
    public func check(against issuer: Issuer) throws(ConfigurationError) {
        let party = relyingParty(for: issuer)
        guard relyingPartyID != nil, origins.isEmpty, let origin = party.origins.first,
              !Self.isRegistrableSuffix(party.id, of: Self.host(of: origin))
        else { return }
        throw ConfigurationError(
            "WEBAUTHN_RP_ID '\(party.id)' must be the host of the issuer's origin \(origin) or a suffix of it (or set WEBAUTHN_ORIGINS).")
    }

    /// `issuer`'s scheme and port with `host` (its own, or `localhost` for an IP address).
    static func origin(of issuer: Issuer, host: String) -> String {
        let scheme = issuer.isHTTPS ? "https://" : "http://"
        let authority = issuer.url.dropFirst(scheme.count).prefix { $0 != "/" }
        let port = authority.hasPrefix("[") ? authority.drop { $0 != "]" }.dropFirst() : authority.drop { $0 != ":" }
        return scheme + host + port
    }

    /// True for an IPv4 or IPv6 address, bracketed or not, and for the numeric hosts a URL
    /// parser reads as IPv4 (`127.1`).
    static func isIPAddress(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if IPAddress(bare) != nil || bare.contains(":") { return true }
        return !bare.isEmpty && bare.allSatisfy { $0.isNumber || $0 == "." }
    }

    /// `id` is `host` or a dot-separated suffix of it.
    static func isRegistrableSuffix(_ id: String, of host: String) -> Bool {
        host == id || host.hasSuffix("." + id)
    }

    /// A lowercase DNS name: labels of letters, digits and hyphens (punycode for Unicode).
    static func domain(_ text: String) throws(OAuthSettings.Refusal) -> String {
        let name = text.lowercased()
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 253, labels.allSatisfy({ label in
            (1...63).contains(label.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        }) else { throw OAuthSettings.Refusal("a domain name of letters, digits, hyphens and dots (punycode for Unicode)") }
        return name
    }

    /// Origins separated by commas: `https://host[:port]`, or `http://` on `localhost`.
    static func origins(_ text: String) throws(OAuthSettings.Refusal) -> [String] {
        var origins: [String] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let https = entry.hasPrefix("https://")
            guard https || entry.hasPrefix("http://") else { throw OAuthSettings.Refusal("'\(entry)' is no http(s) origin") }
            let authority = entry.dropFirst(https ? 8 : 7)
            let host = Self.host(of: entry)
            guard !authority.contains("/"), !authority.contains("@"), !authority.contains("?"), !authority.contains("#"),
                  !isIPAddress(host), (try? domain(host)) != nil, authority.dropFirst(host.count).allSatisfy({ $0 == ":" || $0.isNumber })
            else { throw OAuthSettings.Refusal("'\(entry)' must be scheme://host[:port], a domain name without path") }
            guard https || host == "localhost" || host.hasSuffix(".localhost") else {
                throw OAuthSettings.Refusal("'\(entry)' must use https (browsers allow http only on localhost)")
            }
            origins.append(entry.lowercased())
        }
        guard !origins.isEmpty else { throw OAuthSettings.Refusal("at least one origin") }
        return origins
    }

    /// The host of an origin `scheme://host[:port]`.
    static func host(of origin: String) -> String {
        let authority = origin.drop { $0 != "/" }.dropFirst(2)
        return String(authority.prefix { $0 != ":" && $0 != "/" }).lowercased()
    }
}

/// The relying party a running server answers as: the RP ID and the origins allowed in
/// clientDataJSON.
public struct PasskeyRelyingParty: Sendable, Equatable {
    public let id: String
    public let origins: [String]
}

extension AppConfiguration {
    /// Throws when the passkey settings do not fit the issuer of a server on `host:port`
    /// (`ISSUER`, else the address served): checked at start, before anything is served.
    public func checkWebAuthn(servingOn host: String, port: Int, tls: Bool) throws(ConfigurationError) {
        let served = Issuer.served(host: Issuer.isLoopback(host) ? host : "localhost", port: port, tls: tls)
        guard let issuer = issuer ?? served else { return }
        try webAuthn.check(against: issuer)
    }
}
