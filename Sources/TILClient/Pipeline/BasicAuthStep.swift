import Foundation

/// Sends HTTP Basic credentials (RFC 7617) for the requests that ask for them: the login.
struct BasicAuthStep: RequestStep {
    func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
        guard case .basic(let username, let password) = request.authorization else { return try await next(request) }
        var request = request
        request.headers["Authorization"] = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        return try await next(request)
    }
}
