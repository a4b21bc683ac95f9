// The wire types (Acronym, Category, User.Public, Token, SessionInfo, Scope, the request
// bodies) live in TILWire, which the Swift client imports too: server and client cannot
// disagree on a field. `import App` brings them along.
@_exported public import TILWire
