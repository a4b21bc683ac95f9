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

    /// A synchronous `GET` handler (no `await` in it): see the synchronous `on`.
    @discardableResult
    public func get<R: ResponseEncodable>(
        _ path: PathComponent..., use handler: @escaping @Sendable (Request) throws -> R
    ) -> Route { on(.get, path, use: handler) }

    /// Registers `handler` for `method` at `path`.
    @discardableResult
    public func on<R: ResponseEncodable>(
        _ method: HTTPMethod, _ path: [PathComponent], use handler: @escaping @Sendable (Request) async throws -> R
    ) -> Route {
        let route = Route(method: method, path: Self.splitting(path), responder: ClosureResponder { request in
            try await handler(request).encodeResponse(for: request)
        })
        add(route)
        return route
    }

    /// Registers a synchronous `handler`: when the route's middleware is synchronous too
    /// (`SynchronousMiddleware`), the server answers it on the thread that read the request,
    /// without starting a task (`/health`, documents built at boot).
    @discardableResult
    public func on<R: ResponseEncodable>(
        _ method: HTTPMethod, _ path: [PathComponent], use handler: @escaping @Sendable (Request) throws -> R
    ) -> Route {
        let immediate: ImmediateResponder = { request in try handler(request).encodeResponse(for: request) }
        let route = Route(
            method: method, path: Self.splitting(path), responder: ClosureResponder { try immediate($0) },
            immediate: immediate)
        add(route)
        return route
    }

    /// `"api/users"` written as one constant becomes two components.
    private static func splitting(_ path: [PathComponent]) -> [PathComponent] {
        path.flatMap { component -> [PathComponent] in
            if case .constant(let value) = component, value.contains("/") { return [value].pathComponents }
            return [component]
        }
    }
}
