/// The one check of where a credential goes, just before the network: a request that carries
/// one goes only to an origin recorded with it when it was issued, else it fails, unsent.
///
/// One check, at the depth every credential passes: the bearer token in a header (the bearer
/// step tags the request with its origins) and the refresh token in a body alike, after every
/// other step, so nothing that changed the request on its way (a step of the caller's) sends a
/// credential to another server.
struct CredentialOriginStep: RequestStep {
    func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
        if let origins = request.credentialOrigins { try request.ensureGoes(to: origins) }
        return try await next(request)
    }
}
