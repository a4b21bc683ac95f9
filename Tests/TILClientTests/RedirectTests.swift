import Foundation
import TILClient
import Web
import XCTest

/// Issue 17, medium: "Redirects carry credentials to other hosts." TIL's API never redirects,
/// so the client follows no redirect: it reports it, typed, and the target hears nothing.
final class RedirectTests: XCTestCase {
    func testRedirectsAreRefusedAndCarryNoCredentialsToTheirTarget() async throws {
        try await FakeServer.run { target in
            let loginThere = target.url.appendingPathComponent("api/users/login")
            let meThere = target.url.appendingPathComponent("api/users/me")
            try await FakeServer.run(answer: { request in
                request.path == "/api/users/login" ? FakeServer.redirect(302, to: loginThere) : FakeServer.redirect(307, to: meThere)
            }) { redirector in
                // A 302 to a login: Basic credentials.
                let til = APIClient(server: redirector.url)
                await assertRedirected(302, to: loginThere) { try await til.login(username: "bob", password: "bobpassword") }
                // A 307 to a bearer request: the token.
                let withToken = APIClient(server: redirector.url, bearerToken: "secret-bearer")
                await assertRedirected(307, to: meThere) { try await withToken.me() }

                XCTAssertEqual(target.received.count, 0, "the redirect target never hears from the client")
                XCTAssertEqual(redirector.received.map(\.path), ["/api/users/login", "/api/users/me"], "each request was sent once")
            }
        }
    }

    func testEveryKindOfRedirectIsRefusedEvenToTheSameServer() async throws {
        try await FakeServer.run(answer: { request in
            let status = Int(request.path.split(separator: "/").last ?? "") ?? 302
            return FakeServer.redirect(status, to: URL(string: "/elsewhere")!)
        }) { server in
            let til = APIClient(server: server.url, bearerToken: "secret-bearer")
            for status in [301, 302, 303, 307, 308] {
                await assertRedirected(status, to: URL(string: "/elsewhere")!) {
                    try await til.send(APIRequest("GET", "/status/\(status)", authorization: .bearer(nil)))
                }
            }
            XCTAssertFalse(server.received.contains { $0.path == "/elsewhere" }, "not even a same-server redirect is followed")
        }
    }

    private func assertRedirected(
        _ status: Int, to location: URL, file: StaticString = #filePath, line: UInt = #line, _ work: () async throws -> some Any
    ) async {
        do {
            _ = try await work()
            XCTFail("expected a refused \(status) redirect", file: file, line: line)
        } catch let error as TILError {
            XCTAssertEqual(error, .redirected(status: status, location: location.absoluteString), file: file, line: line)
        } catch {
            XCTFail("expected TILError.redirected, got \(error)", file: file, line: line)
        }
    }
}
