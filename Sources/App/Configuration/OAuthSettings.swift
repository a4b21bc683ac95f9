import Foundation

/// The authorization server's knobs (issue 18): who may register clients
/// (`OAUTH_REGISTRATION`), how long a code lives (`AUTH_CODE_TTL`), and the other resources
/// TIL issues tokens for with their scopes' words (`RESOURCES`, `RESOURCE_SCOPE_DESCRIPTIONS`).
public struct OAuthSettings: Sendable {
    public var registration = ClientRegistration.admin
    public var authorizationCodeTTL: Duration = .seconds(60)
    /// How long a device code waits for approval (RFC 8628 `expires_in`, `DEVICE_CODE_TTL`).
    public var deviceCodeTTL: Duration = .seconds(600)
    public var scopes = OAuthScopeCatalog()

    public init() {}

    public init(reader: ConfigReader) throws(ConfigurationError) {
        registration = try reader.choice(.oauthRegistration, as: ClientRegistration.self) ?? registration
        authorizationCodeTTL = try reader.seconds(.authCodeTTL) ?? authorizationCodeTTL
        deviceCodeTTL = try reader.seconds(.deviceCodeTTL) ?? deviceCodeTTL
        let resources = try reader.value(.resources) { text throws(Refusal) in try [ProtectedResource].parsing(text) } ?? []
        let descriptions = try reader.value(.resourceScopeDescriptions) { text throws(Refusal) in
            try Self.descriptions(text, resources: resources)
        } ?? [:]
        scopes = OAuthScopeCatalog(resources: resources, descriptions: descriptions)
    }

    /// `scope=words;scope=words`, each scope one that `resources` define, each text at most
    /// 200 characters without control characters (it is shown on the consent page, escaped).
    static func descriptions(_ text: String, resources: [ProtectedResource]) throws(Refusal) -> [String: String] {
        let defined = Set(resources.flatMap(\.scopes))
        var words: [String: String] = [:]
        for entry in text.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            guard let equals = entry.firstIndex(of: "=") else { throw .init("'\(entry)' has no '=' between the scope and its words") }
            let scope = String(entry[..<equals]).trimmingCharacters(in: .whitespaces)
            let description = String(entry[entry.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            guard defined.contains(scope) else { throw .init("'\(scope)' is no scope of RESOURCES") }
            guard words[scope] == nil else { throw .init("'\(scope)' is described twice") }
            guard !description.isEmpty, description.count <= 200,
                description.unicodeScalars.allSatisfy({ !$0.properties.generalCategory.isControlOrFormat })
            else { throw .init("the words for '\(scope)' must be 1 to 200 characters without control characters") }
            words[scope] = description
        }
        return words
    }

    /// Why a setting's text was refused, in words after "must be …: ".
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Who may register OAuth clients at `POST /oauth/register`.
public enum ClientRegistration: String, Sendable, CaseIterable {
    /// Only a bearer token with `clients:write` (an administrator's).
    case admin
    /// Anyone may register a public client (MCP clients expect it); throttled per address.
    case open
}

extension Unicode.GeneralCategory {
    /// Cc, Cf, and line or paragraph separators: characters that hide or break a line of text.
    var isControlOrFormat: Bool {
        switch self {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
