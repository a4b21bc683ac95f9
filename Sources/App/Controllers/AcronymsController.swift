import Foundation
import Postgres
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

        let guarded = auth.guardedWrite(api, needing: .acronymsWrite)
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

    // The writes: each checks the token in its own statement (`Caller.write`), ownership too.

    func create(_ request: Request) async throws -> Acronym {
        let caller = try request.auth.require(Caller.self)
        let data = try request.content.decode(AcronymRequest.self)
        try data.validate()
        return try await acronyms.create(short: data.short, long: data.long, by: caller)
    }

    /// Updates short and long. As in the book the caller becomes the owner, unless the
    /// `owner` policy is on: then only the owner may update, and stays the owner.
    func update(_ request: Request) async throws -> Acronym {
        let caller = try request.auth.require(Caller.self)
        let id = try request.parameters.require("acronymID", as: UUID.self)
        let data = try request.content.decode(AcronymRequest.self)
        try data.validate()
        if let acronym = try await acronyms.update(id, short: data.short, long: data.long, by: caller, ownedOnly: ownersOnly) {
            return acronym
        }
        try await checkOwnership(of: id, by: caller)
        throw Abort(.notFound, reason: "No acronym with that id.")
    }

    func delete(_ request: Request) async throws -> HTTPStatus {
        let caller = try request.auth.require(Caller.self)
        let id = try request.parameters.require("acronymID", as: UUID.self)
        if try await acronyms.delete(id, by: caller, ownedOnly: ownersOnly) { return .noContent }
        try await checkOwnership(of: id, by: caller)
        throw Abort(.notFound, reason: "No acronym with that id.")
    }

    func attach(_ request: Request) async throws -> HTTPStatus {
        let caller = try request.auth.require(Caller.self)
        let (acronymID, categoryID) = try linkIDs(request)
        // Unknown ids → FK violation → 404. Nothing linked: refused, or linked before.
        if try await !categories.attach(acronym: acronymID, category: categoryID, by: caller, if: changeable(acronymID)) {
            try await checkOwnership(of: acronymID, by: caller)
        }
        return .created
    }

    func detach(_ request: Request) async throws -> HTTPStatus {
        let caller = try request.auth.require(Caller.self)
        let (acronymID, categoryID) = try linkIDs(request)
        if try await categories.detach(acronym: acronymID, category: categoryID, by: caller, if: changeable(acronymID)) {
            return .noContent
        }
        try await checkOwnership(of: acronymID, by: caller)
        // The same answers as attach's foreign-key violations (`ConstraintFields`).
        if let missing = try await categories.missingReference(acronym: acronymID, category: categoryID) { throw Abort.unknown(missing) }
        return .noContent
    }

    private var ownersOnly: Bool { editPolicy == .owner }

    /// SQL, in a write as the caller: the caller may change acronym `id` (always, unless the
    /// `owner` policy is on).
    private func changeable(_ id: UUID) -> PostgresQuery {
        ownersOnly ? "EXISTS (SELECT 1 FROM acronyms a WHERE a.id = \(id) AND \(AcronymRepository.owned(true)))" : "TRUE"
    }

    /// After a write that matched nothing, under the `owner` policy: 404 when there is no such
    /// acronym, 403 when the caller does not own it. For every change to it, its categories included.
    private func checkOwnership(of id: UUID, by caller: Caller) async throws {
        guard ownersOnly else { return }
        guard let acronym = try await acronyms.find(id) else { throw Abort(.notFound, reason: "No acronym with that id.") }
        guard try await acronym.user.id == caller.userID else { throw Abort(.forbidden, reason: "Only the acronym's owner may change it.") }
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
