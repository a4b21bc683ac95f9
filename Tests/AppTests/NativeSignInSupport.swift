import AppTesting
import Foundation
import TILClient
import Web
import WebTesting
import XCTest

/// What the native-app sign-in tests share: the browser's part (the pages walked with a cookie
/// jar, as `BrowserClient` does) and a TILClient of the live server.
extension BrowserClient {
    /// Opens `url` (an authorization URL of this server) and goes through the pages as a person
    /// would: the sign-in form as `username`, the consent page when the client needs one
    /// (approved, or denied), following the server's own redirects. The URL the browser is
    /// finally sent to: the redirect URI, with the answer.
    func authorize(_ url: URL, as username: String, password: String = "password", approve: Bool = true) async throws -> URL {
        let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        var response = try await get(components.percentEncodedPath + "?" + (components.percentEncodedQuery ?? ""))
        for _ in 0..<6 {
            if response.status == .seeOther, let location = response.location {
                guard location.hasPrefix("/") else { return try XCTUnwrap(URL(string: location)) }
                response = try await get(location)
                continue
            }
            let form = try HTMLForm.only(in: response)
            if form.fields.contains(where: { $0.name == "password" }) {
                response = try await submit(form, ["username": username, "password": password])
            } else {
                response = try await submit(form, clicking: ("decision", approve ? "approve" : "deny"))
            }
        }
        throw PagesLoop(last: "\(response.status) \(response.bodyString)")
    }
}

/// The pages kept answering pages: the browser never got back to the app.
struct PagesLoop: Error {
    let last: String
}

extension TestApp {
    /// This live app's URL.
    var serverURL: URL { URL(string: "http://127.0.0.1:\(app.boundPort)")! }

    /// A TILClient of this live app with a store of its own unless given one.
    func tilClient(store: any CredentialStore = MemoryCredentialStore()) -> APIClient {
        APIClient(server: serverURL, store: store)
    }

    /// Signs `username` in with `client` through the pages, as til-cli unless `clientID` says
    /// otherwise, on a loopback redirect whose port nobody listens on (the test is the browser).
    @discardableResult
    func signInInBrowser(
        _ client: APIClient, as username: String = "admin", scopes: Set<Scope>? = nil, clientID: String = APIClient.cliClientID
    ) async throws -> SignedIn {
        let signIn = try await client.beginBrowserSignIn(
            redirectURI: URL(string: "http://127.0.0.1:49152/callback")!, scopes: scopes, clientID: clientID)
        let callback = try await BrowserClient(self.client).authorize(signIn.url, as: username)
        return try await client.finishBrowserSignIn(signIn, callback: callback)
    }
}
