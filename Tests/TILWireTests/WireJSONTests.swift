import Foundation
import TILWire
import XCTest

/// The wire text of a login answer and a session, to the byte: dates as whole-second UTC
/// whatever the coder's date strategy, scopes as plain names, and a scope this version does
/// not know kept through a decode and an encode.
final class WireJSONTests: XCTestCase {
    private let session = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    private let user = UUID(uuidString: "0E7E2E6A-1C52-4F4B-9B5E-3C2F1D6A7B8C")!
    private let future = Scope(rawValue: "acronyms:moderate")

    private func moment(_ text: String) throws -> Date { try XCTUnwrap(WireDate.date(from: text), text) }

    /// Sorted keys, so the text is comparable; the date strategy is deliberately not ISO 8601.
    private func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func testTokenRoundTripsItsExactWireText() throws {
        let wire = """
            {"expiresAt":"2026-11-23T13:00:00Z","id":"\(session.uuidString)","refreshExpiresAt":"2026-12-23T12:00:00Z",\
            "refreshToken":"def","scopes":["acronyms:write","account","acronyms:moderate"],"tokenType":"Bearer",\
            "user":{"id":"\(user.uuidString)"},"value":"abc"}
            """
        let token = try JSONDecoder().decode(Token.self, from: Data(wire.utf8))
        XCTAssertEqual(token, Token(
            id: session, value: "abc", user: UserReference(id: user), expiresAt: try moment("2026-11-23T13:00:00Z"),
            refreshToken: "def", refreshExpiresAt: try moment("2026-12-23T12:00:00Z"),
            scopes: [.acronymsWrite, .account, future]))
        XCTAssertFalse(future.isKnown)
        XCTAssertEqual(try text(token), wire, "decoded and encoded again, not a byte changes")
    }

    func testSessionInfoRoundTripsItsExactWireText() throws {
        let wire = """
            {"createdAt":"2026-11-23T12:00:00Z","current":true,"expiresAt":"2026-11-23T13:00:00Z",\
            "id":"\(session.uuidString)","lastUsedAt":"2026-11-23T12:30:05Z","refreshExpiresAt":"2026-12-23T12:00:00Z",\
            "scopes":["acronyms:moderate","account"],"userAgent":"til/1.0"}
            """
        let info = try JSONDecoder().decode(SessionInfo.self, from: Data(wire.utf8))
        XCTAssertEqual(info.lastUsedAt, try moment("2026-11-23T12:30:05Z"))
        XCTAssertEqual(info.scopes, [future, .account])
        XCTAssertEqual(try text(info), wire)
    }

    func testDatesAreWrittenInWholeSecondsNeverRoundedUp() throws {
        let almost = try moment("2026-11-23T12:59:59Z").addingTimeInterval(0.999)
        XCTAssertEqual(WireDate.text(of: almost), "2026-11-23T12:59:59Z")
        XCTAssertEqual(try moment("2026-11-23T12:59:59.250Z").timeIntervalSince(try moment("2026-11-23T12:59:59Z")), 0.25, accuracy: 0.001)
    }

    func testATimeThatIsNotISO8601IsADecodingError() {
        let wire = #"{"id":"\#(session.uuidString)","createdAt":"yesterday","lastUsedAt":"2026-11-23T12:00:00Z","#
            + #""expiresAt":"2026-11-23T12:00:00Z","refreshExpiresAt":"2026-11-23T12:00:00Z","scopes":[],"current":false}"#
        XCTAssertThrowsError(try JSONDecoder().decode(SessionInfo.self, from: Data(wire.utf8))) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.last?.stringValue, "createdAt")
        }
    }

    func testScopesSortKnownFirstInCanonicalOrderThenByName() {
        let zeta = Scope(rawValue: "zeta"), alpha = Scope(rawValue: "alpha")
        XCTAssertEqual([zeta, .account, alpha, .acronymsWrite, .usersWrite].sorted(), [.acronymsWrite, .usersWrite, .account, alpha, zeta])
        XCTAssertEqual(Scope.known.map(\.rawValue), ["acronyms:write", "categories:write", "users:write", "account"])
    }
}
