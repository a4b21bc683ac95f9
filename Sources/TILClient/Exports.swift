// The wire types the server speaks (Acronym, Category, PublicUser, Token, SessionInfo,
// Scope, ErrorBody): `import TILClient` brings them along.
@_exported public import TILWire
