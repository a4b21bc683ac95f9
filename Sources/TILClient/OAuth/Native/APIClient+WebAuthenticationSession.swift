#if canImport(AuthenticationServices)
public import AuthenticationServices
public import Foundation

/// On Apple platforms the browser is ASWebAuthenticationSession, which hands back the callback
/// to an app's own scheme (RFC 8252 §7.1) — no listener needed. Only the presenting lives here;
/// the flow itself is `beginBrowserSignIn` / `finishBrowserSignIn`, the same on every platform.
extension APIClient {
    /// Signs in with `redirectURI` (`com.example.app:/callback`, registered for `clientID`)
    /// in an ephemeral session shown over `anchor`.
    @MainActor
    public func signInWithWebAuthenticationSession(
        redirectURI: URL, scopes: Set<Scope>? = nil, clientID: String = cliClientID, anchor: ASPresentationAnchor
    ) async throws -> SignedIn {
        let signIn = try await beginBrowserSignIn(redirectURI: redirectURI, scopes: scopes, clientID: clientID)
        let provider = AnchorProvider(anchor: anchor)
        var session: ASWebAuthenticationSession?
        let callback: URL = try await withCheckedThrowingContinuation { continuation in
            let started = ASWebAuthenticationSession(url: signIn.url, callbackURLScheme: redirectURI.scheme) { url, error in
                if let url { return continuation.resume(returning: url) }
                continuation.resume(throwing: TILError.signInFailed(
                    error: "access_denied", reason: error?.localizedDescription ?? "The sign-in was cancelled."))
            }
            started.presentationContextProvider = provider
            started.prefersEphemeralWebBrowserSession = true
            session = started
            started.start()
        }
        withExtendedLifetime((session, provider)) {}
        return try await finishBrowserSignIn(signIn, callback: callback)
    }
}

/// The window the session is shown over (the session holds its provider weakly).
@MainActor
private final class AnchorProvider: NSObject, @preconcurrency ASWebAuthenticationPresentationContextProviding {
    let anchor: ASPresentationAnchor

    init(anchor: ASPresentationAnchor) {
        self.anchor = anchor
    }

    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor { anchor }
}
#endif
