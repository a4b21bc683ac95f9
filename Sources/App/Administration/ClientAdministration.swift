public import Foundation
import JOSE
import Postgres
import Web

/// What `til-server clients` does: an operator registers, lists, shows and removes OAuth
/// clients straight on the database, by the same rules as `POST /oauth/register`
/// (`ClientDraft`), and may mark a first-party client trusted (no consent page).
public struct ClientAdministration: Sendable {
    let clients: ClientRepository
    let scopes: OAuthScopeCatalog

    /// A client as the operator sees it; `secret` only right after `add`.
    public struct Client: Sendable, Equatable {
        public let id: String
        public let name: String
        public let authMethod: String
        public let redirectURIs: [String]
        public let postLogoutRedirectURIs: [String]
        public let grantTypes: [String]
        public let scope: String
        public let trusted: Bool
        /// `id_token_signed_response_alg`: RS256 or ES256.
        public let idTokenAlgorithm: String
        public let createdAt: Date
        public let secret: String?
    }

    /// The metadata of `clients add`, as the options gave it (nil: the default).
    public struct Metadata: Sendable {
        public var name: String?
        public var redirectURIs: [String] = []
        public var postLogoutRedirectURIs: [String] = []
        public var authMethod: String?
        public var grantTypes: [String] = []
        public var scope: String?
        public var trusted = false
        /// `id_token_signed_response_alg` (RS256 when nil).
        public var idTokenAlgorithm: String?

        public init() {}
    }

    public func add(_ metadata: Metadata) async throws -> Client {
        let draft: ClientDraft
        do {
            draft = try ClientDraft(
                ClientMetadata(
                    redirectURIs: metadata.redirectURIs, clientName: metadata.name, tokenEndpointAuthMethod: metadata.authMethod,
                    grantTypes: metadata.grantTypes.isEmpty ? nil : metadata.grantTypes, responseTypes: nil, scope: metadata.scope,
                    postLogoutRedirectURIs: metadata.postLogoutRedirectURIs, idTokenSignedResponseAlg: metadata.idTokenAlgorithm),
                open: false, trusted: metadata.trusted, scopes: scopes)
        } catch {
            throw UserAdministration.Failure("\(error.code): \(error.description)")
        }
        guard let registered = try await clients.register(draft, by: nil) else { throw UserAdministration.Failure("the client was not stored") }
        return Self.client(registered.client, createdAt: registered.createdAt, secret: registered.secret?.value)
    }

    public func list() async throws -> [Client] {
        try await clients.list().map { Self.client($0.client, createdAt: $0.createdAt, secret: nil) }
    }

    public func show(_ id: String) async throws -> Client {
        guard let found = try await clients.registered(id: id) else {
            throw UserAdministration.Failure("no client with id '\(id)'")
        }
        return Self.client(found.client, createdAt: found.createdAt, secret: nil)
    }

    /// Removes the client with everything it holds: codes, grants, sessions and their tokens.
    /// `til-cli` is refused: `til login --web` would fail for everyone without a word of why.
    public func remove(_ id: String) async throws {
        guard id != TILMigrations.tilCLIClientID else {
            throw UserAdministration.Failure(
                "'\(id)' is built in: `til login --web` signs in with it. Its sessions end with the users' logouts or `til-server users` commands.")
        }
        guard try await clients.remove(id: id) else { throw UserAdministration.Failure("no client with id '\(id)'") }
    }

    private static func client(_ client: OAuthClient, createdAt: Date, secret: String?) -> Client {
        Client(
            id: client.id, name: client.name, authMethod: client.authMethod.rawValue, redirectURIs: client.redirectURIs,
            postLogoutRedirectURIs: client.postLogoutRedirectURIs, grantTypes: client.grantTypes.map(\.rawValue),
            scope: client.scope.joined(separator: " "), trusted: client.trusted, idTokenAlgorithm: client.idTokenAlgorithm.rawValue,
            createdAt: createdAt, secret: secret)
    }
}

extension TIL {
    /// The operator's commands on OAuth clients.
    public var clientAdministration: ClientAdministration {
        ClientAdministration(clients: ClientRepository(db: db), scopes: configuration.oauth.scopes)
    }
}
