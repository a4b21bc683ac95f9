/// One step of the request pipeline: it may adapt a request before passing it on, and it sees
/// the response on its way back — it may also send again (a retry, a refresh).
///
/// ```swift
/// struct Logging: RequestStep {
///     func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
///         let response = try await next(request)
///         print(request.method, request.url!, response.status)
///         return response
///     }
/// }
/// ```
public protocol RequestStep: Sendable {
    typealias Next = @Sendable (APIRequest) async throws -> APIResponse
    func send(_ request: APIRequest, next: Next) async throws -> APIResponse
}

/// Sends a request for real: the end of every pipeline.
public protocol Transport: Sendable {
    func send(_ request: APIRequest) async throws -> APIResponse
}

/// Steps folded once, outermost first, in front of a transport.
struct Pipeline: Sendable {
    let send: RequestStep.Next

    init(_ steps: [any RequestStep], transport: any Transport) {
        var next: RequestStep.Next = { try await transport.send($0) }
        for step in steps.reversed() {
            let inner = next
            next = { try await step.send($0, next: inner) }
        }
        send = next
    }
}
