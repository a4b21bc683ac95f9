import Web
import XCTest
@testable import App

/// `RESOURCES`, `RESOURCE_SCOPE_DESCRIPTIONS`, `OAUTH_REGISTRATION`, `AUTH_CODE_TTL` (issue 18),
/// and the words the consent page shows for every scope.
final class OAuthSettingsTests: XCTestCase {
    private func settings(_ variables: [String: String]) throws -> OAuthSettings {
        try OAuthSettings(reader: ConfigReader(environment: variables))
    }

    func testTheDefaultsAreAdminRegistrationAOneMinuteCodeAndNoOtherResource() throws {
        let defaults = try settings([:])
        XCTAssertEqual(defaults.registration, .admin)
        XCTAssertEqual(defaults.authorizationCodeTTL, .seconds(60))
        XCTAssertEqual(defaults.scopes.resources, [])
        XCTAssertEqual(
            defaults.scopes.allScopes,
            ["acronyms:write", "categories:write", "users:write", "account", "clients:write", "openid", "profile", "email", "offline_access"])
        XCTAssertEqual(try settings(["OAUTH_REGISTRATION": "OPEN", "AUTH_CODE_TTL": "30"]).registration, .open)
    }

    func testResourcesAndTheirScopesAreReadWithTheirWords() throws {
        let read = try settings([
            "RESOURCES": " https://notes.example=notes:read notes:write ; http://127.0.0.1:9000/api=local:x;",
            "RESOURCE_SCOPE_DESCRIPTIONS": "notes:read=Lire vos notes — 📝;notes:write=Change your notes",
        ])
        let catalog = read.scopes
        XCTAssertEqual(catalog.resources.map(\.uri), ["https://notes.example", "http://127.0.0.1:9000/api"])
        XCTAssertEqual(catalog.resource(definingScope: "notes:write")?.uri, "https://notes.example")
        XCTAssertEqual(catalog.resource(named: "https://notes.example")?.scopes, ["notes:read", "notes:write"])
        XCTAssertNil(catalog.resource(named: "https://NOTES.example"), "resources compare by exact string")
        XCTAssertEqual(catalog.words(for: "notes:read"), "Lire vos notes — 📝")
        XCTAssertEqual(catalog.words(for: "local:x"), "'local:x' at http://127.0.0.1:9000/api")
        XCTAssertEqual(catalog.words(for: "account")?.hasPrefix("Manage your account"), true)
        XCTAssertEqual(catalog.words(for: "clients:write"), "Register applications that may sign in with TIL")
        XCTAssertNil(catalog.words(for: "unknown"))
        XCTAssertTrue(catalog.isKnown("notes:read"))
        XCTAssertFalse(catalog.isKnown("nоtes:read"), "a Cyrillic о is another scope")
    }

    func testBadResourcesAreRefusedNamingTheVariableAndTheReason() {
        let refused: [(String, String)] = [
            ("https://a.example=x:y;https://a.example=x:z", "listed twice"),
            ("https://a.example=x:y;https://b.example=x:y", "defined twice"),
            ("https://a.example=acronyms:write", "TIL's own"),
            ("http://notes.example=x", "not an https URI"),
            ("https://a.example#f=x", "not an https URI"),
            ("https://a.example=", "defines no scope"),
            ("https://a.example=a\"b", "not a scope name"),
            ("https://a.example=nоtes", "not a scope name"),
            ("https://a.example", "has no '='"),
        ]
        for (value, reason) in refused {
            XCTAssertThrowsError(try settings(["RESOURCES": value]), value) { error in
                XCTAssertTrue("\(error)".hasPrefix("RESOURCES must be"), "\(error)")
                XCTAssertTrue("\(error)".contains(reason), "\(value): \(error)")
            }
        }
        let resources = "https://a.example=a:read"
        for words in ["b:read=x", "a:read=", "a:read=\(String(repeating: "x", count: 201))", "a:read=x\u{202E}y", "a:read=x;a:read=y"] {
            XCTAssertThrowsError(try settings(["RESOURCES": resources, "RESOURCE_SCOPE_DESCRIPTIONS": words]), words)
        }
    }
}
