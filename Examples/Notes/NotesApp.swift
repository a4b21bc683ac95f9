import Foundation
import Web

/// The notes API's routes on an `Application`, from its settings: the RFC 9728 metadata for
/// anyone, the notes behind TIL's tokens.
struct NotesApp {
    let settings: NotesSettings

    func configure(_ app: Application) throws {
        let metadata = ResourceMetadata(
            resource: settings.resourceURI, authorizationServers: [settings.issuer.absoluteString],
            scopesSupported: ResourceMetadata.scopes)
        app.get(PathComponent(ResourceMetadata.path(for: settings.resource))) { _ in metadata }

        let challenge = BearerChallenge(realm: "notes", resourceMetadata: ResourceMetadata.url(for: settings.resource))
        let introspector = Introspector(issuer: settings.issuer, clientID: settings.clientID, clientSecret: settings.clientSecret)
        let authenticator = TokenAuthenticator(
            introspector: introspector, cache: IntrospectionCache(lifetime: settings.cacheLifetime), resourceURI: settings.resourceURI,
            challenge: challenge)
        try app.register(collection: NotesController(store: NoteStore(), authenticator: authenticator))
    }
}
