import Crypt
import Foundation
import XCTest
@testable import App

/// The small rules of the pages, each alone: where a login may return to, what a PKCE
/// challenge looks like, what a CSP source may be, and how a CSRF token binds to its cookie.
final class PagePrimitivesTests: XCTestCase {
    func testReturnToIsOnlyAPathOnThisServer() {
        for local in ["/", "/account", "/oauth/authorize?client_id=a&state=x%20y", "/a/b/../c", "/%2F%2Fevil"] {
            XCTAssertEqual(ReturnTo.validated(local), local, local)
        }
        for hostile in [
            "", "account", "//evil.example", "///evil.example", "/\\evil.example", "\\\\evil", "https://evil.example", "javascript:alert(1)",
            "/a\r\nSet-Cookie: x", "/a\u{0}", "/a b", "/\t/evil", "/a#b", "/é", "/\u{7F}", "/" + String(repeating: "a", count: ReturnTo.maxLength),
        ] {
            XCTAssertNil(ReturnTo.validated(hostile), hostile.debugDescription)
        }
    }

    func testACodeChallengeIsTheBase64URLOfADigest() {
        for _ in 0..<50 {
            let challenge = Base64URL.encode(SHA256.hash(Array(SecureRandom.token().utf8)))
            XCTAssertTrue(PKCE.isChallenge(challenge), challenge)
        }
        let valid = Base64URL.encode(SHA256.hash(Array("verifier".utf8)))
        XCTAssertFalse(PKCE.isChallenge(String(valid.dropLast())), "42 characters")
        XCTAssertFalse(PKCE.isChallenge(valid + "A"), "44 characters")
        XCTAssertFalse(PKCE.isChallenge(String(valid.dropLast()) + "="), "padding")
        XCTAssertFalse(PKCE.isChallenge(String(repeating: "+", count: 43)), "base64, not base64url")
        XCTAssertFalse(PKCE.isChallenge(String(repeating: "A", count: 42) + "B"), "bits past the digest")
        XCTAssertFalse(PKCE.isChallenge(String(repeating: "é", count: 43)))
    }

    func testACSPSourceIsAnOriginOrAPrivateSchemeAndNeverANewDirective() {
        XCTAssertEqual(ContentSecurityPolicy.source(of: "https://app.example/cb?x=1"), "https://app.example")
        XCTAssertEqual(ContentSecurityPolicy.source(of: "http://127.0.0.1:53170/cb"), "http://127.0.0.1:53170")
        XCTAssertEqual(ContentSecurityPolicy.source(of: "http://[::1]:8080/cb"), "http://[::1]:8080")
        XCTAssertEqual(ContentSecurityPolicy.source(of: "com.example.til:/callback"), "com.example.til:")
        for hostile in ["https://a.example;script-src *", "https://a b/", "https://user@a.example/", "no-scheme", "1ab:/x", "https:/x", "x y:/z"] {
            XCTAssertNil(ContentSecurityPolicy.source(of: hostile), hostile)
        }
        XCTAssertEqual(
            ContentSecurityPolicy(formTargets: ["https://app.example"]).headerValue,
            "default-src 'none'; style-src 'self'; form-action 'self' https://app.example; frame-ancestors 'none'; base-uri 'none'")
    }

    func testACSRFTokenBindsToItsSecretOnly() {
        let secret = SecureRandom.token()
        let token = CSRFToken.token(boundTo: secret)
        XCTAssertTrue(CSRFToken.isValid(token, boundTo: secret))
        XCTAssertFalse(CSRFToken.isValid(token, boundTo: SecureRandom.token()))
        XCTAssertFalse(CSRFToken.isValid(token, boundTo: nil))
        XCTAssertFalse(CSRFToken.isValid(nil, boundTo: secret))
        XCTAssertFalse(CSRFToken.isValid(token.uppercased(), boundTo: secret))
        XCTAssertFalse(CSRFToken.isValid(token, boundTo: ""))
        XCTAssertNotEqual(token, SHA256.hex(of: secret), "never the session's stored digest")
    }
}
