/// The last check before the network: a request that carries a credential goes only to an
/// origin recorded with that credential when it was issued.
///
/// The bearer step checks before it attaches a token; this step checks every request that
/// carries one — the refresh too, whose token travels in the body — after every other step,
/// so nothing that changed the request on its way (a step of the caller's) sends a credential
/// to another server.
struct CredentialOriginStep: RequestStep {
    func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
        if let origins = request.credentialOrigins { try request.ensureGoes(to: origins) }
        return try await next(request)
    }
}
