import Foundation
import Web

/// `/api/categories`: reads are public; creating needs the `categories:write` scope.
struct CategoriesController: RouteCollection {
    let categories: CategoryRepository
    let acronyms: AcronymRepository
    let auth: BearerAuth

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped("api", "categories")
        api.get(use: list)
        api.get(":categoryID", use: show)
        api.get(":categoryID", "acronyms", use: acronymsInCategory)
        auth.guardedWrite(api, needing: .categoriesWrite).post(use: create)
    }

    func list(_ request: Request) async throws -> Page<Category> {
        try await categories.all(page: PageRequest.from(request, for: .categories))
    }

    func show(_ request: Request) async throws -> Category {
        try await find(request)
    }

    func acronymsInCategory(_ request: Request) async throws -> Page<Acronym> {
        let page = try PageRequest.from(request, for: .categoryAcronyms)
        let category = try await find(request)
        return try await acronyms.inCategory(category.id, page: page)
    }

    /// The token is checked in the insert's own statement (`Caller.write`).
    func create(_ request: Request) async throws -> Category {
        let caller = try request.auth.require(Caller.self)
        let data = try request.content.decode(CategoryRequest.self)
        try data.validate()
        return try await categories.create(name: data.name, by: caller)
    }

    private func find(_ request: Request) async throws -> Category {
        let id = try request.parameters.require("categoryID", as: UUID.self)
        guard let category = try await categories.find(id) else { throw Abort(.notFound, reason: "No category with that id.") }
        return category
    }
}
