import AppTesting
import Crypt
import Foundation
import Web
import WebTesting
import XCTest
@testable import App

/// Issue 17: a cursor's check is a checksum anyone can compute, not a key, so its payload is
/// the client's to choose. It must not smuggle a NUL to PostgreSQL, and the sessions cursor
/// must not show a client anything beyond its own sessions (no global counter).
final class CursorPayloadTests: XCTestCase {
    /// A cursor made by hand exactly as the server makes one: base64url of the JSON payload and
    /// the first 8 bytes of SHA-256 over "TIL list cursor v1\n" + payload.
    private func forged(_ json: String) -> String {
        let payload = Array(json.utf8)
        return Base64URL.encode(payload + SHA256.hash(Array("TIL list cursor v1\n".utf8) + payload).prefix(8))
    }

    /// The JSON payload of a cursor the server made.
    private func payload(of cursor: String) throws -> [String: Any] {
        let bytes = try XCTUnwrap(Base64URL.decode(cursor), cursor)
        let json = try JSONSerialization.jsonObject(with: Data(bytes.dropLast(8)))
        return try XCTUnwrap(json as? [String: Any], "\(json)")
    }

    func testACursorWhosePayloadHoldsANULIs400() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            for short in ["A", "B", "C"] { _ = try await Acronym.create(short: short, user: user, on: app) }
            let honestCursor = forged(#"{"list":"acronyms-sorted","seq":1,"short":"A"}"#)
            let honest = try await app.client.send(.get, "/api/acronyms/sorted?limit=1&cursor=\(honestCursor)")
            XCTAssertEqual(honest.status.code, 200, "the forging is right: \(honest.bodyString)")

            let cases = [
                ("/api/acronyms/sorted", forged(#"{"list":"acronyms-sorted","seq":1,"short":"A\u0000"}"#)),  // escaped, in a value
                ("/api/acronyms/sorted", forged("{\"list\":\"acronyms-sorted\",\"seq\":1,\"short\":\"A\u{0}\"}")),  // raw, in a value
                ("/api/acronyms", forged("{\"list\":\"acronyms\",\"seq\":1}\u{0}")),  // raw, after the JSON
            ]
            for (path, cursor) in cases {
                let response = try await app.client.send(.get, "\(path)?limit=1&cursor=\(cursor)")
                XCTAssertEqual(response.status.code, 400, "\(path) \(cursor): \(response.bodyString)")
                let reason = try response.decode(ErrorAnswer.self).reason
                XCTAssertTrue(reason.hasPrefix("Invalid cursor") && reason.contains("NUL"), reason)
            }
        }
    }

    func testTheSessionsCursorCarriesNothingGlobal() async throws {
        try await withTestApp { app in
            let user = try await User.create(on: app)
            let login = try await app.client.session(user.username)
            for _ in 0..<5 { _ = try await app.client.session("admin") }  // other people's logins in between
            _ = try await app.client.session(user.username)
            _ = try await app.client.session(user.username)

            let page = try await app.client.send(.get, "/api/users/me/sessions?limit=1", auth: .bearer(login.value))
            XCTAssertEqual(page.status.code, 200, page.bodyString)
            let shown = try XCTUnwrap(try page.decode([SessionEntry].self).first)
            let link = try XCTUnwrap(page.headers["Link"])
            let cursor = try XCTUnwrap(link.split(separator: "cursor=").last?.prefix { $0 != ">" && $0 != "&" })
            let fields = try payload(of: String(cursor))
            XCTAssertNil(fields["seq"], "a global sequence number in the sessions cursor: \(fields)")
            XCTAssertEqual(Set(fields.keys), ["list", "at", "id"], "\(fields)")
            XCTAssertEqual((fields["id"] as? String).flatMap(UUID.init(uuidString:)), shown.id, "the last shown session's own id")
            let at = try XCTUnwrap((fields["at"] as? NSNumber)?.int64Value, "\(fields)")
            let created = try contractDate(shown.createdAt)
            XCTAssertEqual(Double(at) / 1_000_000, created.timeIntervalSince1970, accuracy: 1, "its own creation time, in µs")

            let walked = try await app.walk("/api/users/me/sessions?limit=1", auth: .bearer(login.value))
            XCTAssertEqual(walked.map(\.count), [1, 1, 1], "the user's three sessions, once each")
            let whole = try await app.ids(of: "/api/users/me/sessions", auth: .bearer(login.value))
            XCTAssertEqual(walked.flatMap { $0 }, whole)
        }
    }
}
