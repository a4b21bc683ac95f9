import Foundation
import TILClient
import Web
import XCTest

/// Issue 17, high: "The client sends one server's token to another." A credential goes only to
/// the origin (scheme, host, port) it was issued by, checked before every send.
final class CredentialOriginTests: XCTestCase {
    /// What a server that is not TIL answers to a login: a token of its own.
    private static func fakeLogin(_ request: Request) -> Response {
        guard request.path == "/api/users/login" else { return Response(status: .noContent) }
        let now = Date()
        return FakeServer.json(Token(
            id: UUID(), value: "b-access", user: UserReference(id: UUID()), expiresAt: now.addingTimeInterval(3600),
            refreshToken: "b-refresh", refreshExpiresAt: now.addingTimeInterval(86_400), scopes: Scope.known))
    }

    func testALoginToAnotherServerNeverSendsItTheStoredToken() async throws {
        try await LiveServer.run { a in
            let (user, password) = try await a.makeUser()
            let store = MemoryCredentialStore()
            let old = try await a.client(store: store).login(username: user.username, password: password)

            try await FakeServer.run(answer: Self.fakeLogin) { b in
                try await APIClient(server: b.url, store: store).login(username: "someone", password: "their-password")
                XCTAssertFalse(b.saw(old.value), "B never sees A's access token")
                XCTAssertFalse(b.saw(old.refreshToken), "nor its refresh token")
                XCTAssertEqual(b.received.map(\.path), ["/api/users/login"], "B got the login it was asked for, nothing else")
                let kept = await store.load()
                XCTAssertEqual(kept.server, b.url.absoluteString)
                XCTAssertEqual(kept.credentials.map(\.accessToken), ["b-access"], "the store now holds B's login alone")
            }

            // The replaced login was ended where it lives, at A.
            let live = try await a.liveSessions(of: user)
            XCTAssertEqual(live, 0, "A's old session was ended at A")
            await assertNotAuthenticated { try await APIClient(server: a.url, bearerToken: old.value).me() }
        }
    }

    func testAStoredTokenIsNotSentToAServerOtherThanItsOwn() async throws {
        try await LiveServer.run { a in
            let (user, password) = try await a.makeUser()
            let store = MemoryCredentialStore()
            let issued = try await a.client(store: store).login(username: user.username, password: password)

            try await FakeServer.run { b in
                // A store whose server says B (edited, or written by a faulty client) but whose
                // token A issued: the pipeline's own check still keeps it from B.
                try await store.update { $0.server = b.url.absoluteString }
                let atB = APIClient(server: b.url, store: store)
                await assertNotAuthenticated { try await atB.me() }
                XCTAssertFalse(b.saw(issued.value), "the bearer step refused A's access token")

                // Expired, it would be refreshed first: the refresh token stays home too.
                try await store.update { $0.credentials[0].expiresAt = Date(timeIntervalSince1970: 0) }
                await assertNotAuthenticated { try await atB.me() }
                XCTAssertFalse(b.saw(issued.refreshToken), "the refresh refused to spend A's refresh token at B")
                XCTAssertEqual(b.received.count, 0, "B got nothing at all")
            }
        }
    }
}
