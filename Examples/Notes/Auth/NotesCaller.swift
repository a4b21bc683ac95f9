import Web

/// Who a request comes from, as TIL's introspection described the token: the owner of the
/// notes (the user's `sub`, or the client for a client's own token) and the scopes granted.
struct NotesCaller: Authenticatable {
    let owner: String
    let username: String?
    let scopes: Set<Substring>
}
