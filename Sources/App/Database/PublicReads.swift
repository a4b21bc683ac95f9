import Web

/// The one rule that decides which requests may read from a replica: a GET or HEAD without an
/// `Authorization` header — an anonymous, public read.
///
/// Everything else reads from the primary: logins and token checks (they carry credentials),
/// and every request of a logged-in client, including its reads. A client that writes must
/// hold a token, so as long as it sends that token on its reads it always sees its own
/// writes; a replica's lag is only visible to anonymous readers, who cannot tell. The rule
/// needs no cookie and no per-process memory, so it holds with any number of processes
/// behind a round-robin balancer.
enum PublicReads {
    /// True while an eligible request is being answered (set by `PublicReadsMiddleware`).
    @TaskLocal static var mayUseReplica = false

    static func isEligible(_ request: Request) -> Bool {
        (request.method == .get || request.method == .head) && !request.headers.contains("Authorization")
    }
}

/// Marks anonymous GET/HEAD requests for the rest of the chain (see `PublicReads`). It never
/// suspends itself, so routes answered without a task (`/health`, `/openapi.json`) keep that
/// path when replicas are configured.
struct PublicReadsMiddleware: SynchronousMiddleware {
    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        guard PublicReads.isEligible(request) else { return try await next.respond(to: request) }
        return try await PublicReads.$mayUseReplica.withValue(true) { try await next.respond(to: request) }
    }

    func respond(to request: Request, chainingTo next: ImmediateResponder) throws -> Response {
        guard PublicReads.isEligible(request) else { return try next(request) }
        return try PublicReads.$mayUseReplica.withValue(true) { try next(request) }
    }
}
