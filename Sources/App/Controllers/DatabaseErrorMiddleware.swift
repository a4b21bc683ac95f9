import Logging
import Postgres
import Web

/// Maps PostgreSQL failures to what a client should see: the database down or the pool
/// exhausted is a 503 (each saying which, both with `Retry-After`) (never a hang), a duplicate a 409, a dangling reference a 404, and
/// malformed or oversized input a 400 (validation catches sizes first; this is the backstop
/// for a value past one of PostgreSQL's own limits). Anything else stays a 500 (logged by
/// `ErrorMiddleware`).
struct DatabaseErrorMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let error as PostgresError {
            if error.kind == .databaseBusy {
                request.logger.warning("database busy", metadata: ["error": "\(error)"])
                throw Abort(.serviceUnavailable, reason: "The database is busy; try again shortly.", headers: ["Retry-After": "1"])
            }
            if error.isUnavailable {
                request.logger.error("database unavailable", metadata: ["error": "\(error)"])
                throw Abort(.serviceUnavailable, reason: "The database is unavailable; try again shortly.", headers: ["Retry-After": "1"])
            }
            switch error.sqlState {
            case .uniqueViolation?: throw Abort(.conflict, reason: "That value is already taken.")
            case .foreignKeyViolation?: throw Abort(.notFound, reason: "A referenced item does not exist.")
            case .invalidTextRepresentation?, .stringDataRightTruncation?, .checkViolation?, .notNullViolation?:
                throw Abort(.badRequest, reason: "Invalid value.")
            case .programLimitExceeded?: throw Abort(.badRequest, reason: "A value is too large.")
            default: throw error
            }
        }
    }
}
