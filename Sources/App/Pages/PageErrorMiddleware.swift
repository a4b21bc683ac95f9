import Logging
import Web

/// Errors on TIL's pages become pages, never JSON: a browser shows the person what went
/// wrong, with the page headers. The API's translations apply first (a database outage is a
/// 503, bcrypt's admission refusal a 503 with `Retry-After`); then an `AbortError` keeps its
/// status, reason and headers (`Retry-After` on a 429), and anything else is a 500 that says
/// nothing of TIL's internals (the error is logged with the request id).
struct PageErrorMiddleware: Middleware {
    private let database = DatabaseErrorMiddleware()
    private let hashing = HashingErrorMiddleware()

    func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            let translated = hashing.translate(database.translate(error, for: request), for: request)
            switch translated {
            case let abort as any AbortError:
                return MessagePage.error(abort.status, abort.reason, headers: abort.headers).response
            case is CancellationError:
                throw translated
            default:
                request.logger.error("unhandled error on a page", metadata: ["error": "\(String(reflecting: error))"])
                return MessagePage.error(.internalServerError, "Something went wrong.").response
            }
        }
    }
}
