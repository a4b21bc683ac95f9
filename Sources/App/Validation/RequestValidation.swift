import Web

// The field rules of the request bodies the server accepts (wire types in TILWire); each
// failure is a 400 naming the field.

extension AcronymRequest {
    func validate() throws {
        try Validation.text(short, field: "short", max: 64)
        try Validation.text(long, field: "long", max: 512)
    }
}

extension CategoryRequest {
    func validate() throws {
        try Validation.text(name, field: "name", max: 128)
    }
}

extension CreateUserRequest {
    func validate() throws {
        try Validation.text(name, field: "name", max: 128)
        try UsernameRules.validate(username)
        try PasswordRules.validate(password)
    }
}
