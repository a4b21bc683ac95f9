import Foundation

/// Answers RFC 9470's step-up challenge: when a bearer request comes back 401
/// `insufficient_user_authentication` (the session's sign-in is older than the server's
/// `REAUTH_WINDOW`), it asks `reauthenticate` for the password — and, when the server says the
/// account has TOTP on, for a code as well — sends `POST /api/users/me/reauth`, and sends the
/// request once more. Nothing is asked again after that: a second challenge, a wrong password
/// (403) or a throttle's 429 is the answer the caller sees.
///
/// It sits outermost in the pipeline, so the re-authentication goes through the bearer step
/// (the same session's token) like any request.
struct StepUpStep: RequestStep {
    let reauthenticate: APIClient.Reauthenticator

    func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
        let response = try await next(request)
        guard let need = Self.challenge(in: response, for: request), var answer = try await reauthenticate(need) else { return response }
        var proven = try await next(try AccountAPI.reauthentication(answer))
        if answer.proof == nil, let methods = Self.factorsNeeded(in: proven) {
            guard let second = try await reauthenticate(ReauthenticationNeed(maxAge: need.maxAge, methods: methods)) else { return proven }
            answer = ReauthenticationAnswer(password: second.password.isEmpty ? answer.password : second.password, proof: second.proof)
            proven = try await next(try AccountAPI.reauthentication(answer))
        }
        guard proven.isSuccess else { return proven }
        return try await next(request)
    }

    /// The step-up challenge `response` makes to `request`'s bearer: 401
    /// `insufficient_user_authentication`, with the window from its body or its `max_age`.
    static func challenge(in response: APIResponse, for request: APIRequest) -> ReauthenticationNeed? {
        switch request.authorization {
        case .bearer, .session: break
        case .none, .basic: return nil
        }
        guard response.status == 401, response.authenticateError == "insufficient_user_authentication" else { return nil }
        let body = try? JSONDecoder().decode(ReauthenticationRequired.self, from: response.body)
        let header = response.header("WWW-Authenticate").flatMap { Challenge(parsing: $0).parameters["max_age"] }.flatMap { Int($0) }
        return ReauthenticationNeed(maxAge: body?.maxAge ?? header ?? 0)
    }

    /// The second factors a re-authentication's 403 says the password needs; nil for any other answer.
    static func factorsNeeded(in response: APIResponse) -> [String]? {
        guard response.status == 403, let body = try? JSONDecoder().decode(ReauthenticationFactorRequired.self, from: response.body),
              body.mfaRequired
        else { return nil }
        return body.methods
    }
}
