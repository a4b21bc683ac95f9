extension RoutesBuilder {
    @discardableResult
    public func get<R: ResponseEncodable>(
        _ path: PathComponent..., use handler: @escaping @Sendable (Request) async throws -> R
    ) -> Route { on(.get, path, use: handler) }

    @discardableResult
    public func post<R: ResponseEncodable>(
        _ path: PathComponent..., use handler: @escaping @Sendable (Request) async throws -> R
    ) -> Route { on(.post, path, use: handler) }

    @discardableResult
    public func put<R: ResponseEncodable>(
        _ path: PathComponent..., use handler: @escaping @Sendable (Request) async throws -> R
    ) -> Route { on(.put, path, use: handler) }

    @discardableResult
    public func patch<R: ResponseEncodable>(
        _ path: PathComponent..., use handler: @escaping @Sendable (Request) async throws -> R
    ) -> Route { on(.patch, path, use: handler) }

    @discardableResult
    public func delete<R: ResponseEncodable>(
        _ path: PathComponent..., use handler: @escaping @Sendable (Request) async throws -> R
    ) -> Route { on(.delete, path, use: handler) }

    /// Registers `handler` for `method` at `path`.
    @discardableResult
    public func on<R: ResponseEncodable>(
        _ method: HTTPMethod, _ path: [PathComponent], use handler: @escaping @Sendable (Request) async throws -> R
    ) -> Route {
        let components = path.flatMap { component -> [PathComponent] in
            if case .constant(let value) = component, value.contains("/") { return [value].pathComponents }
            return [component]
        }
        let route = Route(method: method, path: components, responder: ClosureResponder { request in
            try await handler(request).encodeResponse(for: request)
        })
        add(route)
        return route
    }
}
