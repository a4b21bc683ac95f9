import Web

/// `GET /openapi.json`: the API's contract (see `OpenAPIDocument`), public and served as is.
struct OpenAPIController: RouteCollection {
    /// The document's bytes, read once when the app is configured.
    let document: [UInt8]

    func boot(routes: any RoutesBuilder) throws {
        // The document never changes, so its response is built once, not per request.
        let response = Response(status: .ok, headers: ["Content-Type": "application/json"], body: document)
        routes.get("openapi.json") { _ in response }
    }
}
