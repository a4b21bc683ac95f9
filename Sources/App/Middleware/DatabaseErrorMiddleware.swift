import Logging
import Postgres
import Web

/// Maps PostgreSQL failures to what a client should see: the database down or the pool
/// exhausted is a 503 (each saying which, both with `Retry-After`; logged at most once a
/// second, so an outage does not flood the log), a duplicate a 409 and a dangling reference a
/// 404, each naming the field (`ConstraintFields`), and malformed or oversized input a 400
/// (validation catches sizes first; this is the backstop for a value past one of PostgreSQL's
/// own limits). Anything else, a violation of a constraint no client can break included, stays
/// a 500 (logged by `ErrorMiddleware`).
struct DatabaseErrorMiddleware: ErrorTranslatingMiddleware {
    private let unavailableLines = LogRateLimit(linesPerSecond: 1)

    /// The client's view of a `PostgresError`: an `Abort`, or the error itself when it is ours (a 500).
    func translate(_ error: any Error, for request: Request) -> any Error {
        guard let error = error as? PostgresError else { return error }
        if error.isUnavailable {
            let busy = error.kind == .databaseBusy
            let (write, suppressed) = unavailableLines.admit()
            if write {
                request.logger.error(busy ? "database busy" : "database unavailable", metadata: [
                    "error": "\(error)", "suppressedSinceLastLine": "\(suppressed)",
                ])
            }
            let reason = busy ? "The database is busy; try again shortly." : "The database is unavailable; try again shortly."
            return Abort(.serviceUnavailable, reason: reason, headers: ["Retry-After": "1"])
        }
        switch error.sqlState {
        case .uniqueViolation?: return ConstraintFields.answer(uniqueViolationOf: error.constraint) ?? error
        case .foreignKeyViolation?: return ConstraintFields.answer(foreignKeyViolationOf: error.constraint) ?? error
        case .invalidTextRepresentation?, .stringDataRightTruncation?, .checkViolation?, .notNullViolation?:
            return Abort(.badRequest, reason: "Invalid value.")
        case .programLimitExceeded?: return Abort(.badRequest, reason: "A value is too large.")
        default: return error
        }
    }
}
