import Foundation
import Web

/// `/api/acronyms`: reads are public; creating, updating, deleting and (un)linking
/// categories need a bearer token with the `acronyms:write` scope. Under the `owner` edit
/// policy only an acronym's owner may update or delete it, or link or unlink its categories.
struct AcronymsController: RouteCollection {
    let acronyms: AcronymRepository
    let users: UserRepository
    let categories: CategoryRepository
    let auth: BearerAuth
    let editPolicy: AcronymEditPolicy

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "acronyms")
        api.get(use: list)
        api.get("search", use: search)
        api.get("first", use: first)
        api.get("sorted", use: sorted)
        api.get(":acronymID", use: show)
        api.get(":acronymID", "user", use: owner)
        api.get(":acronymID", "categories", use: categoriesOfAcronym)

        let guarded = auth.guarded(api, needing: .acronymsWrite)
        guarded.post(use: create)
        guarded.put(":acronymID", use: update)
        guarded.delete(":acronymID", use: delete)
        guarded.post(":acronymID", "categories", ":categoryID", use: attach)
        guarded.delete(":acronymID", "categories", ":categoryID", use: detach)
    }

    func list(_ request: Request) async throws -> Page<Acronym> {
        try await acronyms.all(page: PageRequest.from(request, for: .acronyms))
    }

    func show(_ request: Request) async throws -> Acronym {
        try await find(request)
    }

    func search(_ request: Request) async throws -> Page<Acronym> {
        guard let term = request.query["term"], !term.isEmpty else {
            throw Abort(.badRequest, reason: "Missing search term: use ?term=...")
        }
        // Counted in Unicode scalars, as JSON Schema's `maxLength` counts (no `long` is longer).
        guard term.unicodeScalars.count <= 512 else { throw Abort(.badRequest, reason: "Search term too long: at most 512 characters.") }
        return try await acronyms.search(term, page: PageRequest.from(request, for: .acronymSearch))
    }

    func first(_ request: Request) async throws -> Acronym {
        guard let acronym = try await acronyms.first() else { throw Abort(.notFound, reason: "There are no acronyms yet.") }
        return acronym
    }

    func sorted(_ request: Request) async throws -> Page<Acronym> {
        try await acronyms.sorted(page: PageRequest.from(request, for: .acronymsSorted))
    }

    func owner(_ request: Request) async throws -> User.Public {
        let acronym = try await find(request)
        guard let user = try await users.find(acronym.user.id) else { throw Abort(.notFound, reason: "No user with that id.") }
        return user.asPublic
    }

    func categoriesOfAcronym(_ request: Request) async throws -> Page<Category> {
        let page = try PageRequest.from(request, for: .acronymCategories)
        let acronym = try await find(request)
        return try await categories.of(acronym: acronym.id, page: page)
    }

    func create(_ request: Request) async throws -> Acronym {
        let user = try request.auth.require(User.self)
        let data = try request.content.decode(AcronymRequest.self)
        try data.validate()
        return try await acronyms.create(short: data.short, long: data.long, userID: user.id)
    }

    /// Updates short and long. As in the book the caller becomes the owner, unless the
    /// `owner` policy is on: then only the owner may update, and stays the owner.
    func update(_ request: Request) async throws -> Acronym {
        let user = try request.auth.require(User.self)
        let id = try request.parameters.require("acronymID", as: UUID.self)
        let data = try request.content.decode(AcronymRequest.self)
        try data.validate()
        try await checkOwnership(of: id, by: user)
        guard let acronym = try await acronyms.update(id, short: data.short, long: data.long, userID: user.id) else {
            throw Abort(.notFound, reason: "No acronym with that id.")
        }
        return acronym
    }

    func delete(_ request: Request) async throws -> HTTPStatus {
        let id = try request.parameters.require("acronymID", as: UUID.self)
        try await checkOwnership(of: id, by: try request.auth.require(User.self))
        guard try await acronyms.delete(id) else { throw Abort(.notFound, reason: "No acronym with that id.") }
        return .noContent
    }

    func attach(_ request: Request) async throws -> HTTPStatus {
        let (acronymID, categoryID) = try linkIDs(request)
        try await checkOwnership(of: acronymID, by: try request.auth.require(User.self))
        try await categories.attach(acronym: acronymID, category: categoryID)  // unknown ids → FK violation → 404
        return .created
    }

    func detach(_ request: Request) async throws -> HTTPStatus {
        let (acronymID, categoryID) = try linkIDs(request)
        try await checkOwnership(of: acronymID, by: try request.auth.require(User.self))
        // The same answers as attach's foreign-key violations (`ConstraintFields`).
        if let missing = try await categories.detach(acronym: acronymID, category: categoryID) { throw Abort.unknown(missing) }
        return .noContent
    }

    /// Under the `owner` policy, 403 unless `user` owns the acronym (404 when there is none):
    /// for every change to it, its categories included.
    private func checkOwnership(of id: UUID, by user: User) async throws {
        guard editPolicy == .owner else { return }
        guard let acronym = try await acronyms.find(id) else { throw Abort(.notFound, reason: "No acronym with that id.") }
        guard acronym.user.id == user.id else { throw Abort(.forbidden, reason: "Only the acronym's owner may change it.") }
    }

    private func find(_ request: Request) async throws -> Acronym {
        let id = try request.parameters.require("acronymID", as: UUID.self)
        guard let acronym = try await acronyms.find(id) else { throw Abort(.notFound, reason: "No acronym with that id.") }
        return acronym
    }

    private func linkIDs(_ request: Request) throws -> (UUID, UUID) {
        (try request.parameters.require("acronymID", as: UUID.self), try request.parameters.require("categoryID", as: UUID.self))
    }
}
