import Logging

/// Turns every error into a JSON response `{"error": true, "reason": "..."}`.
///
/// `AbortError`s keep their status and reason (an `EncodableAbortError` is its own body);
/// `DecodingError`s become 400s naming the field;
/// a `CancellationError` (the client left) a quiet 499 nobody reads; anything else is a 500
/// whose details are logged with the request id and, outside development, never sent to the
/// client.
///
/// One failure, one line: only the unhandled error (the 500) is logged here. An `AbortError`
/// is an answer some code chose; that code logs what it knows (a database outage, say) and
/// the access line records the status, so logging it again would double every line.
public struct ErrorMiddleware: SynchronousMiddleware {
    public let environment: Environment

    public init(environment: Environment) {
        self.environment = environment
    }

    public func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            return response(for: error, request: request)
        }
    }

    public func respond(to request: Request, chainingTo next: ImmediateResponder) throws -> Response {
        do {
            return try next(request)
        } catch {
            return response(for: error, request: request)
        }
    }

    public func response(for error: any Error, request: Request) -> Response {
        let status: HTTPStatus
        let reason: String
        var headers: HTTPHeaders = [:]
        switch error {
        case let abort as any EncodableAbortError:
            if let bytes = try? JSON.encode(abort) {
                var response = JSON.response(bytes: bytes)
                response.status = abort.status
                for (name, value) in abort.headers { response.headers.replaceOrAdd(name: name, value: value) }
                return response
            }
            status = abort.status
            reason = abort.reason
            headers = abort.headers
        case let abort as any AbortError:
            status = abort.status
            reason = abort.reason
            headers = abort.headers
        case let decoding as DecodingError:
            status = .badRequest
            reason = decoding.clientReason
        case is CancellationError:
            // The client left and the server cancelled the handler; nobody reads this answer.
            status = HTTPStatus(code: 499, reasonPhrase: "Client Closed Request")
            reason = "The client closed the connection."
            request.logger.debug("handler cancelled: client closed the connection")
        default:
            status = .internalServerError
            reason = environment == .development ? "\(error)" : "Something went wrong."
            request.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
        }
        return .jsonError(status, reason: reason, headers: headers)
    }
}

extension DecodingError {
    /// A reason a client can act on: which key or type was wrong, never our internals.
    var clientReason: String {
        func path(_ context: Context, appending key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "Value required for key '\(path(context, appending: key))'."
        case .valueNotFound(let type, let context):
            return "Value of type '\(type)' required for key '\(path(context))'."
        case .typeMismatch(let type, let context):
            return "Value of type '\(type)' required for key '\(path(context))'."
        case .dataCorrupted(let context):
            let at = path(context)
            return at.isEmpty ? "The request body is not valid JSON." : "Invalid value for key '\(at)'."
        @unknown default:
            return "The request body could not be decoded."
        }
    }
}
