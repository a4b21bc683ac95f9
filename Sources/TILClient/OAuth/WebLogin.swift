import Foundation

/// Logging in without typing a password here: RFC 8628's device grant, as TIL's built-in
/// public client `til-cli`. The person approves in a browser (anywhere); this client polls.
extension APIClient {
    /// The OAuth client `til login --web` is, seeded by the server's migration.
    public static let cliClientID = "til-cli"

    /// `POST /oauth/device_authorization`: a device code and the user code to show.
    public func startWebLogin(clientID: String = cliClientID) async throws -> DeviceAuthorization {
        var request = APIRequest("POST", "/oauth/device_authorization", body: Data(OAuthTokens.formEncoded([(name: "client_id", value: clientID)]).utf8))
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        let response = try await pipeline.send(request)
        guard response.isSuccess else { throw OAuthTokens.refusal(response) }
        return try Self.decode(DeviceAuthorization.self, from: response)
    }

    /// Polls the token endpoint until the person decides (RFC 8628 §3.4, §3.5), waiting the
    /// interval between polls and five seconds more after each `slow_down`; then keeps the pair
    /// in the store like a password login's (the sessions it replaces are ended), recording
    /// that it came from `clientID`. Throws `notAuthenticated` when denied or expired.
    @discardableResult
    public func finishWebLogin(
        _ authorization: DeviceAuthorization, clientID: String = cliClientID,
        wait: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws -> (token: Token, username: String) {
        var interval = max(1, authorization.interval ?? 5)
        let deadline = Date().addingTimeInterval(TimeInterval(authorization.expiresIn))
        while true {
            try await wait(.seconds(interval))
            guard Date() < deadline else { throw TILError.notAuthenticated("The code expired before it was approved; run the login again.") }
            let response = try await pipeline.send(OAuthTokens.request([
                (name: "grant_type", value: "urn:ietf:params:oauth:grant-type:device_code"),
                (name: "device_code", value: authorization.deviceCode), (name: "client_id", value: clientID),
            ]))
            if !response.isSuccess, let refusal = try? JSONDecoder().decode(OAuthTokens.Refusal.self, from: response.body) {
                switch refusal.error {
                case "authorization_pending": continue
                case "slow_down": interval += 5; continue
                case "access_denied": throw TILError.notAuthenticated("The login was denied in the browser.")
                case "expired_token": throw TILError.notAuthenticated("The code expired before it was approved; run the login again.")
                default: break
                }
            }
            let kept = try await keepOAuthLogin(try OAuthTokens.answer(response), response: response, clientID: clientID, signIn: .device)
            return (kept.token, kept.username)
        }
    }
}
