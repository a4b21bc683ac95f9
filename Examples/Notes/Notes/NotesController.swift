import Web

/// `GET /notes` (`notes:read`) and `POST /notes` (`notes:write`): the caller's own notes.
struct NotesController: RouteCollection {
    let store: NoteStore
    let authenticator: TokenAuthenticator

    func boot(routes: any RoutesBuilder) throws {
        let notes = routes.grouped("notes")
        let challenge = authenticator.challenge
        notes.grouped(authenticator, ScopeRequirement(scope: "notes:read", challenge: challenge)).get(use: list)
        notes.grouped(authenticator, ScopeRequirement(scope: "notes:write", challenge: challenge)).post(use: create)
    }

    func list(_ request: Request) async throws -> [Note] {
        store.notes(of: try request.auth.require(NotesCaller.self).owner)
    }

    func create(_ request: Request) async throws -> ContentResponse<Note> {
        let caller = try request.auth.require(NotesCaller.self)
        let text = try request.content.decode(Note.Draft.self).checkedText()
        guard let note = store.add(text, for: caller.owner) else {
            throw Abort(.conflict, reason: "At most \(NoteStore.maxPerOwner) notes each; this one was not kept.")
        }
        return ContentResponse(note, status: .created)
    }
}
