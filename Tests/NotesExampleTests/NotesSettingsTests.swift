import Foundation
import XCTest
@testable import NotesExample

/// How notes-api reads its environment and TIL's answers: what it needs, its defaults, and
/// the refusals that make it exit 78 instead of serving half-configured.
final class NotesSettingsTests: XCTestCase {
    private let minimal = ["NOTES_ISSUER": "http://127.0.0.1:8080", "NOTES_CLIENT_ID": "notes", "NOTES_CLIENT_SECRET": "s3cret"]

    func testDefaultsNameTheLoopbackAddressAsTheResource() throws {
        let settings = try NotesSettings(environment: minimal)
        XCTAssertEqual(settings.resourceURI, "http://127.0.0.1:8081")
        XCTAssertEqual(settings.cacheLifetime, .seconds(5))
        let v6 = try NotesSettings(environment: minimal.merging(["NOTES_HOST": "::1", "NOTES_PORT": "9000"]) { $1 })
        XCTAssertEqual(v6.resourceURI, "http://[::1]:9000")
        let behindProxy = try NotesSettings(environment: minimal.merging(["NOTES_RESOURCE_URI": "https://notes.example/v1"]) { $1 })
        XCTAssertEqual(behindProxy.resourceURI, "https://notes.example/v1")
        XCTAssertEqual(ResourceMetadata.path(for: behindProxy.resource), "/.well-known/oauth-protected-resource/v1")
        XCTAssertEqual(ResourceMetadata.url(for: behindProxy.resource), "https://notes.example/.well-known/oauth-protected-resource/v1")
    }

    func testEveryBadSettingIsRefusedByName() {
        let cases: [(String, [String: String])] = [
            ("NOTES_ISSUER", ["NOTES_ISSUER": ""]), ("NOTES_ISSUER", ["NOTES_ISSUER": "ftp://til.example"]),
            ("NOTES_ISSUER", ["NOTES_ISSUER": "https://til.example/"]), ("NOTES_ISSUER", ["NOTES_ISSUER": "til.example"]),
            ("NOTES_CLIENT_ID", ["NOTES_CLIENT_ID": ""]), ("NOTES_CLIENT_SECRET", ["NOTES_CLIENT_SECRET": ""]),
            ("NOTES_PORT", ["NOTES_PORT": "0"]), ("NOTES_PORT", ["NOTES_PORT": "eighty"]),
            ("NOTES_CACHE_SECONDS", ["NOTES_CACHE_SECONDS": "61"]), ("NOTES_CACHE_SECONDS", ["NOTES_CACHE_SECONDS": "-1"]),
            ("NOTES_RESOURCE_URI", ["NOTES_RESOURCE_URI": "notes"]), ("NOTES_RESOURCE_URI", ["NOTES_RESOURCE_URI": "https://n.example/#x"]),
        ]
        for (name, change) in cases {
            XCTAssertThrowsError(try NotesSettings(environment: minimal.merging(change) { $1 }), "\(change)") { error in
                XCTAssertTrue("\(error)".hasPrefix(name), "\(change): \(error)")
            }
        }
    }

    func testTheDiscoveryURLPutsTheWellKnownPartBeforeTheIssuersPath() throws {
        let root = try XCTUnwrap(URL(string: "https://til.example"))
        XCTAssertEqual(
            AuthorizationServerMetadata.discoveryURL(of: root)?.absoluteString,
            "https://til.example/.well-known/oauth-authorization-server")
        let nested = try XCTUnwrap(URL(string: "https://example.com/til"))
        XCTAssertEqual(
            AuthorizationServerMetadata.discoveryURL(of: nested)?.absoluteString,
            "https://example.com/.well-known/oauth-authorization-server/til")
    }

    /// RFC 7662 lets `aud` be one string or an array; anything else is no answer.
    func testAnAudienceIsOneStringOrAnArray() throws {
        func decode(_ json: String) throws -> IntrospectionResult {
            try JSONDecoder().decode(IntrospectionResult.self, from: Data(json.utf8))
        }
        XCTAssertEqual(try decode(#"{"active":true,"aud":"https://a"}"#).audiences, ["https://a"])
        XCTAssertEqual(try decode(#"{"active":true,"aud":["https://a","https://b"]}"#).audiences, ["https://a", "https://b"])
        XCTAssertEqual(try decode(#"{"active":true}"#).audiences, [])
        XCTAssertThrowsError(try decode(#"{"active":true,"aud":7}"#))
        XCTAssertThrowsError(try decode(#"{"aud":"https://a"}"#), "active is required")
    }
}
