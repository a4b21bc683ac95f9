import Web

// The field rules of the request bodies the server accepts (wire types in TILWire); each
// failure is a 400 naming the field. Each limit is named once, here (usernames and passwords:
// `UsernameRules`, `PasswordRules`); openapi.json documents the same numbers, and
// `FieldBoundsTests` sends every documented bound to hold the two together.

extension AcronymRequest {
    /// The longest `short` and `long`, in UTF-8 bytes.
    static let shortMaxBytes = 64
    static let longMaxBytes = 512

    func validate() throws {
        try Validation.text(short, field: "short", max: Self.shortMaxBytes)
        try Validation.text(long, field: "long", max: Self.longMaxBytes)
    }
}

extension CategoryRequest {
    /// The longest `name`, in UTF-8 bytes.
    static let nameMaxBytes = 128

    func validate() throws {
        try Validation.text(name, field: "name", max: Self.nameMaxBytes)
    }
}

extension CreateUserRequest {
    /// The longest `name` (the person's, not the username), in UTF-8 bytes.
    static let nameMaxBytes = 128

    func validate(passwordRules: PasswordRules) throws {
        try Validation.text(name, field: "name", max: Self.nameMaxBytes)
        try UsernameRules.validate(username)
        try passwordRules.validate(password)
        if let email { try EmailRules.validate(email) }
    }
}
