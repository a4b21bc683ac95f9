import Crypt
import Foundation
import Web

/// `/api/users`: listing and reading users is public (never an email address); creating a
/// user needs a bearer token with the `users:write` scope. Login and the token lifecycle live
/// in `SessionsController`.
struct UsersController: RouteCollection {
    let users: UserRepository
    let acronyms: AcronymRepository
    let hasher: BcryptHasher
    let passwordRules: PasswordRules
    let auth: BearerAuth
    /// Creates a user with an email address, its verification mail queued with it.
    let emails: AccountEmails

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "users")
        api.get(use: list)
        api.get(":userID", use: show)
        api.get(":userID", "acronyms", use: acronymsOfUser)
        auth.guarded(api, needing: .usersWrite).post(use: create)
    }

    func list(_ request: Request) async throws -> Page<User.Public> {
        try await users.allPublic(page: PageRequest.from(request, for: .users))
    }

    func show(_ request: Request) async throws -> User.Public {
        let id = try request.parameters.require("userID", as: UUID.self)
        guard let user = try await users.find(id) else { throw Abort(.notFound, reason: "No user with that id.") }
        return user.asPublic
    }

    func acronymsOfUser(_ request: Request) async throws -> Page<Acronym> {
        let id = try request.parameters.require("userID", as: UUID.self)
        let page = try PageRequest.from(request, for: .userAcronyms)
        guard try await users.find(id) != nil else { throw Abort(.notFound, reason: "No user with that id.") }
        return try await acronyms.owned(by: id, page: page)
    }

    func create(_ request: Request) async throws -> User.Public {
        let data = try request.content.decode(CreateUserRequest.self)
        try data.validate(passwordRules: passwordRules)
        let hash = try await hasher.hash(data.password)
        if let email = data.email {
            return try await emails.createUser(
                name: data.name, username: data.username, passwordHash: hash, email: EmailRules.normalized(email), request).asPublic
        }
        return try await users.create(name: data.name, username: data.username, passwordHash: hash).asPublic
    }
}
